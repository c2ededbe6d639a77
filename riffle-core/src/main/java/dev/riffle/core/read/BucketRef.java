package dev.riffle.core.read;

import dev.riffle.core.exception.InvalidOffsetsException;
import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A bucket as users name it: a bucket number, and for partitioned tables the partition name
 * ({@code 2024-06-01/3} on the command line).
 */
public record BucketRef(Optional<String> partition, int bucket) {
    public BucketRef {
        requireNonNull(partition, "partition is null");
        if (bucket < 0) {
            throw new InvalidOffsetsException("bucket must be >= 0, got " + bucket);
        }
    }

    public static BucketRef of(int bucket) {
        return new BucketRef(Optional.empty(), bucket);
    }

    public static BucketRef of(String partition, int bucket) {
        return new BucketRef(Optional.of(partition), bucket);
    }

    @Override
    public String toString() {
        return partition.map(p -> p + "/").orElse("") + bucket;
    }
}
