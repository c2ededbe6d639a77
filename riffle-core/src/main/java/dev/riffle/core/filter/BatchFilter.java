package dev.riffle.core.filter;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowRowView;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.predicate.Predicate;

/**
 * A Fluss predicate over a table's columns, evaluated on Arrow batches that carry some of those
 * columns: Riffle's one row filter, whatever the filter was written in (SQL conditions, the HTTP
 * JSON filter). {@code positions[field]} is where table field {@code field} sits in the batch
 * (-1 when the batch does not carry it; the predicate must not read such a field).
 *
 * <pre>{@code
 * BatchFilter filter = BatchFilter.of(Optional.of(amountOver100), positions);
 * IntPredicate keep = filter.bind(batch);
 * }</pre>
 *
 * <p>Rows are tested on the batch's column memory where the predicate's leaves allow
 * ({@link VectorPredicate}), else through {@link ArrowRowView}, a view of the Arrow cells as a
 * Fluss row; no row is copied to be tested.
 */
public final class BatchFilter {
    private static final BatchFilter ALL = new BatchFilter(Optional.empty(), new int[0]);

    private final Optional<Predicate> predicate;
    private final int[] positions;

    private BatchFilter(Optional<Predicate> predicate, int[] positions) {
        this.predicate = requireNonNull(predicate, "predicate is null");
        this.positions = positions.clone();
    }

    /** The filter that keeps every row. */
    public static BatchFilter all() {
        return ALL;
    }

    /**
     * @param predicate over the table's row type; empty keeps every row
     * @param positions for each table field, its vector's index in the batches (or -1)
     */
    public static BatchFilter of(Optional<Predicate> predicate, int[] positions) {
        requireNonNull(positions, "positions is null");
        return predicate.isEmpty() ? ALL : new BatchFilter(predicate, positions);
    }

    public boolean acceptsAll() {
        return predicate.isEmpty();
    }

    public Optional<Predicate> predicate() {
        return predicate;
    }

    /** The test of the rows of one batch (valid while the batch is). */
    public IntPredicate bind(VectorSchemaRoot batch) {
        if (predicate.isEmpty()) {
            return row -> true;
        }
        return VectorPredicate.bind(predicate.get(), batch, positions);
    }
}
