package dev.riffle.core.log;

/**
 * The fixed header of one Fluss log record batch, and where the parts after it lie.
 *
 * <p>All positions are absolute positions in the buffer the batch was parsed from. A batch holds
 * {@code recordCount} records with offsets {@code baseOffset .. baseOffset + recordCount - 1};
 * it occupies the offsets up to {@link #lastOffset()} even when it holds no records (a primary-key
 * write that changed nothing), which is why readers advance to {@link #nextOffset()}, never to
 * {@code baseOffset + recordCount}.
 *
 * <p>The parts after the header follow one another: statistics ({@code statisticsLength} bytes,
 * none for magic 0, for batches written without statistics, and for server-projected batches),
 * then one change-type byte per record unless the batch is append-only, then the Arrow data.
 *
 * @param position where the batch starts in its buffer
 * @param sizeInBytes the whole batch, header included
 * @param magic the format version (see {@link LogBatchLayout})
 * @param baseOffset offset of the first record
 * @param lastOffsetDelta {@code lastOffset - baseOffset}
 * @param commitTimestamp milliseconds since the epoch, set by the leader when it appended the batch
 * @param schemaId the table schema the batch was written with
 * @param appendOnly true for log tables: no change-type bytes precede the Arrow data
 * @param recordCount number of records
 * @param statisticsPosition where Fluss's batch statistics start (min/max/null counts of the
 *     table's {@code table.statistics.columns}, statistics format version in the first byte); kept
 *     so batches can later be skipped without decoding them
 * @param statisticsLength their length; 0 when the batch carries none
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
        int statisticsPosition,
        int statisticsLength,
        int changeTypesPosition,
        int arrowPosition,
        int arrowLength) {

    public long lastOffset() {
        return baseOffset + lastOffsetDelta;
    }

    public long nextOffset() {
        return lastOffset() + 1;
    }

    public boolean hasStatistics() {
        return statisticsLength > 0;
    }
}
