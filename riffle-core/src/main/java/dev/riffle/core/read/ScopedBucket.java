package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;

/** A bucket a read covers: its Fluss id and, for partitioned tables, its partition's name. */
public record ScopedBucket(TableBucket bucket, Optional<String> partitionName) {
    public ScopedBucket {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(partitionName, "partitionName is null");
    }

    public BucketRef ref() {
        return new BucketRef(partitionName, bucket.getBucket());
    }
}
