package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * What this tiering service last did for a table.
 *
 * @param tieredOffsets per bucket, the log offset up to which the lake holds the rows
 * @param lakeSnapshotId the lake snapshot the last round committed
 * @param rounds rounds that committed something
 * @param rows rows tiered by this service so far
 * @param lastRoundRows rows the last round tiered
 * @param lastRoundDuration how long the last round took, reading, writing and committing
 */
public record TieredTable(TablePath table, Map<TableBucket, Long> tieredOffsets, Optional<Long> lakeSnapshotId,
        Instant lastRound, long rounds, long rows, long lastRoundRows, java.time.Duration lastRoundDuration) {
    public TieredTable {
        requireNonNull(table, "table is null");
        tieredOffsets = Map.copyOf(tieredOffsets);
    }
}
