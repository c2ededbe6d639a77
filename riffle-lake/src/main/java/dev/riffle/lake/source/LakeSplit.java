package dev.riffle.lake.source;

import static java.util.Objects.requireNonNull;

import java.util.List;

/**
 * One unit of lake reading.
 *
 * @param bucket the Fluss bucket the split's rows belong to, or -1 when the lake does not keep
 *     Fluss's bucketing (a Paimon log table without a bucket key)
 * @param partition the partition values, empty for unpartitioned tables
 * @param handle the format's own split object
 * @param files how many data files the split reads (what pruning by filters saves)
 */
public record LakeSplit(int bucket, List<String> partition, Object handle, int files) {
    public LakeSplit {
        partition = List.copyOf(requireNonNull(partition, "partition is null"));
        requireNonNull(handle, "handle is null");
        if (files < 0) {
            throw new IllegalArgumentException("files must be >= 0, got " + files);
        }
    }
}
