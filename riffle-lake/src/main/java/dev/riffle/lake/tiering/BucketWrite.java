package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;

/**
 * What tiering one bucket span wrote: the lake writer's uncommitted result, and what the commit
 * tells Fluss about the bucket.
 *
 * <pre>{@code
 * Optional<BucketWrite<PaimonWriteResult>> write = lakeBucketWriter.finish();
 * }</pre>
 *
 * @param endOffset the log offset up to which (exclusive) the lake holds the bucket once committed
 * @param result the lake writer's result, committed together with the round's other buckets
 * @param rows how many records were written
 * @param newestTimestamp the newest commit timestamp among the records (none for KV snapshot rows)
 * @param oldestTimestamp the oldest commit timestamp among the records: how stale the lake was
 */
record BucketWrite<W>(TableBucket bucket, long endOffset, W result, long rows, Optional<Long> newestTimestamp,
        Optional<Long> oldestTimestamp) {

    BucketWrite {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(result, "result is null");
        requireNonNull(newestTimestamp, "newestTimestamp is null");
        requireNonNull(oldestTimestamp, "oldestTimestamp is null");
    }
}
