package dev.riffle.core.read;

import org.apache.fluss.client.FlussConnection;
import dev.riffle.core.rpc.RetryingAdmin;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.Riffle;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.local.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.predicate.PredicateBuilder;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A primary-key table's current rows come from each bucket's KV snapshot plus the changelog after
 * it, so keys whose last change lies in an expired log segment are still there. The cluster takes
 * KV snapshots every second, moves log segments of 128 KiB to remote storage and deletes them
 * once {@code table.log.ttl} passed.
 */
class SnapshotScanIT {
    private static final Schema SCHEMA = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("round", DataTypes.INT())
            .column("note", DataTypes.STRING())
            .primaryKey("id")
            .build();
    private static final int KEYS = 2_000;

    @TempDir
    static Path dataDir;
    private static LocalCluster cluster;
    private static Connection connection;

    @BeforeAll
    static void startCluster() {
        cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false)
                .serverConfig("kv.snapshot.interval", "1s")
                .serverConfig("log.segment.file-size", "128kb")
                .serverConfig("remote.log.task-interval-duration", "1s")
                .start();
        connection = ConnectionFactory.createConnection(cluster.clientConfig());
    }

    @AfterAll
    static void stopCluster() throws Exception {
        connection.close();
        cluster.close();
    }

    @ParameterizedTest(name = "{0} bucket(s)")
    @ValueSource(ints = {1, 3})
    void currentRowsSurviveTheExpiryOfTheLogThatWroteThem(int buckets) throws Exception {
        TablePath path = TablePath.of("snap", "expiring_" + buckets);
        create(path, buckets, Map.of("table.log.ttl", "1s", "table.log.tiered.local-segments", "1",
                "table.log.arrow.compression.type", "NONE"));
        // Every key is written in the first round, and then only the even keys are updated: the odd
        // keys' one write lies in the oldest segments, which expire.
        Map<Integer, Integer> oracle = new TreeMap<>();
        upsert(path, 0, KEYS, 1, 0, oracle);
        for (int round = 1; round <= 12; round++) {
            upsert(path, 0, KEYS, 2, round, oracle);
        }
        try (Admin admin = connection.getAdmin()) {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> earliestOffsets(admin, path, buckets).values().stream().allMatch(o -> o > 0)
                            && snapshotsCoverTheLog(admin, path, buckets));
        }
        // The changelog from the earliest offset no longer knows the odd keys: the test is about something.
        Map<Integer, Integer> replayed;
        try {
            replayed = changelogFold(path);
        } catch (dev.riffle.core.exception.LogExpiredException e) {
            // The replay could not even finish: a segment it was about to read expired under it.
            replayed = Map.of();
        }
        assertThat(replayed).as("keys the changelog replay still knows").hasSizeLessThan(KEYS);

        // More changes after the snapshot, deletes among them: the tail is merged over it.
        upsert(path, 0, 100, 1, 100, oracle);
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int id = 100; id < 110; id++) {
                writer.delete(row(id, oracle.remove(id)));
            }
            writer.flush();
        }
        assertThat(current(path)).isEqualTo(oracle);
        // A projection without the key, and a filter: the same path, the filter applied to each key's newest row.
        try (BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator)) {
            ReadBuilder filtered = riffle.table(path).read().columns("note")
                    .filter(new PredicateBuilder(SCHEMA.getRowType()).equal(1, 100));
            assertThat(filtered.path()).isEqualTo(ReadPath.SNAPSHOT_SCAN);
            long rows = 0;
            try (TableReader reader = filtered.createReader()) {
                assertThat(reader.schema().getFields()).extracting(f -> f.getName()).containsExactly("note");
                while (reader.hasNext()) {
                    try (ReadBatch batch = reader.next()) {
                        rows += batch.rowCount();
                    }
                }
            }
            assertThat(rows).as("keys 0..99, rewritten in round 100").isEqualTo(100);
        }
    }

    @Test
    void aPartitionedTableIsReadPartitionByPartition() throws Exception {
        TablePath path = TablePath.of("snap", "by_region");
        Schema schema = Schema.newBuilder().column("region", DataTypes.STRING()).column("id", DataTypes.INT())
                .column("round", DataTypes.INT()).primaryKey("region", "id").build();
        try (Admin admin = connection.getAdmin()) {
            admin.createDatabase("snap", DatabaseDescriptor.EMPTY, true).get();
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(2, "id")
                    .partitionedBy("region").build(), false).get();
            for (String region : List.of("eu", "us")) {
                admin.createPartition(path, new org.apache.fluss.metadata.PartitionSpec(Map.of("region", region)),
                        false).get();
            }
        }
        Map<String, Integer> oracle = new TreeMap<>();
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int round = 0; round < 5; round++) {
                for (String region : List.of("eu", "us")) {
                    for (int id = 0; id < 300; id++) {
                        writer.upsert(GenericRow.of(BinaryString.fromString(region), id, round));
                        oracle.put(region + "/" + id, round);
                    }
                }
                writer.flush();
            }
        }
        try (Admin admin = connection.getAdmin()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                for (String region : List.of("eu", "us")) {
                    KvSnapshots snapshots = admin.getLatestKvSnapshots(path, region).get();
                    if (snapshots.getBucketIds().stream().anyMatch(b -> snapshots.getSnapshotId(b).isEmpty())) {
                        return false;
                    }
                }
                return true;
            });
        }
        Map<String, Integer> rows = new TreeMap<>();
        try (BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator);
                TableReader reader = riffle.table(path).read().columns("round", "id", "region").createReader()) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    IntVector round = (IntVector) batch.root().getVector("round");
                    IntVector id = (IntVector) batch.root().getVector("id");
                    VarCharVector region = (VarCharVector) batch.root().getVector("region");
                    for (int i = 0; i < batch.rowCount(); i++) {
                        assertThat(rows.put(new String(region.get(i)) + "/" + id.get(i), round.get(i))).isNull();
                    }
                }
            }
        }
        assertThat(rows).isEqualTo(oracle);
    }

    /**
     * A column added between two snapshots: the snapshot holds values of both schemas (each value
     * carries its schema id), the tail holds rows of the new one; every key answers in the new
     * schema, the column null where the row was written before it.
     */
    @Test
    void aSnapshotHoldingRowsOfTwoSchemasAnswersInTheNewOne() throws Exception {
        TablePath path = TablePath.of("snap", "evolving");
        create(path, 2, Map.of());
        Map<Integer, Integer> ignored = new HashMap<>();
        upsert(path, 0, 100, 1, 0, ignored);
        try (Admin admin = connection.getAdmin()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> snapshotsCoverTheLog(admin, path, 2));
            dev.riffle.core.schema.TableAlteration.of(path, List.of(org.apache.fluss.metadata.TableChange.addColumn(
                    "extra", DataTypes.BIGINT(), null, org.apache.fluss.metadata.TableChange.ColumnPosition.last())))
                    .apply(admin, false).get(30, TimeUnit.SECONDS);
            try (Table table = connection.getTable(path)) {
                UpsertWriter writer = table.newUpsert().createWriter();
                for (int id = 0; id < 100; id += 10) {
                    writer.upsert(GenericRow.of(id, 1, BinaryString.fromString("new " + id), (long) id * 7));
                }
                writer.flush();
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> snapshotsCoverTheLog(admin, path, 2));
            try (Table table = connection.getTable(path)) {
                UpsertWriter writer = table.newUpsert().createWriter();
                writer.upsert(GenericRow.of(5, 2, BinaryString.fromString("tail 5"), 55L));
                writer.flush();
            }
        }
        Map<Integer, String> rows = new TreeMap<>();
        try (BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator)) {
            ReadBuilder read = riffle.table(path).read().columns("id", "extra", "round");
            assertThat(read.path()).isEqualTo(ReadPath.SNAPSHOT_SCAN);
            try (TableReader reader = read.createReader()) {
                while (reader.hasNext()) {
                    try (ReadBatch batch = reader.next()) {
                        for (int i = 0; i < batch.rowCount(); i++) {
                            rows.put((Integer) batch.root().getVector("id").getObject(i),
                                    batch.root().getVector("extra").getObject(i) + "/"
                                            + batch.root().getVector("round").getObject(i));
                        }
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        assertThat(rows).hasSize(100);
        for (int id = 0; id < 100; id++) {
            String expected = id == 5 ? "55/2" : id % 10 == 0 ? (long) id * 7 + "/1" : "null/0";
            assertThat(rows.get(id)).as("key %s", id).isEqualTo(expected);
        }
    }

    /**
     * Writes go on while the table is read: the answer is each key's newest value below the stop
     * offsets the read captured, once per key, as the whole changelog folded up to those offsets says.
     */
    @Test
    void writesDuringTheReadLeaveTheAnswerAtTheCapturedStopOffsets() throws Exception {
        TablePath path = TablePath.of("snap", "busy");
        create(path, 3, Map.of());
        Map<Integer, Integer> ignored = new HashMap<>();
        upsert(path, 0, KEYS, 1, 0, ignored);
        try (Admin admin = connection.getAdmin()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> snapshotsCoverTheLog(admin, path, 3));
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger rounds = new AtomicInteger();
        Thread writer = new Thread(() -> {
            try (Table table = connection.getTable(path)) {
                UpsertWriter upsert = table.newUpsert().createWriter();
                for (int round = 1; writing.get(); round++) {
                    for (int id = 0; id < KEYS; id += 7) {
                        upsert.upsert(row(id, round));
                    }
                    upsert.flush();
                    rounds.set(round);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, "busy-writer");
        writer.start();
        Map<Integer, Integer> read;
        Map<org.apache.fluss.metadata.TableBucket, Long> stops;
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> rounds.get() >= 3);
            try (BufferAllocator allocator = new RootAllocator();
                    Riffle riffle = Riffle.using(connection, allocator);
                    TableReader reader = riffle.table(path).read().createReader()) {
                read = collect(reader);
                stops = reader.logStopOffsets();
            }
        } finally {
            writing.set(false);
            writer.join(TimeUnit.MINUTES.toMillis(1));
        }
        assertThat(rounds.get()).as("writes went on during the read").isGreaterThan(3);
        Map<org.apache.fluss.metadata.TableBucket, Long> captured = stops;
        Map<Integer, Integer> expected = new TreeMap<>();
        try (BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator);
                TableReader changelog = riffle.table(path).read().changelog().columns("id", "round", "_change_type")
                        .until(StoppingOffsets.explicit(bucketRefs(captured))).createReader()) {
            fold(changelog, expected);
        }
        assertThat(read).isEqualTo(expected);
    }

    private static Map<BucketRef, Long> bucketRefs(Map<org.apache.fluss.metadata.TableBucket, Long> offsets) {
        Map<BucketRef, Long> refs = new HashMap<>();
        offsets.forEach((bucket, offset) -> refs.put(BucketRef.of(bucket.getBucket()), offset));
        return refs;
    }

    private static void create(TablePath path, int buckets, Map<String, String> properties) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createDatabase("snap", DatabaseDescriptor.EMPTY, true).get();
            TableDescriptor.Builder descriptor = TableDescriptor.builder().schema(SCHEMA).distributedBy(buckets);
            properties.forEach(descriptor::property);
            // Through RetryingAdmin: its createTable returns once the buckets have leaders (TableReadiness).
            RetryingAdmin.of((FlussConnection) connection).createTable(path, descriptor.build(), false).get();
        }
    }

    /** Upserts every {@code step}-th key in [from, to) with {@code round}, in flushes of 500. */
    private static void upsert(TablePath path, int from, int to, int step, int round, Map<Integer, Integer> oracle)
            throws Exception {
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            int written = 0;
            for (int id = from; id < to; id += step) {
                writer.upsert(row(id, round));
                oracle.put(id, round);
                if (++written % 500 == 0) {
                    writer.flush();
                }
            }
            writer.flush();
        }
    }

    private static GenericRow row(int id, int round) {
        return GenericRow.of(id, round, BinaryString.fromString("note of " + id + " in round " + round
                + " padded to make segments fill up quickly ......................................"));
    }

    private static Map<Integer, Long> earliestOffsets(Admin admin, TablePath path, int buckets) throws Exception {
        List<Integer> ids = java.util.stream.IntStream.range(0, buckets).boxed().toList();
        return admin.listOffsets(path, ids, new OffsetSpec.EarliestSpec()).all().get();
    }

    private static boolean snapshotsCoverTheLog(Admin admin, TablePath path, int buckets) throws Exception {
        List<Integer> ids = java.util.stream.IntStream.range(0, buckets).boxed().toList();
        Map<Integer, Long> latest = admin.listOffsets(path, ids, new OffsetSpec.LatestSpec()).all().get();
        KvSnapshots snapshots = admin.getLatestKvSnapshots(path).get();
        for (int bucket : ids) {
            if (snapshots.getLogOffset(bucket).orElse(-1) < latest.get(bucket)) {
                return false;
            }
        }
        return true;
    }

    private static Map<Integer, Integer> current(TablePath path) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator)) {
            Map<Integer, Integer> rows;
            try (TableReader reader = riffle.table(path).read().columns("round", "id").createReader()) {
                rows = collect(reader);
            }
            assertThat(allocator.getAllocatedMemory()).as("Arrow memory after the read").isZero();
            return rows;
        }
    }

    private static Map<Integer, Integer> collect(TableReader reader) {
        Map<Integer, Integer> rows = new TreeMap<>();
        while (reader.hasNext()) {
            try (ReadBatch batch = reader.next()) {
                IntVector id = (IntVector) batch.root().getVector("id");
                IntVector round = (IntVector) batch.root().getVector("round");
                for (int i = 0; i < batch.rowCount(); i++) {
                    assertThat(rows.put(id.get(i), round.get(i))).as("key %s twice", id.get(i)).isNull();
                }
            }
        }
        return rows;
    }

    /** The table's changelog from the earliest offset folded by key: what a replay knows. */
    private static Map<Integer, Integer> changelogFold(TablePath path) throws Exception {
        Map<Integer, Integer> rows = new TreeMap<>();
        try (BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator);
                TableReader changelog = riffle.table(path).read().changelog().columns("id", "round", "_change_type")
                        .createReader()) {
            fold(changelog, rows);
        }
        return rows;
    }

    private static void fold(TableReader changelog, Map<Integer, Integer> rows) {
        while (changelog.hasNext()) {
            try (ReadBatch batch = changelog.next()) {
                IntVector id = (IntVector) batch.root().getVector("id");
                IntVector round = (IntVector) batch.root().getVector("round");
                VarCharVector type = (VarCharVector) batch.root().getVector("_change_type");
                for (int i = 0; i < batch.rowCount(); i++) {
                    String change = new String(type.get(i));
                    if (change.equals("-D") || change.equals("-U")) {
                        rows.remove(id.get(i));
                    } else {
                        rows.put(id.get(i), round.get(i));
                    }
                }
            }
        }
    }
}
