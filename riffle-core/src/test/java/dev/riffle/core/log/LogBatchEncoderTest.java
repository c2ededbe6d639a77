package dev.riffle.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.types.RowArrowWriter;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.compression.ArrowCompressionType;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.SchemaGetter;
import org.apache.fluss.metadata.SchemaInfo;
import org.apache.fluss.record.DefaultLogRecordBatch;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.record.LogRecordReadContext;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * Batches Riffle encodes from Arrow vectors are batches Fluss reads: its own batch class finds the
 * CRC valid and the header's fields where it looks for them, and its own Arrow reader (the shaded
 * one a Fluss client and a tablet server use) gives back every row, for each of the table codecs;
 * Riffle's parser and decoder read them too.
 */
class LogBatchEncoderTest {
    private static final int SCHEMA_ID = 3;
    private static final RowType ROW_TYPE = DataTypes.ROW(
            DataTypes.FIELD("b", DataTypes.BOOLEAN()),
            DataTypes.FIELD("t", DataTypes.TINYINT()),
            DataTypes.FIELD("s", DataTypes.SMALLINT()),
            DataTypes.FIELD("i", DataTypes.INT().copy(false)),
            DataTypes.FIELD("l", DataTypes.BIGINT()),
            DataTypes.FIELD("f", DataTypes.FLOAT()),
            DataTypes.FIELD("d", DataTypes.DOUBLE()),
            DataTypes.FIELD("dec", DataTypes.DECIMAL(10, 2)),
            DataTypes.FIELD("big", DataTypes.DECIMAL(38, 6)),
            DataTypes.FIELD("str", DataTypes.STRING()),
            DataTypes.FIELD("ch", DataTypes.CHAR(3)),
            DataTypes.FIELD("bytes", DataTypes.BYTES()),
            DataTypes.FIELD("bin", DataTypes.BINARY(2)),
            DataTypes.FIELD("day", DataTypes.DATE()),
            DataTypes.FIELD("clock", DataTypes.TIME(3)),
            DataTypes.FIELD("ts3", DataTypes.TIMESTAMP(3)),
            DataTypes.FIELD("ts9", DataTypes.TIMESTAMP(9)),
            DataTypes.FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)));

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
    @EnumSource(ArrowCompressionType.class)
    void flussReadsEveryRowOfAnEncodedBatch(ArrowCompressionType compression) throws Exception {
        List<GenericRow> rows = rows(1_000);
        LogBatchEncoder encoder = new LogBatchEncoder(LogBatchEncoder.codecOf(new ArrowCompressionInfo(compression,
                compression == ArrowCompressionType.ZSTD ? 3 : -1)));
        byte[] bytes;
        try (VectorSchemaRoot root = arrow(rows)) {
            bytes = encoder.encode(root, SCHEMA_ID, 77L, 5);
        }

        DefaultLogRecordBatch batch = new DefaultLogRecordBatch();
        batch.pointTo(MemorySegment.wrap(bytes), 0);
        assertThat(batch.isValid()).as("Fluss checks the CRC").isTrue();
        assertThat(batch.magic()).isZero();
        assertThat(batch.sizeInBytes()).isEqualTo(bytes.length);
        assertThat(batch.schemaId()).isEqualTo((short) SCHEMA_ID);
        assertThat(batch.getRecordCount()).isEqualTo(rows.size());
        assertThat(batch.lastLogOffset()).isEqualTo(rows.size() - 1);
        assertThat(batch.writerId()).isEqualTo(77L);
        assertThat(batch.batchSequence()).isEqualTo(5);

        List<GenericRow> read = new ArrayList<>();
        try (LogRecordReadContext context = LogRecordReadContext.createArrowReadContext(ROW_TYPE, SCHEMA_ID,
                schemas());
                CloseableIterator<LogRecord> records = batch.records(context)) {
            while (records.hasNext()) {
                read.add(copy(records.next().getRow()));
            }
        }
        assertThat(read).isEqualTo(rows);

        // Riffle's own reading of what it wrote: the CRC checked, the vectors decoded.
        LogBatchHeader header = LogRecordsParser.parse(ByteBuffer.wrap(bytes), LogBytesSource.AS_WRITTEN).get(0);
        assertThat(header.appendOnly()).isTrue();
        assertThat(header.recordCount()).isEqualTo(rows.size());
        try (VectorSchemaRoot decoded = new ArrowBatchDecoder(allocator, ArrowTypeMapping.toArrowSchema(ROW_TYPE))
                .decode(ByteBuffer.wrap(bytes), header);
                VectorSchemaRoot written = arrow(rows)) {
            assertThat(ArrowValues.rows(decoded, ROW_TYPE)).isEqualTo(ArrowValues.rows(written, ROW_TYPE));
        }
    }

    @Test
    void anEmptyBatchHasNoLastOffsetDelta() {
        try (VectorSchemaRoot root = arrow(List.of())) {
            byte[] bytes = new LogBatchEncoder(LogBatchEncoder.codecOf(ArrowCompressionInfo.NO_COMPRESSION))
                    .encode(root, SCHEMA_ID, -1, -1);
            DefaultLogRecordBatch batch = new DefaultLogRecordBatch();
            batch.pointTo(MemorySegment.wrap(bytes), 0);
            assertThat(batch.isValid()).isTrue();
            assertThat(batch.getRecordCount()).isZero();
            assertThat(batch.writerId()).isEqualTo(-1L);
            assertThat(batch.batchSequence()).isEqualTo(-1);
        }
    }

    @Test
    void aSequenceGoesWithAWriter() {
        try (VectorSchemaRoot root = arrow(rows(1))) {
            LogBatchEncoder encoder = new LogBatchEncoder(LogBatchEncoder.codecOf(ArrowCompressionInfo.NO_COMPRESSION));
            assertThatThrownBy(() -> encoder.encode(root, SCHEMA_ID, -1, 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("writer id");
            assertThatThrownBy(() -> encoder.encode(root, SCHEMA_ID, 9, -1))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("writer id");
            assertThatThrownBy(() -> encoder.encode(root, 70_000, 9, 0))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schema id");
        }
    }

    private VectorSchemaRoot arrow(List<GenericRow> rows) {
        try (RowArrowWriter writer = RowArrowWriter.create(ROW_TYPE, allocator)) {
            rows.forEach(writer::write);
            return writer.finish();
        }
    }

    private static GenericRow copy(InternalRow row) {
        GenericRow copy = new GenericRow(ROW_TYPE.getFieldCount());
        for (int i = 0; i < ROW_TYPE.getFieldCount(); i++) {
            copy.setField(i, InternalRow.createFieldGetter(ROW_TYPE.getTypeAt(i), i).getFieldOrNull(row));
        }
        return copy;
    }

    private static List<GenericRow> rows(int count) {
        List<GenericRow> rows = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
            boolean nulls = r % 7 == 3;
            LocalDateTime at = LocalDateTime.of(2026, 12, 5, 4, 0).plusSeconds(r).plusNanos(r * 1_001L);
            rows.add(nulls
                    ? GenericRow.of(Arrays.copyOf(new Object[] {null, null, null, r}, ROW_TYPE.getFieldCount()))
                    : GenericRow.of(r % 2 == 0, (byte) r, (short) (r * 3), r, (long) r << 33, r / 4f, r / 3d,
                            Decimal.fromBigDecimal(new BigDecimal(r + ".25"), 10, 2),
                            Decimal.fromBigDecimal(new BigDecimal("12345678901234567890123456789012." + r % 10), 38, 6),
                            BinaryString.fromString("row " + r + " é✓"), BinaryString.fromString("ab" + (r % 10)),
                            new byte[] {(byte) r, 0, (byte) (r >> 8)}, new byte[] {(byte) r, 1},
                            (int) at.toLocalDate().toEpochDay(), (r % 86_400) * 1_000,
                            TimestampNtz.fromLocalDateTime(at.withNano((r % 1000) * 1_000_000)),
                            TimestampNtz.fromLocalDateTime(at),
                            TimestampLtz.fromEpochMicros(1_764_900_000_000_000L + r)));
        }
        return rows;
    }

    private static SchemaGetter schemas() {
        Schema schema = Schema.newBuilder().fromRowType(ROW_TYPE).build();
        return new SchemaGetter() {
            @Override
            public Schema getSchema(int schemaId) {
                return schema;
            }

            @Override
            public CompletableFuture<SchemaInfo> getSchemaInfoAsync(int schemaId) {
                return CompletableFuture.completedFuture(new SchemaInfo(schema, SCHEMA_ID));
            }

            @Override
            public SchemaInfo getLatestSchemaInfo() {
                return new SchemaInfo(schema, SCHEMA_ID);
            }

            @Override
            public void release() {}
        };
    }
}
