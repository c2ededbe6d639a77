package dev.riffle.core.merge;

/**
 * Where a log-tail record sits, packed into one {@code long} for {@link TailKeyIndex}: a dense
 * bucket id in the high bits and the record's log offset in the low 44 (17.6 trillion records
 * per bucket); the sign bit is left for {@link TailKeyIndex#REMOVES}. Within a bucket a later
 * position is a newer record.
 */
final class TailPositions {
    static final int OFFSET_BITS = 44;
    /** One id fewer than the bits allow, so that a position plus one still leaves the sign bit clear. */
    static final int MAX_BUCKETS = (1 << (63 - OFFSET_BITS)) - 1;

    private TailPositions() {}

    /** The position of the record at {@code offset} of the bucket the caller numbered {@code bucketId}. */
    static long of(int bucketId, long offset) {
        if (bucketId < 0 || bucketId >= MAX_BUCKETS) {
            throw new IllegalStateException("A merge's log tail spans more buckets than it can track (" + MAX_BUCKETS + ")");
        }
        if (offset < 0 || offset >= 1L << OFFSET_BITS) {
            throw new IllegalStateException("Log offset " + offset + " is beyond what a merge can track");
        }
        return (long) bucketId << OFFSET_BITS | offset;
    }
}
