package dev.riffle.lake.tiering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.lake.LakeTables;
import dev.riffle.local.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A primary-key table tiered for the first time while it has a KV snapshot starts from that
 * snapshot (as Fluss's Flink tiering does), not from a changelog that may no longer start at 0;
 * later rounds continue from the snapshot's log offset.
 */
class KvSnapshotTieringIT {

    @Test
    void firstRoundTiersTheKvSnapshotThenTheLogContinues(@TempDir Path dataDir) throws Exception {
        TablePath path = TablePath.of("kv", "accounts");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0)
                        .serverConfig("kv.snapshot.interval", "1s").start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase("kv", DatabaseDescriptor.EMPTY, false).get();
            admin.createTable(path, TableDescriptor.builder().schema(TieringServiceIT.PK).distributedBy(1, "id")
                    .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s").build(),
                    false).get();
            Map<Integer, String> oracle = new TreeMap<>();
            upsert(connection, path, 0, 100, "first-", oracle);
            upsert(connection, path, 0, 50, "second-", oracle);
            await().atMost(Duration.ofSeconds(30)).until(() ->
                    admin.getLatestKvSnapshots(path).get().getSnapshotId(0).isPresent());

            BufferAllocator tieringMemory;
            try (TieringService tiering = TieringServiceIT.start(cluster)) {
                tieringMemory = tiering.allocator();
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
                        assertThat(lake(cluster, path)).isEqualTo(oracle));
                // The first round wrote the snapshot's rows, which carry no log offset in the lake: keys
                // 50..99, last written before any snapshot was taken, come from it (the changelog would
                // have given them offsets 50..99).
                List<long[]> offsets = LakeTables.rows(cluster.lakeCatalogOptions(), path,
                        row -> new long[] {row.getInt(0), row.getLong(3)});
                assertThat(offsets.stream().filter(r -> r[0] >= 50 && r[0] < 100).map(r -> r[1]))
                        .hasSize(50).allMatch(offset -> offset == -1L);

                upsert(connection, path, 90, 120, "third-", oracle);
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
                        assertThat(lake(cluster, path)).isEqualTo(oracle));
            }
            LakeReadBack.assertNoArrowMemoryLeft(tieringMemory);
        }
    }

    private static Map<Integer, String> lake(LocalCluster cluster, TablePath path) throws Exception {
        Map<Integer, String> rows = new TreeMap<>();
        LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> rows.put(row.getInt(0), row.getString(1).toString()));
        return rows;
    }

    private static void upsert(Connection connection, TablePath path, int from, int to, String prefix,
            Map<Integer, String> oracle) throws Exception {
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = from; i < to; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString(prefix + i)));
                oracle.put(i, prefix + i);
            }
            writer.flush();
        }
    }
}
