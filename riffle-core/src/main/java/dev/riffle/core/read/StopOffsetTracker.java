package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;

/**
 * Decides, batch by batch, what a bounded read keeps: every row below each bucket's stop offset,
 * nothing at or above it. Pure bookkeeping, no I/O.
 *
 * <p>A bucket is finished once a batch reaches its stop offset, or once its read position (which
 * also moves over offsets that hold no rows) reaches it. Batches of finished or unknown buckets
 * are ignored.
 */
public final class StopOffsetTracker {
    /** Rows {@code [from, from + length)} of a batch to keep. */
    public record Keep(int from, int length) {}

    private final Map<TableBucket, Long> stops;
    private final Map<TableBucket, Long> unfinished;

    /** @param stopOffsets exclusive stop offset per bucket */
    public StopOffsetTracker(Map<TableBucket, Long> stopOffsets) {
        requireNonNull(stopOffsets, "stopOffsets is null");
        this.stops = Map.copyOf(stopOffsets);
        this.unfinished = new LinkedHashMap<>(stopOffsets);
    }

    /**
     * What to keep of a batch of {@code rowCount} rows starting at {@code baseOffset}; empty when
     * nothing (unknown or finished bucket, empty batch, batch at or past the stop).
     */
    public Optional<Keep> accept(TableBucket bucket, long baseOffset, int rowCount) {
        Long stop = unfinished.get(bucket);
        if (stop == null) {
            return Optional.empty();
        }
        if (baseOffset >= stop) {
            unfinished.remove(bucket);
            return Optional.empty();
        }
        if (rowCount <= 0) {
            return Optional.empty();
        }
        long end = baseOffset + rowCount;
        if (end >= stop) {
            unfinished.remove(bucket);
            return Optional.of(new Keep(0, (int) (stop - baseOffset)));
        }
        return Optional.of(new Keep(0, rowCount));
    }

    /** The bucket will next read at {@code position}: finished if that is at or past its stop. */
    public void advance(TableBucket bucket, long position) {
        Long stop = unfinished.get(bucket);
        if (stop != null && position >= stop) {
            unfinished.remove(bucket);
        }
    }

    public boolean isFinished(TableBucket bucket) {
        return stops.containsKey(bucket) && !unfinished.containsKey(bucket);
    }

    public boolean allFinished() {
        return unfinished.isEmpty();
    }

    /** How many buckets are still being read (no copy: progress asks after every batch). */
    public int unfinishedCount() {
        return unfinished.size();
    }

    /** Buckets still being read, with their stop offsets. */
    public Map<TableBucket, Long> unfinished() {
        return new HashMap<>(unfinished);
    }

    public Map<TableBucket, Long> stops() {
        return stops;
    }
}
