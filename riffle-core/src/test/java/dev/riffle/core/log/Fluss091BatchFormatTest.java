package dev.riffle.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.types.ArrowTypeMapping;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.compression.ArrowCompressionType;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.DefaultLogRecordBatch;
import org.apache.fluss.record.MemoryLogRecordsArrowBuilder;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.arrow.ArrowWriter;
import org.apache.fluss.row.arrow.ArrowWriterPool;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Batches as Fluss 0.9.1 writes them, built by the 0.9.1 classes on the test classpath: magic 0
 * still parses (with its CRC checked) and decodes; 0.9's magic 1, which only its test builder
 * writes, is rejected with the reason rather than read with 1.0's layout.
 */
class Fluss091BatchFormatTest {
    private static final RowType ROW_TYPE = DataTypes.ROW(
            DataTypes.FIELD("id", DataTypes.INT()),
            DataTypes.FIELD("name", DataTypes.STRING()),
            DataTypes.FIELD("amount", DataTypes.DECIMAL(10, 2)),
            DataTypes.FIELD("at", DataTypes.TIMESTAMP(3)));
    private static final List<String> CHANGE_TYPES = List.of("+I", "-U", "+U", "-D", "+I");
    private static final int ROWS = CHANGE_TYPES.size();

    private BufferAllocator allocator;
    private org.apache.fluss.shaded.arrow.org.apache.arrow.memory.BufferAllocator flussAllocator;

    @BeforeEach
    void allocators() {
        allocator = new RootAllocator();
        flussAllocator = new org.apache.fluss.shaded.arrow.org.apache.arrow.memory.RootAllocator(Long.MAX_VALUE);
    }

