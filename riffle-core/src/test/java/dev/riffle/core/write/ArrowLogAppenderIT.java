package dev.riffle.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.log.LogBatchEncoder;
import dev.riffle.core.rpc.LogProducer;
import dev.riffle.core.types.ArrowBufferBytes;
import dev.riffle.core.types.RowArrowWriter;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Batches Riffle encodes and produces itself are stored by the embedded 0.9.1 cluster and read by
 * Fluss's own scanner (whole rows, and projected by the server, which rewrites the batches), for
 * each table codec; a batch sent twice with the same writer id and sequence is written once.
 */
@ExtendWith(LocalClusterExtension.class)
class ArrowLogAppenderIT {
    private static final Schema SCHEMA = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("name", DataTypes.STRING())
            .column("amount", DataTypes.BIGINT())
            .column("score", DataTypes.DOUBLE())
            .column("at", DataTypes.TIMESTAMP(3))
            .build();
    private static final RowType ROW_TYPE = SCHEMA.getRowType();
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private BufferAllocator allocator;

    @BeforeEach
    void allocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void noLeaks() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ZSTD", "LZ4_FRAME", "NONE"})
    void fluss091ReadsWhatRiffleProduced(String compression, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("appended_" + compression.toLowerCase(java.util.Locale.ROOT));
        TableInfo table = create(connection, path, 3, compression);
        ArrowLogAppender appender = new ArrowLogAppender((FlussConnection) connection, table);
        List<GenericRow> written = new ArrayList<>();
        // Two appends, as two requests would: seven batches over three buckets.
        for (int append = 0; append < 2; append++) {
            List<VectorSchemaRoot> batches = new ArrayList<>();
            try {
                for (int b = 0; b < (append == 0 ? 4 : 3); b++) {
                    List<GenericRow> rows = rows(written.size(), 500);
                    written.addAll(rows);
                    batches.add(arrow(rows));
                }
                appender.append(batches, TIMEOUT).get(60, TimeUnit.SECONDS);
            } finally {
                batches.forEach(VectorSchemaRoot::close);
            }
        }

        assertThat(scan(connection, path, null, written.size())).containsExactlyInAnyOrderElementsOf(written);
        // Projected by the server, which cuts the batch's buffers and writes them again.
        List<GenericRow> projected = new ArrayList<>();
        for (GenericRow row : written) {
            projected.add(GenericRow.of(row.getField(1), row.getField(4)));
        }
        assertThat(scan(connection, path, new int[] {1, 4}, written.size()))
                .containsExactlyInAnyOrderElementsOf(projected);
    }

    @Test
    void aBatchSentAgainWithItsSequenceIsWrittenOnce(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("sent_twice");
        TableInfo table = create(connection, path, 1, "ZSTD");
        ArrowLogAppender appender = new ArrowLogAppender((FlussConnection) connection, table);
        LogProducer producer = new LogProducer((FlussConnection) connection, table);
        List<GenericRow> rows = rows(0, 100);
        byte[] batch;
        try (VectorSchemaRoot root = arrow(rows)) {
            batch = LogBatchEncoder.forTable(table).encode(root, table.getSchemaId(), producer.newWriterId(deadline()), 0);
        }
        long first = producer.produce(0, batch, deadline()).get(60, TimeUnit.SECONDS);
        // What a retry after a lost answer sends: the same bytes, writer id and sequence.
        long again = producer.produce(0, batch, deadline()).get(60, TimeUnit.SECONDS);

        assertThat(again).as("the leader answers the duplicate with the batch's own offset").isEqualTo(first);
        List<GenericRow> more = rows(100, 10);
        try (VectorSchemaRoot root = arrow(more)) {
            appender.append(List.of(root), TIMEOUT).get(60, TimeUnit.SECONDS);
        }
        List<GenericRow> expected = new ArrayList<>(rows);
        expected.addAll(more);
        // One bucket, read in offset order: a second copy would stand between the batch and the rows after it.
        assertThat(scan(connection, path, null, expected.size())).containsExactlyElementsOf(expected);
    }

    @Test
    void aBatchOverTheLimitIsSentInSlices(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("sliced");
        TableInfo table = create(connection, path, 2, "ZSTD");
        ArrowLogAppender appender = new ArrowLogAppender((FlussConnection) connection, table);
        List<GenericRow> rows = rows(0, 300_000);
        try (VectorSchemaRoot root = arrow(rows)) {
            long bytes = ArrowBufferBytes.of(root);
            assertThat(bytes).as("one batch of several Fluss batches' size").isGreaterThan(2 * ArrowLogAppender.MAX_BATCH_BYTES);
            appender.append(List.of(root), TIMEOUT).get(60, TimeUnit.SECONDS);
        }
        assertThat(appender.batchesQueued()).as("Fluss batches of at most " + ArrowLogAppender.MAX_BATCH_BYTES
                + " bytes each").isGreaterThanOrEqualTo(3);
        List<GenericRow> read = scan(connection, path, null, rows.size());
        read.sort(java.util.Comparator.comparingInt(row -> row.getInt(0)));
        assertThat(read).isEqualTo(rows);
    }

