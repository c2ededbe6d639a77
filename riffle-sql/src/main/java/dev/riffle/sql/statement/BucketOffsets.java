package dev.riffle.sql.statement;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.read.BucketRef;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a log or changelog read starts and stops in each bucket it covers, captured once so that
 * the read can be cut into parts by bucket and each part opened later, by any server, without
 * asking Fluss for offsets again: every row between them is read once.
 *
 * <pre>{@code
 * BucketOffsets whole = direct.offsets(parameters, allocator).orElseThrow();
 * try (TableReader rows = direct.open(parameters, allocator, whole)) { ... }
 * }</pre>
 *
 * @param starts where each bucket's read starts (inclusive), for every bucket of {@code stops};
 *     or none, and each bucket starts where the read would start when the part is opened
 * @param stops where each bucket's read stops (exclusive): the buckets of the read
 */
public record BucketOffsets(Map<BucketRef, Long> starts, Map<BucketRef, Long> stops) {
    public BucketOffsets {
        starts = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(starts, "starts is null")));
        stops = Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(stops, "stops is null")));
        if (!starts.isEmpty() && !starts.keySet().equals(stops.keySet())) {
            throw new IllegalArgumentException("Start offsets are given for " + starts.keySet()
                    + " but stop offsets for " + stops.keySet() + "; give starts for every bucket or for none");
        }
    }
}
