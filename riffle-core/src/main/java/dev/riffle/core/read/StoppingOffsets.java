package dev.riffle.core.read;

import dev.riffle.core.exception.InvalidOffsetsException;
import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * Where a bounded read stops in each bucket (exclusive), captured once when the reader is created:
 * rows written after that are not read.
 *
 * <pre>{@code
 * read().until(StoppingOffsets.latest())
 * }</pre>
 */
public sealed interface StoppingOffsets {

    /** Each bucket's high watermark when the reader is created: everything committed by then. */
    static StoppingOffsets latest() {
        return Latest.INSTANCE;
    }

    /** Records committed before {@code epochMillis}. */
    static StoppingOffsets timestamp(long epochMillis) {
        return new AtTimestamp(epochMillis);
    }

    /**
     * Given offsets, one for every bucket read. A stop offset above a bucket's high watermark
     * waits for the rows to arrive (bound the wait with a timeout).
     */
    static StoppingOffsets explicit(Map<BucketRef, Long> offsets) {
        return new Explicit(offsets);
    }

    enum Latest implements StoppingOffsets {
        INSTANCE
    }

    record AtTimestamp(long epochMillis) implements StoppingOffsets {}

    record Explicit(Map<BucketRef, Long> offsets) implements StoppingOffsets {
        public Explicit {
            offsets = Map.copyOf(requireNonNull(offsets, "offsets is null"));
            offsets.forEach((bucket, offset) -> {
                if (offset < 0) {
                    throw new InvalidOffsetsException("Stop offset for bucket " + bucket + " must be >= 0, got " + offset);
                }
            });
        }
    }
}
