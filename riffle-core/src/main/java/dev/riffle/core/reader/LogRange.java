package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;

/**
 * The stretch of one bucket's log a batch was read from: every offset in
 * {@code [startOffset, endOffset)} was read, and the batch holds the rows of that stretch that
 * the read kept. A caller that continues the read from {@code endOffset} sees nothing twice and
 * misses nothing, which is what stateless paging builds on.
 *
 * @param bucket the bucket (with its partition id on partitioned tables)
 * @param partitionName the partition's name on partitioned tables
 * @param startOffset the first offset read
 * @param endOffset the offset after the last one read
 */
public record LogRange(TableBucket bucket, Optional<String> partitionName, long startOffset, long endOffset) {
    public LogRange {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(partitionName, "partitionName is null");
        if (startOffset < 0 || endOffset < startOffset) {
            throw new IllegalArgumentException("A log range needs 0 <= start <= end, got [" + startOffset + ", "
                    + endOffset + ") of " + bucket);
        }
    }

    /** The same stretch ending earlier (a limit stopped the read inside it). */
    public LogRange endingAt(long offset) {
        return new LogRange(bucket, partitionName, startOffset, offset);
    }
}
