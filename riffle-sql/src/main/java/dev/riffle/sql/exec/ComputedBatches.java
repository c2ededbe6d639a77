package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.plan.VectorizedInput;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A vectorized operator's input batches made from its scan's ({@link VectorizedInput}): the rows
 * for which the residual condition holds ({@link VectorFilter}), then the operator's columns
 * computed from them ({@link VectorProjection}). What it hands on lives until the next batch or
 * {@link #close()}, whichever comes first.
 *
 * <pre>{@code
 * try (ComputedBatches inputs = new ComputedBatches(input, allocator)) {
 *     scan.forEachBatch(context, allocator, inputs.feeding(groups::add));
 * }
 * }</pre>
 */
final class ComputedBatches implements AutoCloseable {
    private final Optional<VectorFilter> filter;
    private final VectorProjection projection;

    /** @param allocator where copied rows and computed vectors are allocated */
    ComputedBatches(VectorizedInput input, BufferAllocator allocator) {
        requireNonNull(input, "input is null");
        requireNonNull(allocator, "allocator is null");
        this.filter = input.residual().map(condition -> new VectorFilter(condition, allocator));
        this.projection = new VectorProjection(input.columns(), allocator);
    }

    /** A sink for the scan's batches that hands {@code operator} the operator's input batches (none when no row is kept). */
    ScanExecutor.BatchSink feeding(ScanExecutor.BatchSink operator) {
        requireNonNull(operator, "operator is null");
        return (batch, rows) -> {
            VectorFilter.Kept kept = filter.isPresent() ? filter.get().apply(batch, rows) : new VectorFilter.Kept(batch, rows);
            if (kept.rows() > 0) {
                VectorSchemaRoot columns = projection.apply(kept.batch(), kept.rows());
                operator.accept(columns, kept.rows());
            }
        };
    }

    @Override
    public void close() {
        try {
            projection.close();
        } finally {
            filter.ifPresent(VectorFilter::close);
        }
    }
}
