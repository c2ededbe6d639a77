package dev.riffle.lake.tiering;

import org.apache.fluss.client.FlussConnection;
import dev.riffle.core.rpc.RetryingAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.lake.LakeTables;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
public class TieringServiceIT {
    public static final Schema LOG = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();
    public static final Schema PK = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).primaryKey("id").build();

    public static TieringService start(LocalCluster cluster) {
        return TieringService.builder().clientConfig(cluster.clientConfig())
                .lake("paimon", cluster.lakeCatalogOptions()).pollInterval(Duration.ofMillis(200)).start();
    }

    public static void createLakeTable(Connection connection, TablePath path, Schema schema, int buckets, String... keys)
            throws Exception {
        // Through RetryingAdmin: its createTable returns once the buckets have leaders (TableReadiness).
        RetryingAdmin.of((FlussConnection) connection).createTable(path, TableDescriptor.builder().schema(schema)
                .distributedBy(buckets, keys).property("table.datalake.enabled", "true")
                .property("table.datalake.freshness", "1s").build(), false).get();
    }

    @Test
    void logTableReachesTheLakeWithEveryRowOnce(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("log");
        createLakeTable(connection, path, LOG, 2);
        append(connection, path, 0, 1_000);
        BufferAllocator tieringMemory;
        try (TieringService tiering = start(cluster)) {
            tieringMemory = tiering.allocator();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(lakeIds(cluster, path))
                    .containsExactlyInAnyOrderElementsOf(range(0, 1_000)));
            append(connection, path, 1_000, 1_500);
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(lakeIds(cluster, path))
                    .containsExactlyInAnyOrderElementsOf(range(0, 1_500)));
            // Fluss knows what the lake holds: the lake snapshot's offsets are the buckets' ends.
            try (Admin admin = connection.getAdmin()) {
                Map<Integer, Long> latest = admin.listOffsets(path, List.of(0, 1), new OffsetSpec.LatestSpec()).all().get();
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                    Map<TableBucket, Long> tiered = admin.getLatestLakeSnapshot(path).get().getTableBucketsOffset();
                    assertThat(tiered.values().stream().mapToLong(Long::longValue).sum())
                            .isEqualTo(latest.values().stream().mapToLong(Long::longValue).sum());
                });
            }
            assertThat(tiering.tieredTables()).anySatisfy(t -> assertThat(t.table()).isEqualTo(path));
        }
        LakeReadBack.assertNoArrowMemoryLeft(tieringMemory);
    }

    @Test
    void lakeRowsCarryTheBucketOffsetAndTimestampTheLogGives(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("system_columns");
        createLakeTable(connection, path, LOG, 3);
        append(connection, path, 0, 3_000);
        // What Fluss's own log scanner says about every row: id -> bucket/offset/timestamp.
        Map<Integer, String> expected = new java.util.HashMap<>();
        try (Table table = connection.getTable(path);
                LogScanner scanner = table.newScan().createLogScanner()) {
            for (int b = 0; b < 3; b++) {
                scanner.subscribeFromBeginning(b);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (expected.size() < 3_000 && System.nanoTime() < deadline) {
                ScanRecords records = scanner.poll(Duration.ofSeconds(1));
                for (TableBucket bucket : records.buckets()) {
                    for (ScanRecord record : records.records(bucket)) {
                        expected.put(record.getRow().getInt(0),
                                bucket.getBucket() + "/" + record.logOffset() + "/" + record.timestamp());
                    }
                }
            }
        }
        assertThat(expected).hasSize(3_000);
        BufferAllocator tieringMemory;
        try (TieringService tiering = start(cluster)) {
            tieringMemory = tiering.allocator();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(lakeIds(cluster, path)).hasSize(3_000));
        }
        LakeReadBack.assertNoArrowMemoryLeft(tieringMemory);
        Map<Integer, String> lake = LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> Map.entry(row.getInt(0),
                row.getInt(2) + "/" + row.getLong(3) + "/" + row.getTimestamp(4, 3).getMillisecond()))
                .stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
        assertThat(lake).isEqualTo(expected);
    }

    @Test
    void primaryKeyTableKeepsNewestValuesAndDropsDeletedKeys(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("pk");
        createLakeTable(connection, path, PK, 2, "id");
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < 100; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("v1-" + i)));
            }
            for (int i = 0; i < 100; i += 2) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("v2-" + i)));
            }
            for (int i = 0; i < 100; i += 10) {
                writer.delete(GenericRow.of(i, BinaryString.fromString("v2-" + i)));
            }
            writer.flush();
        }
        List<String> expected = IntStream.range(0, 100).filter(i -> i % 10 != 0)
                .mapToObj(i -> i + "=" + (i % 2 == 0 ? "v2-" : "v1-") + i).collect(Collectors.toList());
        BufferAllocator tieringMemory;
        try (TieringService tiering = start(cluster)) {
            tieringMemory = tiering.allocator();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                    LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> row.getInt(0) + "=" + row.getString(1)))
                    .containsExactlyInAnyOrderElementsOf(expected));
        }
        LakeReadBack.assertNoArrowMemoryLeft(tieringMemory);
    }

    public static void append(Connection connection, TablePath path, int from, int to) throws Exception {
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = from; i < to; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("name-" + i)));
            }
            writer.flush();
        }
    }

    public static List<Integer> lakeIds(LocalCluster cluster, TablePath path) throws Exception {
        try {
            return LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> row.getInt(0));
        } catch (Exception e) {
            return List.of();
        }
    }

    public static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().collect(Collectors.toList());
    }
}
