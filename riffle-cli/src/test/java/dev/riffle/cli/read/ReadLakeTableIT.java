package dev.riffle.cli.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.lake.tiering.TieringService;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@code riffle read --source union|lake|log} and {@code riffle tier --status} on a datalake-enabled table. */
@ExtendWith(LocalClusterExtension.class)
class ReadLakeTableIT {

    @Test
    void unionLakeAndLogSourcesAndTieringStatus(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("lake_events");
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(ReadTables.EVENTS).distributedBy(2)
                    .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s").build(),
                    false).get();
        }
        ReadTables.append(connection, path, 0, 100);
        try (TieringService tiering = TieringService.builder().clientConfig(cluster.clientConfig())
                .lake("paimon", cluster.lakeCatalogOptions()).pollInterval(Duration.ofMillis(200)).start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> !tiering.tieredTables().isEmpty()
                    && tiering.tieredTables().get(0).rows() == 100);
        }
        ReadTables.append(connection, path, 100, 130);
        String bootstrap = cluster.bootstrapServers();

        CliRun union = CliRun.of("read", path.toString(), "--bootstrap-servers", bootstrap, "--columns", "id");
        assertThat(union.exitCode()).as(union.err()).isZero();
        assertThat(ids(union)).isEqualTo(range(0, 130));

        CliRun lake = CliRun.of("read", path.toString(), "--bootstrap-servers", bootstrap, "--columns", "id",
                "--source", "lake");
        assertThat(lake.exitCode()).as(lake.err()).isZero();
        assertThat(ids(lake)).isEqualTo(range(0, 100));

        CliRun log = CliRun.of("read", path.toString(), "--bootstrap-servers", bootstrap, "--columns", "id",
                "--source", "log");
        assertThat(log.exitCode()).as(log.err()).isZero();
        assertThat(ids(log)).isEqualTo(range(0, 130));

        CliRun misuse = CliRun.of("read", path.toString(), "--bootstrap-servers", bootstrap, "--source", "union",
                "--changelog");
        assertThat(misuse.exitCode()).isEqualTo(2);
        assertThat(misuse.err()).contains("--source union reads the table's current rows");

        CliRun status = CliRun.of("tier", "--status", "--bootstrap-servers", bootstrap);
        assertThat(status.exitCode()).as(status.err()).isZero();
        String line = status.out().lines().filter(l -> l.startsWith(path.toString())).findFirst().orElseThrow();
        // 30 records are not in the lake yet.
        assertThat(line.split("\\s+")[2]).isEqualTo("30");
    }

    private static List<Integer> ids(CliRun run) {
        return run.outLinesAfterHeader().stream().map(String::strip).map(Integer::parseInt).sorted()
                .collect(Collectors.toList());
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().collect(Collectors.toList());
    }
}
