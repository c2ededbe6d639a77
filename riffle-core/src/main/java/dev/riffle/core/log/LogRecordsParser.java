package dev.riffle.core.log;

import static dev.riffle.core.log.LogBatchLayout.COMMIT_TIMESTAMP_OFFSET;
import static dev.riffle.core.log.LogBatchLayout.LENGTH_OFFSET;
import static dev.riffle.core.log.LogBatchLayout.LOG_OVERHEAD;
import static dev.riffle.core.log.LogBatchLayout.MAGIC_OFFSET;
import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Splits the bytes of a FetchLog response (or a log segment) into record batch headers, without
 * decoding any rows.
 *
 * <p>Reads the batch formats of Fluss 0.x and 1.0 ({@link LogBatchLayout} has every offset):
 * <ul>
 *   <li>magic 0, the only format released Fluss 0.x writers produce, and what Fluss 1.0 writes
 *       for tables without {@code table.statistics.columns};
 *   <li>magic 1 as Fluss 1.0 defines it: magic 0 plus a statistics length at byte 48, written by
 *       1.0 clients for log tables with {@code table.statistics.columns};
 *   <li>magic 2 as Fluss 1.0 defines it: a leader epoch at byte 21 and a statistics length at 52.
 * </ul>
 * Statistics are skipped; the header says where they are. Any other magic fails with a
 * {@link CorruptLogException} naming the magic, the byte position and the base offset: a format
 * Riffle does not know must never be read as one it does.
 *
 * <p><b>Fluss 0.8/0.9's magic 1 is not read.</b> Those releases defined magic 1 as today's magic 2
 * without the statistics length (leader epoch, then CRC at 25), but never wrote it: their
 * {@code LogRecordBatch.CURRENT_LOG_MAGIC_VALUE} is 0, the only builder taking another magic is
 * marked {@code @VisibleForTesting}, and servers append batches with the magic the client sent.
 * Fluss 1.0 reuses the value for a different layout that its clients do write, and both cannot be
 * read without guessing, so magic 1 means 1.0's layout here. A batch in the old layout fails the
 * CRC check (the 1.0 layout finds the leader epoch where it expects the CRC); the error then says
 * which layout the batch has.
 *
 * <p><b>CRC.</b> Batches {@link LogBytesSource#AS_WRITTEN as written} have their CRC-32C checked
 * over the schema id and everything after it, as Fluss computes it. Base offset, length, magic,
 * commit timestamp and leader epoch precede the CRC and are not covered (the server sets three of
 * them after the writer computed it); a corrupted length still shows as a CRC mismatch when the
 * batch stays within the buffer. {@link LogBytesSource#SERVER_PROJECTED Server-projected} batches
 * carry a CRC of bytes that were never sent, so theirs is not checked. Every batch's header is
 * checked for consistency (sizes, counts, statistics within the batch) either way.
 *
 * <p>A response cut off by the server's byte limit may end in a partial batch; it is ignored here
 * and fetched again from its start offset.
 */
public final class LogRecordsParser {
    private static final int APPEND_ONLY_FLAG = 0x01;

    private LogRecordsParser() {}

    /** Headers of the complete batches in {@code records}, from its position to its limit. */
    public static List<LogBatchHeader> parse(ByteBuffer records, LogBytesSource source) {
        requireNonNull(records, "records is null");
        requireNonNull(source, "source is null");
        return split(records, source.crcVerifiable());
    }

    private static List<LogBatchHeader> split(ByteBuffer records, boolean verifyCrc) {
        ByteBuffer buffer = records.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        List<LogBatchHeader> headers = new ArrayList<>();
        Crc crc = verifyCrc ? new Crc(buffer) : null;
        int position = buffer.position();
        int end = buffer.limit();
        while (end - position >= LOG_OVERHEAD) {
            int length = buffer.getInt(position + LENGTH_OFFSET);
            if (length < 0) {
                throw new CorruptLogException("Log batch at byte " + position + " (base offset "
                        + buffer.getLong(position) + ") has a negative length " + length);
            }
            if (end - position - LOG_OVERHEAD < length) {
                break; // a partial batch at the end of the response
            }
            int size = LOG_OVERHEAD + length;
            headers.add(header(buffer, position, size, crc));
            position += size;
        }
        return headers;
    }

    private static LogBatchHeader header(ByteBuffer buffer, int position, int size, Crc crc) {
        long baseOffset = buffer.getLong(position);
        if (size <= MAGIC_OFFSET) {
            throw new CorruptLogException("Log batch at byte " + position + " (base offset " + baseOffset
                    + ") is " + size + " bytes long, too short to hold its magic byte");
        }
        byte magic = buffer.get(position + MAGIC_OFFSET);
        String where = "Log batch at byte " + position + " (base offset " + baseOffset + ", magic " + magic + ")";
        LogBatchLayout layout = LogBatchLayout.of(magic).orElseThrow(() -> new CorruptLogException(
                "Unsupported log batch format: magic " + magic + " at byte " + position + " (base offset "
                        + baseOffset + "). Riffle reads magic 0, and magic 1 and 2 as Fluss 1.0 writes them"));
        if (size < layout.headerSize()) {
            throw new CorruptLogException(where + " is " + size + " bytes, shorter than its "
                    + layout.headerSize() + "-byte header");
        }
        if (crc != null) {
            verifyCrc(crc, position, size, layout, where);
        }
        long commitTimestamp = buffer.getLong(position + COMMIT_TIMESTAMP_OFFSET);
        short schemaId = buffer.getShort(position + layout.schemaIdOffset());
        byte attributes = buffer.get(position + layout.attributesOffset());
        int lastOffsetDelta = buffer.getInt(position + layout.lastOffsetDeltaOffset());
        int recordCount = buffer.getInt(position + layout.recordCountOffset());
        int statisticsLength = layout.statisticsLengthOffset().isPresent()
                ? buffer.getInt(position + layout.statisticsLengthOffset().getAsInt())
                : 0;
        boolean appendOnly = (attributes & APPEND_ONLY_FLAG) != 0;
        int afterHeader = size - layout.headerSize();
        if (recordCount < 0 || lastOffsetDelta < 0) {
            throw new CorruptLogException(where + " claims " + recordCount + " records and a last offset delta of "
                    + lastOffsetDelta);
        }
        if (statisticsLength < 0 || statisticsLength > afterHeader) {
            throw new CorruptLogException(where + " claims " + statisticsLength
                    + " bytes of statistics but holds " + afterHeader + " bytes after its header");
        }
        int statisticsPosition = position + layout.headerSize();
        int changeTypesPosition = statisticsPosition + statisticsLength;
        int changeTypeBytes = appendOnly ? 0 : recordCount;
        if (changeTypeBytes > afterHeader - statisticsLength) {
            throw new CorruptLogException(where + " claims " + recordCount + " change types but holds only "
                    + (afterHeader - statisticsLength) + " bytes after its header and statistics");
        }
        int arrowPosition = changeTypesPosition + changeTypeBytes;
        int arrowLength = position + size - arrowPosition;
        return new LogBatchHeader(position, size, magic, baseOffset, lastOffsetDelta, commitTimestamp, schemaId,
                appendOnly, recordCount, statisticsPosition, statisticsLength, changeTypesPosition, arrowPosition,
                arrowLength);
    }

    private static void verifyCrc(Crc crc, int position, int size, LogBatchLayout layout, String where) {
        long stored = crc.stored(position, layout);
        long computed = crc.compute(position, size, layout);
        if (stored == computed) {
            return;
        }
        if (layout.magic() == 1 && size >= LogBatchLayout.FLUSS_09_MAGIC_1.headerSize()
                && crc.stored(position, LogBatchLayout.FLUSS_09_MAGIC_1)
                        == crc.compute(position, size, LogBatchLayout.FLUSS_09_MAGIC_1)) {
            throw new CorruptLogException(where + " is in Fluss 0.8/0.9's magic-1 layout (leader epoch at byte 21,"
                    + " CRC at 25), which no released Fluss writer produces. Riffle reads magic 1 as Fluss 1.0 defines"
                    + " it (magic 0 plus a statistics length at byte 48)");
        }
        throw new CorruptLogException(String.format(
                "%s fails its CRC-32C check: stored 0x%08x, computed 0x%08x over bytes %d..%d of the batch;"
                        + " it was corrupted on disk or on the wire", where, stored, computed,
                layout.schemaIdOffset(), size - 1));
    }

    /** CRC-32C over parts of one buffer; {@link CRC32C} uses the CPU's CRC instructions. */
    private static final class Crc {
        private final ByteBuffer buffer;
        private final ByteBuffer covered;
        private final CRC32C checksum = new CRC32C();

        Crc(ByteBuffer buffer) {
            this.buffer = buffer;
            this.covered = buffer.duplicate();
        }

        long stored(int position, LogBatchLayout layout) {
            return Integer.toUnsignedLong(buffer.getInt(position + layout.crcOffset()));
        }

        long compute(int position, int size, LogBatchLayout layout) {
            covered.limit(position + size);
            covered.position(position + layout.schemaIdOffset());
            checksum.reset();
            checksum.update(covered);
            return checksum.getValue();
        }
    }
}
