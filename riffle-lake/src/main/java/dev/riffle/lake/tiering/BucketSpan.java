package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;

/**
 * One bucket's part of a tiering round: what to read, never how. {@link TieringPlanner} makes
 * them, {@link SpanReaders} picks the reader for each.
 *
 * <pre>{@code
 * if (span instanceof BucketSpan.LogRange log) {
 *     ... // offsets [log.from() or the earliest, log.stop())
 * } else if (span instanceof BucketSpan.KvSnapshot kv) {
 *     ... // the rows of KV snapshot kv.snapshotId()
 * }
 * }</pre>
 */
sealed interface BucketSpan permits BucketSpan.LogRange, BucketSpan.KvSnapshot {

    TableBucket bucket();

    /** The partition's name, for a partitioned table. */
    Optional<String> partitionName();

    /** The log offset up to which (exclusive) the lake holds the bucket once this span is committed. */
    long endOffset();

    /** How many log offsets the lake lacks that this span covers: the bucket's lag when planned. */
    long lagOffsets();

    /**
     * The bucket's log from {@code from} (the offset the lake holds it up to), or from the first
     * offset the log still holds when the lake never held the bucket, to {@code stop} (exclusive).
     */
    record LogRange(TableBucket bucket, Optional<String> partitionName, Optional<Long> from, long stop)
            implements BucketSpan {
        public LogRange {
            requireNonNull(bucket, "bucket is null");
            requireNonNull(partitionName, "partitionName is null");
            requireNonNull(from, "from is null");
            if (from.isPresent() && from.get() < 0) {
                throw new IllegalArgumentException("Start offset of bucket " + bucket + " must be >= 0, got " + from.get());
            }
            if (from.isPresent() && from.get() >= stop) {
                throw new IllegalArgumentException("Empty log range [" + from.get() + ", " + stop + ") for bucket "
                        + bucket + "; a bucket with nothing new has no span");
            }
        }

        @Override
        public long endOffset() {
            return stop;
        }

        @Override
        public long lagOffsets() {
            return stop - from.orElse(0L);
        }
    }

    /**
     * The rows of a primary-key bucket's KV snapshot, for a bucket the lake never held: its
     * changelog before the snapshot may be gone already. The lake then holds the bucket up to
     * {@code logOffset}, the log offset the snapshot was taken at.
     */
    record KvSnapshot(TableBucket bucket, Optional<String> partitionName, long snapshotId, long logOffset)
            implements BucketSpan {
        public KvSnapshot {
            requireNonNull(bucket, "bucket is null");
            requireNonNull(partitionName, "partitionName is null");
            if (logOffset < 0) {
                throw new IllegalArgumentException("Log offset of KV snapshot " + snapshotId + " of bucket " + bucket
                        + " must be >= 0, got " + logOffset);
            }
        }

        @Override
        public long endOffset() {
            return logOffset;
        }

        @Override
        public long lagOffsets() {
            return logOffset;
        }
    }
}