    @AfterEach
    void noLeaks() {
        flussAllocator.close();
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void magic0LogTableBatchParsesWithItsCrcAndDecodes() throws Exception {
        byte[] batch = fluss091Batch(true, -1, 120);

        List<LogBatchHeader> headers = LogRecordsParser.parse(ByteBuffer.wrap(batch), LogBytesSource.AS_WRITTEN);

        assertThat(headers).hasSize(1);
        LogBatchHeader header = headers.get(0);
        assertThat(header.magic()).isZero();
        assertThat(header.baseOffset()).isEqualTo(120);
        assertThat(header.nextOffset()).isEqualTo(120 + ROWS);
        assertThat(header.appendOnly()).isTrue();
        assertThat(header.hasStatistics()).isFalse();
        assertThat(header.arrowPosition()).isEqualTo(LogBatchLayout.V0.headerSize());
        assertThat(decode(ByteBuffer.wrap(batch), header)).isEqualTo(ArrowValues.comparable(expectedRows()));
    }

    @Test
    void magic0ChangelogBatchParsesWithItsCrcAndDecodes() throws Exception {
        byte[] batch = fluss091Batch(false, -1, 7);

        LogBatchHeader header = LogRecordsParser.parse(ByteBuffer.wrap(batch), LogBytesSource.AS_WRITTEN).get(0);

        assertThat(header.magic()).isZero();
        assertThat(header.appendOnly()).isFalse();
        assertThat(header.changeTypesPosition()).isEqualTo(LogBatchLayout.V0.headerSize());
        List<String> changeTypes = new ArrayList<>();
        for (int i = 0; i < header.recordCount(); i++) {
            changeTypes.add(ChangeType.fromByteValue(batch[header.changeTypesPosition() + i]).shortString());
        }
        assertThat(changeTypes).isEqualTo(CHANGE_TYPES);
        assertThat(decode(ByteBuffer.wrap(batch), header)).isEqualTo(ArrowValues.comparable(expectedRows()));
    }

    @Test
    void fluss09sOwnMagic1IsRejectedWithTheReason() throws Exception {
        byte[] batch = fluss091Batch(false, 1, 300);

        assertThatThrownBy(() -> LogRecordsParser.parse(ByteBuffer.wrap(batch), LogBytesSource.AS_WRITTEN))
                .isInstanceOf(CorruptLogException.class)
                .hasMessage("Log batch at byte 0 (base offset 300, magic 1) is in Fluss 0.8/0.9's magic-1 layout"
                        + " (leader epoch at byte 21, CRC at 25), which no released Fluss writer produces. Riffle reads"
                        + " magic 1 as Fluss 1.0 defines it (magic 0 plus a statistics length at byte 48)");
        // Without a CRC to check, the 1.0 layout reads the batch sequence (-1 when the writer is not
        // idempotent) as the record count, and misplaces the Arrow data: one check or the other refuses it.
        assertThatThrownBy(() -> {
            ByteBuffer records = ByteBuffer.wrap(batch);
            decode(records, LogRecordsParser.parse(records, LogBytesSource.SERVER_PROJECTED).get(0));
        }).isInstanceOf(CorruptLogException.class)
                .hasMessageStartingWith("Log batch at byte 0 (base offset 300, magic 1)");
    }

    private List<List<Object>> decode(ByteBuffer records, LogBatchHeader header) {
        ArrowBatchDecoder decoder = new ArrowBatchDecoder(allocator, ArrowTypeMapping.toArrowSchema(ROW_TYPE));
        try (VectorSchemaRoot root = decoder.decode(records, header)) {
            return ArrowValues.rows(root, ROW_TYPE);
        }
    }

    private static List<List<Object>> expectedRows() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(i == 2
                    ? java.util.Arrays.asList(i, null, null, null)
                    : List.of(i, "row " + i, new BigDecimal(i + "00.25"), LocalDateTime.of(2025, 3, 1 + i, 12, 0, 0, i * 1_000_000)));
        }
        return rows;
    }

    /**
     * A batch from 0.9.1's builders, stamped as a 0.9.1 server appends it: magic 0 from the builder
     * its client and server use, or {@code magic} from its {@code @VisibleForTesting} one.
     */
    private byte[] fluss091Batch(boolean appendOnly, int magic, long baseOffset) throws Exception {
        try (ArrowWriterPool pool = new ArrowWriterPool(flussAllocator)) {
            ArrowWriter writer = pool.getOrCreateWriter(1L, 1, 1 << 20, ROW_TYPE,
                    new ArrowCompressionInfo(ArrowCompressionType.ZSTD, 3));
            UnmanagedPagedOutputView output = new UnmanagedPagedOutputView(64 << 10);
            MemoryLogRecordsArrowBuilder builder = magic < 0
                    ? MemoryLogRecordsArrowBuilder.builder(1, writer, output, appendOnly)
                    : MemoryLogRecordsArrowBuilder.builder(0L, (byte) magic, 1, writer, output);
            List<List<Object>> rows = expectedRows();
            for (int i = 0; i < ROWS; i++) {
                List<Object> row = rows.get(i);
                GenericRow internal = row.get(1) == null
                        ? GenericRow.of(row.get(0), null, null, null)
                        : GenericRow.of(row.get(0), BinaryString.fromString((String) row.get(1)),
                                Decimal.fromBigDecimal((BigDecimal) row.get(2), 10, 2),
                                TimestampNtz.fromLocalDateTime((LocalDateTime) row.get(3)));
                builder.append(appendOnly ? ChangeType.APPEND_ONLY : ChangeType.valueOf(changeTypeName(i)), internal);
            }
            builder.close();
            var view = builder.build();
            byte[] bytes = new byte[view.getBytesLength()];
            view.getByteBuf().getBytes(0, bytes);
            DefaultLogRecordBatch batch = new DefaultLogRecordBatch();
            batch.pointTo(MemorySegment.wrap(bytes), 0);
            batch.setBaseLogOffset(baseOffset);
            batch.setCommitTimestamp(1_700_000_000_000L);
            if (magic == 1) {
                batch.setLeaderEpoch(4);
            }
            batch.ensureValid();
            return bytes;
        }
    }

    private static String changeTypeName(int row) {
        switch (CHANGE_TYPES.get(row)) {
            case "+I":
                return "INSERT";
            case "-U":
                return "UPDATE_BEFORE";
            case "+U":
                return "UPDATE_AFTER";
            default:
                return "DELETE";
        }
    }
}
