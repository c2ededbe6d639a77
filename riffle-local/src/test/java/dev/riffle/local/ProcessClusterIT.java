package dev.riffle.local;

import static dev.riffle.local.FlussRows.append;
import static dev.riffle.local.FlussRows.readLog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The multi-process fixture itself: servers are processes of their own, {@code kill -9} ends them
 * for real, and a restart on the same data directory brings back what was written.
 */
class ProcessClusterIT {

    @Test
    void serversAreSeparateProcessesThatSurviveKillAndRestart(@TempDir Path dataDir) throws Exception {
        TablePath path = TablePath.of("forked", "events");
        try (ProcessCluster cluster = ProcessCluster.builder().dataDir(dataDir).tabletServers(3).start()) {
            assertThat(cluster.runningTabletServers()).containsExactly(0, 1, 2);
            long pid = cluster.tabletServerPid(1);
            assertThat(pid).isNotEqualTo(ProcessHandle.current().pid());
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).contains(true);

            try (Connection setup = ConnectionFactory.createConnection(cluster.clientConfig());
                    Admin admin = setup.getAdmin()) {
                admin.createDatabase("forked", DatabaseDescriptor.EMPTY, false).get();
                Schema schema = Schema.newBuilder().column("id", DataTypes.INT())
                        .column("name", DataTypes.STRING()).build();
                admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(3).build(), false).get();
                append(setup, path, 0, 300);
            }

            cluster.killTabletServer(1);
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            assertThat(cluster.runningTabletServers()).containsExactly(0, 2);
            assertThatThrownBy(() -> cluster.tabletServerPid(1)).hasMessageContaining("not running");
            try (Connection during = ConnectionFactory.createConnection(cluster.clientConfig())) {
                append(during, path, 300, 600);
            }

            cluster.startTabletServer(1);
            cluster.killCoordinator();
            cluster.startCoordinator();
            assertThat(cluster.runningTabletServers()).containsExactly(0, 1, 2);
            try (Connection after = ConnectionFactory.createConnection(cluster.clientConfig())) {
                append(after, path, 600, 900);
                List<String> expected = IntStream.range(0, 900).mapToObj(i -> i + ":name-" + i).toList();
                assertThat(readLog(after, path, 3, 900)).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
        assertThat(Files.readString(dataDir.resolve("logs/tablet-server-1.log")))
                .as("the restarted server logged into the same file").contains("TabletServer");
    }
}
