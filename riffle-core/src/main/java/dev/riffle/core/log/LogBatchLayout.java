package dev.riffle.core.log;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Where the fields of one Fluss log record batch header sit, for one magic value. All offsets are
 * from the start of the batch; every value is little-endian.
 *
 * <p>Every layout starts with base offset (0, 8 bytes), length (8, 4 bytes: the bytes after these
 * first 12) and magic (12, 1 byte), then the commit timestamp (13, 8 bytes). The rest, as Fluss 1.0
 * writes it ({@code LogRecordBatchFormat} in fluss-common):
 *
 * <pre>
 * field               magic 0   magic 1   magic 2
 * leader epoch (4)       -         -        21
 * CRC (4)               21        21        25
 * schema id (2)         25        25        29
 * attributes (1)        27        27        31
 * last offset delta (4) 28        28        32
 * writer id (8)         32        32        36
 * batch sequence (4)    40        40        44
 * record count (4)      44        44        48
 * statistics length (4)  -        48        52
 * header size           48        52        56
 * </pre>
 *
 * After the header come the statistics (magic 1 and 2, {@code statistics length} bytes, possibly
 * none), then one change-type byte per record unless the batch is append-only (attributes bit 0),
 * then the records (an Arrow IPC record batch message for ARROW tables).
 *
 * <p>The CRC is a CRC-32C (Castagnoli) over the bytes from the schema id to the end of the batch:
 * everything a tablet server sets when it appends the batch (base offset, commit timestamp, leader
 * epoch) lies before it, so the server never has to recompute it. Length and magic lie before it
 * too and are not covered.
 *
 * <p>Fluss 0.8 and 0.9 defined a different magic 1: magic 2's layout without the statistics length
 * (leader epoch at 21, CRC at 25, header size 52). {@link #FLUSS_09_MAGIC_1} describes it; Riffle
 * uses it only to explain why such a batch is rejected (see {@link LogRecordsParser}).
 *
 * @param magic the format version this layout belongs to
 * @param crcOffset where the CRC-32C is stored
 * @param schemaIdOffset where the schema id is stored; the CRC covers the batch from here on
 * @param attributesOffset where the attributes byte is stored
 * @param lastOffsetDeltaOffset where {@code lastOffset - baseOffset} is stored
 * @param recordCountOffset where the number of records is stored
 * @param statisticsLengthOffset where the statistics length is stored, in layouts that have one
 * @param headerSize the fixed header's size: statistics, change types and records follow it
 */
public record LogBatchLayout(
        byte magic,
        int crcOffset,
        int schemaIdOffset,
        int attributesOffset,
        int lastOffsetDeltaOffset,
        int recordCountOffset,
        OptionalInt statisticsLengthOffset,
        int headerSize) {

    public static final int BASE_OFFSET_OFFSET = 0;
    public static final int LENGTH_OFFSET = 8;
    public static final int MAGIC_OFFSET = 12;
    public static final int COMMIT_TIMESTAMP_OFFSET = 13;
    /** Base offset and length: the bytes a batch's length does not count. */
    public static final int LOG_OVERHEAD = 12;

    /** Every Fluss release's magic 0; the only format released 0.x writers produce. */
    public static final LogBatchLayout V0 = new LogBatchLayout((byte) 0, 21, 25, 27, 28, 44, OptionalInt.empty(), 48);
    /** Fluss 1.0's magic 1: magic 0 plus a statistics length. Written for tables with statistics. */
    public static final LogBatchLayout V1 = new LogBatchLayout((byte) 1, 21, 25, 27, 28, 44, OptionalInt.of(48), 52);
    /** Fluss 1.0's magic 2: a leader epoch before the CRC, plus a statistics length. */
    public static final LogBatchLayout V2 = new LogBatchLayout((byte) 2, 25, 29, 31, 32, 48, OptionalInt.of(52), 56);
    /** Fluss 0.8/0.9's magic 1 (leader epoch before the CRC, no statistics), which Riffle does not read. */
    static final LogBatchLayout FLUSS_09_MAGIC_1 =
            new LogBatchLayout((byte) 1, 25, 29, 31, 32, 48, OptionalInt.empty(), 52);

    /** Where the writer id (8 bytes) is stored: right after the last offset delta, in every layout. */
    public int writerIdOffset() {
        return lastOffsetDeltaOffset + 4;
    }

    /** Where the writer's batch sequence (4 bytes) is stored: right after the writer id. */
    public int batchSequenceOffset() {
        return writerIdOffset() + 8;
    }

    /** The layout Riffle reads for {@code magic}, if it reads that magic at all. */
    public static Optional<LogBatchLayout> of(byte magic) {
        switch (magic) {
            case 0:
                return Optional.of(V0);
            case 1:
                return Optional.of(V1);
            case 2:
                return Optional.of(V2);
            default:
                return Optional.empty();
        }
    }
}