    @Test
    void anAppendPastItsDeadlineWritesNothingAndTheNextOneIsWritten(Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("late");
        TableInfo table = create(connection, path, 2, "ZSTD");
        ArrowLogAppender appender = new ArrowLogAppender((FlussConnection) connection, table);
        try (VectorSchemaRoot root = arrow(rows(0, 50))) {
            assertThatThrownBy(() -> appender.append(List.of(root, root), Duration.ZERO).get(60, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
        }
        List<GenericRow> rows = rows(50, 50);
        try (VectorSchemaRoot root = arrow(rows)) {
            appender.append(List.of(root), TIMEOUT).get(60, TimeUnit.SECONDS);
        }
        assertThat(scan(connection, path, null, rows.size())).containsExactlyInAnyOrderElementsOf(rows);
        try (Admin admin = connection.getAdmin()) {
            assertThat(admin.listOffsets(path, List.of(0, 1), new OffsetSpec.LatestSpec()).all()
                    .get(30, TimeUnit.SECONDS).values().stream().mapToLong(Long::longValue).sum())
                    .as("records in the table: the second append's alone").isEqualTo(rows.size());
        }
    }

    @Test
    void concurrentAppendsWriteEveryRowOnce(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("concurrent");
        TableInfo table = create(connection, path, 2, "LZ4_FRAME");
        ArrowLogAppender appender = new ArrowLogAppender((FlussConnection) connection, table);
        ExecutorService callers = Executors.newFixedThreadPool(4);
        List<Future<List<GenericRow>>> calls = new ArrayList<>();
        try {
            for (int caller = 0; caller < 4; caller++) {
                int first = caller * 10_000;
                calls.add(callers.submit(() -> {
                    List<GenericRow> written = new ArrayList<>();
                    for (int append = 0; append < 10; append++) {
                        List<VectorSchemaRoot> batches = new ArrayList<>();
                        try {
                            for (int b = 0; b < 3; b++) {
                                List<GenericRow> rows = rows(first + written.size(), 100);
                                written.addAll(rows);
                                batches.add(arrow(rows));
                            }
                            appender.append(batches, TIMEOUT).get(60, TimeUnit.SECONDS);
                        } finally {
                            batches.forEach(VectorSchemaRoot::close);
                        }
                    }
                    return written;
                }));
            }
            List<GenericRow> written = new ArrayList<>();
            for (Future<List<GenericRow>> call : calls) {
                written.addAll(call.get(120, TimeUnit.SECONDS));
            }
            List<GenericRow> read = scan(connection, path, null, written.size());
            read.sort(java.util.Comparator.comparingInt(row -> row.getInt(0)));
            written.sort(java.util.Comparator.comparingInt(row -> row.getInt(0)));
            assertThat(read).isEqualTo(written);
        } finally {
            callers.shutdownNow();
        }
    }

    private static long deadline() {
        return System.nanoTime() + TIMEOUT.toNanos();
    }

    private static TableInfo create(Connection connection, TablePath path, int buckets, String compression)
            throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(SCHEMA).distributedBy(buckets)
                    .property("table.log.arrow.compression.type", compression).build(), false)
                    .get(30, TimeUnit.SECONDS);
            return admin.getTableInfo(path).get(30, TimeUnit.SECONDS);
        }
    }

    private VectorSchemaRoot arrow(List<GenericRow> rows) {
        try (RowArrowWriter writer = RowArrowWriter.create(ROW_TYPE, allocator)) {
            rows.forEach(writer::write);
            return writer.finish();
        }
    }

    private static List<GenericRow> rows(int from, int count) {
        List<GenericRow> rows = new ArrayList<>(count);
        for (int id = from; id < from + count; id++) {
            boolean nulls = id % 9 == 4;
            rows.add(GenericRow.of(id, nulls ? null : BinaryString.fromString("row " + id + " ✓"),
                    nulls ? null : (long) id * 1_000_003L, nulls ? null : id / 7d,
                    TimestampNtz.fromLocalDateTime(LocalDateTime.of(2026, 12, 5, 4, 0).plusSeconds(id)
                            .withNano((id % 1000) * 1_000_000))));
        }
        return rows;
    }

    /**
     * The table's rows through Fluss's own log scanner (projected to {@code fields} unless null),
     * once at least {@code atLeast} arrived or 30 s passed.
     */
    private static List<GenericRow> scan(Connection connection, TablePath path, int[] fields, int atLeast)
            throws Exception {
        List<GenericRow> rows = new ArrayList<>();
        try (Table table = connection.getTable(path)) {
            RowType type = fields == null ? ROW_TYPE : ROW_TYPE.project(fields);
            try (LogScanner scanner = (fields == null ? table.newScan() : table.newScan().project(fields))
                    .createLogScanner()) {
                for (int bucket = 0; bucket < table.getTableInfo().getNumBuckets(); bucket++) {
                    scanner.subscribeFromBeginning(bucket);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (rows.size() < atLeast && System.nanoTime() < deadline) {
                    ScanRecords records = scanner.poll(Duration.ofMillis(200));
                    for (ScanRecord record : records) {
                        rows.add(copy(record.getRow(), type));
                    }
                }
            }
        }
        return rows;
    }

    private static GenericRow copy(InternalRow row, RowType type) {
        GenericRow copy = new GenericRow(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            copy.setField(i, InternalRow.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row));
        }
        return copy;
    }
}
