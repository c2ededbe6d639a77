package dev.riffle.local;

import static dev.riffle.local.FlussRows.append;
import static dev.riffle.local.FlussRows.readLog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.cluster.ServerType;
import org.apache.fluss.exception.DisconnectException;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** With three tablet servers, a table replicated three times survives losing one of them. */
class ReplicationFailoverIT {

    @Test
    void replicatedTableStaysWritableAndReadableWhenATabletServerStops(@TempDir Path dataDir) throws Exception {
        TablePath path = TablePath.of("ha", "events");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).tabletServers(3).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            assertThat(cluster.runningTabletServers()).containsExactly(0, 1, 2);
            admin.createDatabase("ha", DatabaseDescriptor.EMPTY, false).get();
            Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(3).build(), false).get();
            TableInfo info = admin.getTableInfo(path).get();
            // Three tablet servers make replication factor 3 the default.
            assertThat(info.getProperties().toMap()).containsEntry("table.replication.factor", "3");

            append(connection, path, 0, 300);
            cluster.stopTabletServer(1);
            assertThat(cluster.runningTabletServers()).containsExactly(0, 2);
            // The coordinator drops the stopped server from the cluster it hands out. Asking is itself a metadata
            // request, which this connection may send to the stopped server (see below): that try is lost, not failed.
            await().atMost(Duration.ofSeconds(30)).ignoreExceptionsMatching(ReplicationFailoverIT::sentToTheStoppedServer)
                    .until(() -> admin.getServerNodes().get().stream()
                    .noneMatch(node -> node.serverType() == ServerType.TABLET_SERVER && node.id() == 1));

            // A client that connects now writes and reads everything. (The connection made before the stop would
            // not do: Fluss 0.9.1's client sends table-metadata requests to a random tablet server of the cluster
            // it cached, the stopped one included, and does not try another; about one getTable in three failed.)
            try (Connection after = ConnectionFactory.createConnection(cluster.clientConfig())) {
                append(after, path, 300, 600);
                List<String> expected = IntStream.range(0, 600).mapToObj(i -> i + ":name-" + i)
                        .collect(Collectors.toList());
                assertThat(readLog(after, path, 3, 600)).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }

    private static boolean sentToTheStoppedServer(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            // Either the request could not be sent (DisconnectException), or the server went while it was in flight.
            boolean network = cause instanceof DisconnectException || cause instanceof NetworkException;
            if (network && cause.getMessage() != null && cause.getMessage().contains("(id: ts-1,")) {
                return true;
            }
        }
        return false;
    }
}
