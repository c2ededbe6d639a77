package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.function.BooleanSupplier;
import org.apache.fluss.metadata.TablePath;

/**
 * Whether this service still holds a table's lease: false once the coordinator took the table back
 * (a fenced epoch) or the service is closing. Readers ask between batches, the commit before it
 * writes anything, so a round that lost its table stops without committing.
 *
 * <pre>{@code
 * LeaseGuard lease = new LeaseGuard(path, () -> held.get() && !closed.get());
 * lease.ensureHeld(); // throws LeaseLostException once it is gone
 * }</pre>
 */
record LeaseGuard(TablePath table, BooleanSupplier held) {

    LeaseGuard {
        requireNonNull(table, "table is null");
        requireNonNull(held, "held is null");
    }

    void ensureHeld() {
        if (!held.getAsBoolean()) {
            throw new LeaseLostException(table);
        }
    }

    boolean isHeld() {
        return held.getAsBoolean();
    }
}
