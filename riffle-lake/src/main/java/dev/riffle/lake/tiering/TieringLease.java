package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import org.apache.fluss.metadata.TablePath;

/**
 * A table the coordinator handed to this tiering service. The epoch goes up every time the
 * coordinator hands the table out again, so a service that lost its lease (it stopped heartbeating
 * in time) cannot finish the round in another's place.
 */
public record TieringLease(long tableId, TablePath tablePath, long tieringEpoch) {
    public TieringLease {
        requireNonNull(tablePath, "tablePath is null");
    }
}
