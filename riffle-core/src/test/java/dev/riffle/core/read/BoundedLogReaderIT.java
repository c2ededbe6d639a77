package dev.riffle.core.read;

import static dev.riffle.core.TestTables.EVENTS;
import static dev.riffle.core.TestTables.appendEvents;
import static dev.riffle.core.TestTables.create;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.Riffle;
import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import dev.riffle.core.TestTables;
import dev.riffle.core.scan.ArrowLogScanner;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.duckdb.DuckDBConnection;

@ExtendWith(LocalClusterExtension.class)
class BoundedLogReaderIT {
    private BufferAllocator allocator;

    @BeforeEach
    void allocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void noLeaks() {
        assertThat(allocator.getAllocatedMemory()).as("Arrow bytes still allocated after close").isZero();
        allocator.close();
    }

    @Test
    void readsEveryRowOfThreeBucketsWrittenInManyFlushes(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("events");
        // Bucketed by id, so every bucket gets rows: without a bucket key the writer's sticky
        // assigner decides, and once put all 10,000 rows into one bucket.
        create(connection, path, EVENTS, 3, "id");
        appendEvents(connection, path, 0, 10_000, 200);

        List<Integer> ids = new ArrayList<>();
        Map<Integer, Long> nextOffsetPerBucket = new HashMap<>();
        try (Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader reader = riffle.table(path).read().createLogReader()) {
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    assertThat(batch.rowCount()).isPositive();
                    int bucket = batch.bucket().getBucket();
                    // Batches of a bucket follow each other without gaps or overlaps.
                    assertThat(batch.baseOffset()).isEqualTo(nextOffsetPerBucket.getOrDefault(bucket, 0L));
                    nextOffsetPerBucket.put(bucket, batch.endOffset());
                    IntVector id = (IntVector) batch.root().getVector("id");
                    VarCharVector name = (VarCharVector) batch.root().getVector("name");
                    BigIntVector amount = (BigIntVector) batch.root().getVector("amount");
                    for (int i = 0; i < batch.rowCount(); i++) {
                        ids.add(id.get(i));
                        assertThat(name.getObject(i).toString()).isEqualTo("name-" + id.get(i));
                        assertThat(amount.get(i)).isEqualTo(id.get(i) * 10L);
                    }
                }
            }
            assertThat(reader.progress().bucketsDone()).isEqualTo(3);
        }
        assertThat(nextOffsetPerBucket).hasSize(3);
        assertThat(ids).containsExactlyInAnyOrderElementsOf(IntStream.range(0, 10_000).boxed().collect(Collectors.toList()));
    }

    @Test
    void partitionedTableWithAnEmptyPartition(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("by_day");
        Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("dt", DataTypes.STRING()).build();
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(2).partitionedBy("dt").build(),
                    false).get();
            for (String day : List.of("d1", "d2", "d3")) {
                admin.createPartition(path, new PartitionSpec(Map.of("dt", day)), false).get();
            }
        }
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < 300; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString(i % 2 == 0 ? "d1" : "d2")));
            }
            writer.flush();
        }

        Map<String, List<Integer>> idsByPartition = new TreeMap<>();
        try (Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader reader = riffle.table(path).read().createLogReader()) {
            assertThat(reader.stopOffsets()).hasSize(6); // 3 partitions x 2 buckets, the empty one included
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    IntVector id = (IntVector) batch.root().getVector("id");
                    VarCharVector dt = (VarCharVector) batch.root().getVector("dt");
                    for (int i = 0; i < batch.rowCount(); i++) {
                        assertThat(batch.partitionName()).contains(dt.getObject(i).toString());
                        idsByPartition.computeIfAbsent(batch.partitionName().orElseThrow(), k -> new ArrayList<>())
                                .add(id.get(i));
                    }
                }
            }
            assertThat(reader.progress().bucketsDone()).isEqualTo(6);
        }
        assertThat(idsByPartition).containsOnlyKeys("d1", "d2");
        assertThat(idsByPartition.get("d1")).hasSize(150).allMatch(i -> i % 2 == 0);
        assertThat(idsByPartition.get("d2")).hasSize(150).allMatch(i -> i % 2 == 1);

        try (Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader reader = riffle.table(path).read().partitions("d3").createLogReader()) {
            assertThat(reader.hasNext()).as("the empty partition has no rows").isFalse();
        }
    }

    @Test
    void writersStillWritingDuringTheReadChangeNothing(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("busy");
        create(connection, path, EVENTS, 3);
        appendEvents(connection, path, 0, 3_000, 100);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger written = new AtomicInteger(3_000);
        Thread writer = new Thread(() -> {
            try (Table table = connection.getTable(path)) {
                AppendWriter append = table.newAppend().createWriter();
                while (!stop.get()) {
                    append.append(TestTables.event(written.getAndIncrement()));
                    if (written.get() % 50 == 0) {
                        append.flush();
                    }
                }
                append.flush();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        writer.start();
        Map<TableBucket, Long> stops;
        Map<TableBucket, List<Long>> offsets = new HashMap<>();
        Set<Integer> ids = new HashSet<>();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> written.get() > 6_000);
            try (Riffle riffle = Riffle.using(connection, allocator);
                    BoundedLogReader reader = riffle.table(path).changelog().createLogReader()) {
                stops = reader.stopOffsets();
                while (reader.hasNext()) {
                    try (LogBatch batch = reader.next()) {
                        IntVector id = (IntVector) batch.root().getVector("id");
                        BigIntVector offset = (BigIntVector) batch.root().getVector("_log_offset");
                        for (int i = 0; i < batch.rowCount(); i++) {
                            assertThat(ids.add(id.get(i))).as("id %s read twice", id.get(i)).isTrue();
                            offsets.computeIfAbsent(batch.bucket(), b -> new ArrayList<>()).add(offset.get(i));
                        }
                    }
                }
            }
        } finally {
            stop.set(true);
            writer.join();
        }
        // Exactly the rows below the captured offsets: every offset once, nothing past the stop.
        stops.forEach((bucket, stopOffset) -> assertThat(offsets.getOrDefault(bucket, List.of()))
                .as("offsets of %s", bucket)
                .containsExactlyElementsOf(LongStream.range(0, stopOffset).boxed().collect(Collectors.toList())));
        // And they are the same rows the official client finds below those offsets.
        assertThat(ids).isEqualTo(idsBelow(connection, path, stops));
        assertThat(written.get()).isGreaterThan(ids.size());
    }

    @Test
    void closingMidReadFreesTheScannerForReuse(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("reuse");
        create(connection, path, EVENTS, 2);
        appendEvents(connection, path, 0, 2_000, 100);
        try (Riffle riffle = Riffle.using(connection, allocator);
                ArrowLogScanner scanner = riffle.table(path).read().createScanner()) {
            TableBucket b0 = new TableBucket(scanner.table().getTableId(), 0);
            TableBucket b1 = new TableBucket(scanner.table().getTableId(), 1);
            Map<TableBucket, Long> latest = latestOffsets(connection, path, scanner.table().getTableId(), 2);
            scanner.subscribe(0, 0L);
            scanner.subscribe(1, 0L);
            try (BoundedLogReader reader = BoundedLogReader.create(scanner, latest, Optional.empty())) {
                assertThat(reader.hasNext()).isTrue();
                reader.next().close();
            }
            assertThat(scanner.subscriptions()).as("close unsubscribes what was left").isEmpty();

            scanner.subscribe(0, 0L);
            scanner.subscribe(1, 0L);
            long rows = 0;
            try (BoundedLogReader again = BoundedLogReader.create(scanner, latest, Optional.empty())) {
                while (again.hasNext()) {
                    try (LogBatch batch = again.next()) {
                        rows += batch.rowCount();
                    }
                }
            }
            assertThat(rows).isEqualTo(2_000);
            assertThat(latest.get(b0) + latest.get(b1)).isEqualTo(2_000);
        }
    }

    @Test
    void guardsFailWithClearErrors(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("guards");
        create(connection, path, EVENTS, 2);
        appendEvents(connection, path, 0, 100, 100);
        try (Riffle riffle = Riffle.using(connection, allocator);
                ArrowLogScanner scanner = riffle.table(path).read().createScanner()) {
            long tableId = scanner.table().getTableId();
            TableBucket b0 = new TableBucket(tableId, 0);
            TableBucket b1 = new TableBucket(tableId, 1);

            assertThatThrownBy(() -> BoundedLogReader.create(scanner, Map.of(), Optional.empty()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Nothing to read").hasMessageContaining("no subscribed buckets");

            scanner.subscribe(0, 0L);
            assertThatThrownBy(() -> BoundedLogReader.create(scanner, Map.of(b0, 10L, b1, 10L), Optional.empty()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("bucket 1").hasMessageContaining("not subscribed");
            assertThatThrownBy(() -> BoundedLogReader.create(scanner, Map.of(), Optional.empty()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("No stop offset for subscribed bucket 0");

            try (BoundedLogReader reader = BoundedLogReader.create(scanner, Map.of(b0, 10L), Optional.empty())) {
                assertThatThrownBy(() -> BoundedLogReader.create(scanner, Map.of(b0, 10L), Optional.empty()))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("already has an active bounded reader");
                assertThatThrownBy(() -> scanner.subscribe(1, 0L))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("while a bounded reader is active");
                assertThatThrownBy(() -> scanner.unsubscribe(b0))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("while a bounded reader is active");
                assertThatThrownBy(() -> scanner.poll(Duration.ofMillis(10)))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("while a bounded reader is active");
            }
            assertThatThrownBy(() -> scanner.subscribe(5, 0L))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("buckets 0..1");

            assertThatThrownBy(() -> riffle.table(path).read().columns("id", "nope"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Field 'nope' not found in table schema. Available fields: [id, name, amount], Table: " + path);
            assertThatThrownBy(() -> riffle.table(path.getDatabaseName() + ".missing_table"))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not exist");
        }
    }

    @Test
    void primaryKeyTableIsRefusedByTheLogReader(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("pk");
        create(connection, path, PK_SCHEMA, 1, "id");
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            assertThatThrownBy(() -> riffle.table(path).read().log())
                    .isInstanceOf(InvalidReadException.class)
                    .hasMessageContaining("has a primary key")
                    .hasMessageContaining("read().changelog()");
            assertThatThrownBy(() -> riffle.table(path).read().createLogReader())
                    .isInstanceOf(InvalidReadException.class)
                    .hasMessageContaining("not the log alone");
        }
    }

    @Test
    void changelogOfUpsertsUpdatesAndDeletes(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("pk_changes");
        create(connection, path, PK_SCHEMA, 1, "id");
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            writer.upsert(GenericRow.of(1, BinaryString.fromString("a"))).get();
            writer.upsert(GenericRow.of(1, BinaryString.fromString("b"))).get();
            writer.upsert(GenericRow.of(2, BinaryString.fromString("x"))).get();
            writer.delete(GenericRow.of(1, BinaryString.fromString("b"))).get();
            writer.flush();
        }
        List<String> changes = new ArrayList<>();
        try (Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader reader = riffle.table(path).changelog().createLogReader()) {
            assertThat(reader.schema().getFields().stream().map(f -> f.getName()).toList())
                    .containsExactly("id", "name", "_change_type", "_log_offset", "_commit_timestamp");
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    VectorSchemaRoot root = batch.root();
                    for (int i = 0; i < batch.rowCount(); i++) {
                        changes.add(root.getVector("_change_type").getObject(i) + " " + root.getVector("id").getObject(i)
                                + " " + root.getVector("name").getObject(i) + " @" + root.getVector("_log_offset").getObject(i));
                        assertThat((Long) root.getVector("_commit_timestamp").getObject(i)).isPositive();
                    }
                }
            }
        }
        assertThat(changes).containsExactly("+I 1 a @0", "-U 1 a @1", "+U 1 b @2", "+I 2 x @3", "-D 1 b @4");
    }

    @Test
    void logTableChangelogMarksAppends(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("log_changes");
        create(connection, path, EVENTS, 1);
        appendEvents(connection, path, 0, 3, 10);
        try (Riffle riffle = Riffle.using(connection, allocator);
                LogBatches all = riffle.table(path).changelog().columns("id").createLogReader().collectAll()) {
            assertThat(all.rowCount()).isEqualTo(3);
            LogBatch batch = all.batches().get(0);
            assertThat(batch.root().getVector("_change_type").getObject(0).toString()).isEqualTo("+A");
            assertThat(batch.root().getSchema().getFields()).extracting(f -> f.getName())
                    .containsExactly("id", "_change_type", "_log_offset", "_commit_timestamp");
        }
    }

    @Test
    void explicitStartAndStopOffsetsAndProjectionOrder(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("explicit");
        create(connection, path, EVENTS, 1);
        appendEvents(connection, path, 0, 20, 3);
        List<String> rows = new ArrayList<>();
        try (Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader reader = riffle.table(path).read().log().columns("amount", "id")
                        .from(StartingOffsets.explicit(Map.of(BucketRef.of(0), 2L)))
                        .until(StoppingOffsets.explicit(Map.of(BucketRef.of(0), 7L)))
                        .createLogReader()) {
            assertThat(reader.schema().getFields()).extracting(f -> f.getName()).containsExactly("amount", "id");
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    for (int i = 0; i < batch.rowCount(); i++) {
                        rows.add(batch.root().getVector(0).getObject(i) + "/" + batch.root().getVector(1).getObject(i));
                    }
                }
            }
        }
        assertThat(rows).containsExactly("20/2", "30/3", "40/4", "50/5", "60/6");
    }

    /**
     * Starts listed a moment ago (a read cut into parts carries them from where it was planned)
     * read exactly as given starts do, and every bucket the read covers needs one.
     */
    @Test
    void listedStartsReadAsGivenStartsAndEveryBucketNeedsOne(Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("listed_starts");
        create(connection, path, EVENTS, 1);
        appendEvents(connection, path, 0, 20, 3);
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            ReadBuilder range = riffle.table(path).read().log().columns("amount", "id")
                    .until(StoppingOffsets.explicit(Map.of(BucketRef.of(0), 7L)));
            List<String> given = amountsAndIds(range.from(StartingOffsets.explicit(Map.of(BucketRef.of(0), 2L))));
            assertThat(given).containsExactly("20/2", "30/3", "40/4", "50/5", "60/6");
            assertThat(amountsAndIds(range.from(StartingOffsets.listed(Map.of(BucketRef.of(0), 2L))))).isEqualTo(given);
        }

        TablePath two = names.table("listed_two");
        create(connection, two, EVENTS, 2);
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            assertThatThrownBy(() -> riffle.table(two).read().log()
                    .from(StartingOffsets.listed(Map.of(BucketRef.of(0), 0L)))
                    .until(StoppingOffsets.explicit(Map.of(BucketRef.of(0), 0L, BucketRef.of(1), 0L)))
                    .createLogReader().close())
                    .isInstanceOf(dev.riffle.core.exception.InvalidOffsetsException.class)
                    .hasMessageContaining("No listed start offset for bucket 1");
        }
    }

    /** Each row of the read's first two columns as {@code "first/second"}. */
    private static List<String> amountsAndIds(ReadBuilder read) {
        List<String> rows = new ArrayList<>();
        try (BoundedLogReader reader = read.createLogReader()) {
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    for (int i = 0; i < batch.rowCount(); i++) {
                        rows.add(batch.root().getVector(0).getObject(i) + "/" + batch.root().getVector(1).getObject(i));
                    }
                }
            }
        }
        return rows;
    }

    @Test
    void startAndStopAtTimestamps(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("by_time");
        create(connection, path, EVENTS, 2);
        appendEvents(connection, path, 0, 100, 50);
        long firstWriteDone;
        try (Riffle riffle = Riffle.using(connection, allocator);
                LogBatches first = riffle.table(path).changelog().createLogReader().collectAll()) {
            long maxCommit = 0;
            for (LogBatch batch : first) {
                maxCommit = Math.max(maxCommit, batch.commitTimestamp());
            }
            firstWriteDone = maxCommit;
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > firstWriteDone + 5);
        appendEvents(connection, path, 100, 200, 50);
        long boundary = firstWriteDone + 1;
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            assertThat(ids(riffle.table(path).read().log().until(StoppingOffsets.timestamp(boundary))))
                    .containsExactlyInAnyOrderElementsOf(range(0, 100));
            assertThat(ids(riffle.table(path).read().log().from(StartingOffsets.timestamp(boundary))))
                    .containsExactlyInAnyOrderElementsOf(range(100, 200));
        }
    }

    @Test
    void timeoutNamesTheBucketsNotCaughtUp(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("slow");
        create(connection, path, EVENTS, 1);
        appendEvents(connection, path, 0, 10, 10);
        try (Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader reader = riffle.table(path).read().log()
                        .until(StoppingOffsets.explicit(Map.of(BucketRef.of(0), 1_000L)))
                        .timeout(Duration.ofSeconds(2))
                        .createLogReader()) {
            assertThatThrownBy(() -> {
                while (reader.hasNext()) {
                    reader.next().close();
                }
            }).isInstanceOf(ReadTimeoutException.class)
                    .hasMessageContaining("did not finish within PT2S")
                    .hasMessageContaining("bucket 0=at 10, stop 1000");
        }
    }

    @Test
    void arrowReaderIpcStreamAndDuckDb(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("interop");
        create(connection, path, EVENTS, 3);
        appendEvents(connection, path, 0, 5_000, 700);
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            long rows = 0;
            try (ArrowReader arrow = riffle.table(path).read().toArrowReader()) {
                while (arrow.loadNextBatch()) {
                    rows += arrow.getVectorSchemaRoot().getRowCount();
                }
            }
            assertThat(rows).isEqualTo(5_000);

            ByteArrayOutputStream ipc = new ByteArrayOutputStream();
            try (BoundedLogReader reader = riffle.table(path).read().columns("id", "amount").createLogReader()) {
                assertThat(reader.writeArrowStream(ipc)).isEqualTo(5_000);
            }
            long ipcRows = 0;
            long amountSum = 0;
            try (ArrowStreamReader back = new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()), allocator)) {
                assertThat(back.getVectorSchemaRoot().getSchema().getFields()).extracting(f -> f.getName())
                        .containsExactly("id", "amount");
                while (back.loadNextBatch()) {
                    BigIntVector amount = (BigIntVector) back.getVectorSchemaRoot().getVector("amount");
                    for (int i = 0; i < amount.getValueCount(); i++) {
                        amountSum += amount.get(i);
                    }
                    ipcRows += back.getVectorSchemaRoot().getRowCount();
                }
            }
            assertThat(ipcRows).isEqualTo(5_000);
            assertThat(amountSum).isEqualTo(10L * 4_999 * 5_000 / 2);

            try (BoundedLogReader reader = riffle.table(path).read().createLogReader();
                    ArrowArrayStream stream = reader.exportArrayStream(allocator);
                    java.sql.Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
                duck.unwrap(DuckDBConnection.class).registerArrowStream("events", stream);
                try (Statement statement = duck.createStatement();
                        ResultSet result = statement.executeQuery(
                                "SELECT count(*), sum(amount), count(DISTINCT id), min(name) FROM events")) {
                    assertThat(result.next()).isTrue();
                    assertThat(result.getLong(1)).isEqualTo(5_000);
                    assertThat(result.getLong(2)).isEqualTo(10L * 4_999 * 5_000 / 2);
                    assertThat(result.getLong(3)).isEqualTo(5_000);
                    assertThat(result.getString(4)).isEqualTo("name-0");
                }
            }
        }
    }

    private List<Integer> ids(ReadBuilder read) {
        List<Integer> ids = new ArrayList<>();
        try (BoundedLogReader reader = read.createLogReader()) {
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    IntVector id = (IntVector) batch.root().getVector("id");
                    for (int i = 0; i < batch.rowCount(); i++) {
                        ids.add(id.get(i));
                    }
                }
            }
        }
        return ids;
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().collect(Collectors.toList());
    }

    private static Map<TableBucket, Long> latestOffsets(Connection connection, TablePath path, long tableId, int buckets)
            throws Exception {
        try (Admin admin = connection.getAdmin()) {
            Map<Integer, Long> latest = admin.listOffsets(path, IntStream.range(0, buckets).boxed().toList(),
                    new OffsetSpec.LatestSpec()).all().get();
            Map<TableBucket, Long> result = new HashMap<>();
            latest.forEach((bucket, offset) -> result.put(new TableBucket(tableId, bucket), offset));
            return result;
        }
    }

    /** Ids at offsets below {@code stops}, read with the official client's LogScanner. */
    private static Set<Integer> idsBelow(Connection connection, TablePath path, Map<TableBucket, Long> stops)
            throws Exception {
        Set<Integer> ids = new HashSet<>();
        Map<Integer, Long> remaining = new HashMap<>();
        stops.forEach((bucket, stop) -> remaining.put(bucket.getBucket(), stop));
        try (Table table = connection.getTable(path); LogScanner scanner = table.newScan().createLogScanner()) {
            remaining.forEach((bucket, stop) -> {
                if (stop > 0) {
                    scanner.subscribeFromBeginning(bucket);
                }
            });
            remaining.values().removeIf(stop -> stop == 0);
            while (!remaining.isEmpty()) {
                ScanRecords records = scanner.poll(Duration.ofSeconds(1));
                for (TableBucket bucket : records.buckets()) {
                    Long stop = remaining.get(bucket.getBucket());
                    for (ScanRecord record : records.records(bucket)) {
                        if (stop != null && record.logOffset() < stop) {
                            ids.add(record.getRow().getInt(0));
                            if (record.logOffset() == stop - 1) {
                                remaining.remove(bucket.getBucket());
                                scanner.unsubscribe(bucket.getBucket());
                            }
                        }
                    }
                }
            }
        }
        return ids;
    }

    private static final Schema PK_SCHEMA = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).primaryKey("id").build();
}
