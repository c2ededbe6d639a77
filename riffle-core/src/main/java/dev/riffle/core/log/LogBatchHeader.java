package dev.riffle.core.log;

/**
 * The fixed header of one Fluss log record batch, as the 0.9.1 server stores and sends it.
 *
 * <p>All offsets are absolute positions in the buffer the batch was parsed from. A batch holds
 * {@code recordCount} records with offsets {@code baseOffset .. baseOffset + recordCount - 1};
 * it occupies the offsets up to {@link #lastOffset()} even when it holds no records (a primary-key
 * write that changed nothing), which is why readers advance to {@link #nextOffset()}, never to
 * {@code baseOffset + recordCount}.
 *
 * @param position where the batch starts in its buffer
 * @param sizeInBytes the whole batch, header included
 * @param magic the format version (0 or 1 in Fluss 0.9.1)
 * @param baseOffset offset of the first record
 * @param lastOffsetDelta {@code lastOffset - baseOffset}
 * @param commitTimestamp milliseconds since the epoch, set by the leader when it appended the batch
 * @param schemaId the table schema the batch was written with
 * @param appendOnly true for log tables: no change-type bytes precede the Arrow data
 * @param recordCount number of records
 * @param changeTypesPosition where the change-type bytes start (one per record) when not append-only
 * @param arrowPosition where the Arrow IPC record batch message starts
 * @param arrowLength length of that message, body included
 */
public record LogBatchHeader(
        int position,
        int sizeInBytes,
        byte magic,
        long baseOffset,
        int lastOffsetDelta,
        long commitTimestamp,
        short schemaId,
        boolean appendOnly,
        int recordCount,
        int changeTypesPosition,
        int arrowPosition,
        int arrowLength) {

    public long lastOffset() {
        return baseOffset + lastOffsetDelta;
    }

    public long nextOffset() {
        return lastOffset() + 1;
    }
}
