package dev.riffle.gateway.scan;

import dev.riffle.core.read.BucketRef;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.fluss.metadata.TableBucket;

/**
 * Where a page of a scan ends in each bucket: the offset after the last row it consumed (or the
 * bucket's start, if it consumed none), or the stop offset once a bucket was read to the end. A
 * client passes {@link #next()} back as {@code from} to read the following page; no state stays
 * on the server.
 */
final class PageCursor {
    private final Map<TableBucket, Long> positions;
    private final Map<TableBucket, Long> stops;
    private final Map<Long, String> partitionNames;

    PageCursor(Map<TableBucket, Long> starts, Map<TableBucket, Long> stops, Map<Long, String> partitionNames) {
        this.positions = new LinkedHashMap<>(starts);
        this.stops = Map.copyOf(stops);
        this.partitionNames = Map.copyOf(partitionNames);
    }

    /** Rows of {@code bucket} below {@code offset} have been consumed. */
    void advance(TableBucket bucket, long offset) {
        positions.merge(bucket, offset, Math::max);
    }

    /** The read ended: every bucket was read up to its stop offset. */
    void finishAll() {
        stops.forEach(this::advance);
    }

    Map<String, Long> next() {
        return byKey(positions);
    }

    Map<String, Long> until() {
        return byKey(stops);
    }

    /** Whether nothing is left below the stop offsets. */
    boolean done() {
        for (Map.Entry<TableBucket, Long> stop : stops.entrySet()) {
            if (positions.getOrDefault(stop.getKey(), 0L) < stop.getValue()) {
                return false;
            }
        }
        return true;
    }

    private Map<String, Long> byKey(Map<TableBucket, Long> offsets) {
        Map<String, Long> result = new TreeMap<>();
        offsets.forEach((bucket, offset) -> result.put(BucketKeys.key(ref(bucket)), offset));
        return result;
    }

    private BucketRef ref(TableBucket bucket) {
        Optional<String> partition = Optional.ofNullable(bucket.getPartitionId())
                .map(id -> partitionNames.getOrDefault(id, "partition-id-" + id));
        return new BucketRef(partition, bucket.getBucket());
    }
}
