package dev.riffle.lake.union;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowRowView;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.predicate.Predicate;

/**
 * A Fluss predicate (over the table's columns) applied to Arrow batches that carry some of them:
 * {@code positions[field]} is where table field {@code field} sits in the batch.
 */
final class RowFilter {
    private static final RowFilter ALL = new RowFilter(Optional.empty(), new int[0]);

    private final Optional<Predicate> predicate;
    private final int[] positions;

    private RowFilter(Optional<Predicate> predicate, int[] positions) {
        this.predicate = requireNonNull(predicate, "predicate is null");
        this.positions = positions.clone();
    }

    static RowFilter all() {
        return ALL;
    }

    static RowFilter of(Optional<Predicate> predicate, int[] positions) {
        return predicate.isEmpty() ? ALL : new RowFilter(predicate, positions);
    }

    boolean acceptsAll() {
        return predicate.isEmpty();
    }

    /** The filter over one batch. */
    Bound bind(VectorSchemaRoot batch) {
        if (predicate.isEmpty()) {
            return row -> true;
        }
        ArrowRowView view = new ArrowRowView(batch, positions);
        Predicate test = predicate.get();
        return row -> test.test(view.at(row));
    }

    interface Bound {
        boolean test(int row);
    }
}
