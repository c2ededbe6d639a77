package dev.riffle.core.kv;

import static java.util.Objects.requireNonNull;

import org.apache.fluss.metadata.TableBucket;

/**
 * One completed KV snapshot of a primary-key bucket: the bucket's rows as of {@code logOffset},
 * so the bucket's current rows are these with its changelog from {@code logOffset} on applied.
 *
 * <pre>{@code
 * KvSnapshot snapshot = new KvSnapshot(bucket, 7, 12_000);   // snapshot 7 covers offsets below 12,000
 * }</pre>
 *
 * @param logOffset the first log offset the snapshot does not cover
 */
public record KvSnapshot(TableBucket bucket, long snapshotId, long logOffset) {
    public KvSnapshot {
        requireNonNull(bucket, "bucket is null");
        if (snapshotId < 0 || logOffset < 0) {
            throw new IllegalArgumentException("A KV snapshot has a snapshot id and log offset >= 0, got "
                    + snapshotId + " and " + logOffset + " for " + bucket);
        }
    }
}
