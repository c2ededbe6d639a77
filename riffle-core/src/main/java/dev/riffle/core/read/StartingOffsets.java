package dev.riffle.core.read;

import dev.riffle.core.exception.InvalidOffsetsException;
import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * Where a bounded read starts in each bucket.
 *
 * <pre>{@code
 * read().from(StartingOffsets.timestamp(Instant.parse("2024-06-01T00:00:00Z").toEpochMilli()))
 * }</pre>
 */
public sealed interface StartingOffsets {

    /** The first offset each bucket still holds. */
    static StartingOffsets earliest() {
        return Earliest.INSTANCE;
    }

    /** The first record committed at or after {@code epochMillis} in each bucket. */
    static StartingOffsets timestamp(long epochMillis) {
        return new AtTimestamp(epochMillis);
    }

    /** Given offsets; buckets that are not listed start at the earliest offset. */
    static StartingOffsets explicit(Map<BucketRef, Long> offsets) {
        return new Explicit(offsets);
    }

    /**
     * Offsets listed a moment ago for every bucket the read covers (by this process: the starts a
     * read cut into parts captured with its stops), used as they are: the earliest offsets are not
     * listed again to check them. A bucket whose log has expired below its offset since fails the
     * read as a log that expires while it is read does.
     *
     * <pre>{@code
     * read().from(StartingOffsets.listed(part.starts())).until(StoppingOffsets.explicit(part.stops()))
     * }</pre>
     */
    static StartingOffsets listed(Map<BucketRef, Long> offsets) {
        return new Listed(offsets);
    }

    enum Earliest implements StartingOffsets {
        INSTANCE
    }

    record AtTimestamp(long epochMillis) implements StartingOffsets {}

    record Explicit(Map<BucketRef, Long> offsets) implements StartingOffsets {
        public Explicit {
            offsets = copyOfValid(offsets);
        }
    }

    record Listed(Map<BucketRef, Long> offsets) implements StartingOffsets {
        public Listed {
            offsets = copyOfValid(offsets);
        }
    }

    private static Map<BucketRef, Long> copyOfValid(Map<BucketRef, Long> offsets) {
        Map<BucketRef, Long> copy = Map.copyOf(requireNonNull(offsets, "offsets is null"));
        copy.forEach((bucket, offset) -> {
            if (offset < 0) {
                throw new InvalidOffsetsException("Start offset for bucket " + bucket + " must be >= 0, got " + offset);
            }
        });
        return copy;
    }
}
