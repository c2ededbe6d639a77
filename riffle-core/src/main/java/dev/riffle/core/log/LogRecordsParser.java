package dev.riffle.core.log;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits the bytes of a FetchLog response (or a log segment) into record batch headers, without
 * decoding any rows.
 *
 * <p>Layout (little-endian, unlike Kafka): base offset (8), length (4, bytes after these first 12),
 * magic (1), commit timestamp (8), then for magic 1 a leader epoch (4), then CRC (4), schema id (2),
 * attributes (1, bit 0 = append-only), last offset delta (4), writer id (8), batch sequence (4),
 * record count (4). Magic 0 headers are 48 bytes, magic 1 headers 52. A changelog batch then holds
 * one change-type byte per record, and the Arrow IPC record batch message follows.
 *
 * <p>A response cut off by the server's byte limit may end in a partial batch; it is ignored here
 * and fetched again from its start offset.
 */
public final class LogRecordsParser {
    static final int LOG_OVERHEAD = 12;
    static final int V0_HEADER_SIZE = 48;
    static final int V1_HEADER_SIZE = 52;
    private static final int APPEND_ONLY_FLAG = 0x01;

    private LogRecordsParser() {}

    /** Headers of the complete batches in {@code records}, from its position to its limit. */
    public static List<LogBatchHeader> parse(ByteBuffer records) {
        ByteBuffer buffer = records.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        List<LogBatchHeader> headers = new ArrayList<>();
        int position = buffer.position();
        int end = buffer.limit();
        while (end - position >= LOG_OVERHEAD) {
            int length = buffer.getInt(position + 8);
            if (length < 0) {
                throw new CorruptLogException("Negative batch length " + length + " at byte " + position);
            }
            int size = LOG_OVERHEAD + length;
            if (end - position < size) {
                break; // a partial batch at the end of the response
            }
            headers.add(header(buffer, position, size));
            position += size;
        }
        return headers;
    }

    private static LogBatchHeader header(ByteBuffer buffer, int position, int size) {
        byte magic = buffer.get(position + 12);
        int shift;
        int headerSize;
        if (magic == 0) {
            shift = 0;
            headerSize = V0_HEADER_SIZE;
        } else if (magic == 1) {
            shift = 4; // the leader epoch sits before the CRC
            headerSize = V1_HEADER_SIZE;
        } else {
            throw new CorruptLogException("Unsupported log batch format (magic " + magic + ") at byte " + position
                    + "; Riffle reads the formats of Fluss 0.9 (magic 0 and 1)");
        }
        if (size < headerSize) {
            throw new CorruptLogException("Batch at byte " + position + " is " + size
                    + " bytes, shorter than its " + headerSize + "-byte header");
        }
        long baseOffset = buffer.getLong(position);
        long commitTimestamp = buffer.getLong(position + 13);
        short schemaId = buffer.getShort(position + 25 + shift);
        byte attributes = buffer.get(position + 27 + shift);
        int lastOffsetDelta = buffer.getInt(position + 28 + shift);
        int recordCount = buffer.getInt(position + 44 + shift);
        boolean appendOnly = (attributes & APPEND_ONLY_FLAG) != 0;
        int changeTypesPosition = position + headerSize;
        int changeTypeBytes = appendOnly || recordCount == 0 ? 0 : recordCount;
        int arrowPosition = changeTypesPosition + changeTypeBytes;
        int arrowLength = size - headerSize - changeTypeBytes;
        if (recordCount < 0 || arrowLength < 0) {
            throw new CorruptLogException("Batch at offset " + baseOffset + " claims " + recordCount
                    + " records but holds only " + (size - headerSize) + " bytes");
        }
        return new LogBatchHeader(position, size, magic, baseOffset, lastOffsetDelta, commitTimestamp, schemaId,
                appendOnly, recordCount, changeTypesPosition, arrowPosition, arrowLength);
    }
}
