package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.planner.AggregatePlan;
import dev.riffle.sql.planner.ReadPlan;
import dev.riffle.sql.planner.VectorCondition;
import dev.riffle.sql.planner.VectorExpression;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * Runs a {@code VectorizedAggregate}: reads the plan's batches through the same executor as a
 * scan ({@link ScanExecutor#forEachBatch}, so the same access path, pushed conditions, limit and
 * cancellation), keeps the rows of each for which a residual condition holds ({@link VectorFilter}),
 * computes the aggregate's input columns from them ({@link VectorProjection}), and folds those into
 * a {@link HashAggregation} column by column. The groups come out as Calcite rows
 * once the read is done. The generated code of a query calls {@link #enumerable} on the instance
 * the plan stashed.
 */
public final class VectorizedAggregateExecutor {
    private final FlussSession session;
    private final ReadPlan plan;
    private final Optional<VectorCondition> residual;
    private final List<VectorExpression> inputs;
    private final AggregatePlan aggregate;
    private final ScanExecutor scan;

    /**
     * @param residual a condition the read does not apply itself, checked on each batch first
     * @param inputs the aggregate's input columns, computed from each batch of the read
     */
    public VectorizedAggregateExecutor(FlussSession session, ReadPlan plan, Optional<VectorCondition> residual,
            List<VectorExpression> inputs, AggregatePlan aggregate) {
        this.session = requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.residual = requireNonNull(residual, "residual is null");
        this.inputs = List.copyOf(requireNonNull(inputs, "inputs is null"));
        this.aggregate = requireNonNull(aggregate, "aggregate is null");
        this.scan = new ScanExecutor(session, plan);
    }

    /** The groups, computed when first enumerated; a row is an {@code Object[]} (the value itself for one column). */
    public Enumerable<Object> enumerable(DataContext context) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object> enumerator() {
                return Linq4j.enumerator(groups(context));
            }
        };
    }

    private List<Object> groups(DataContext context) {
        HashAggregation groups = new HashAggregation(aggregate);
        BufferAllocator allocator = session.riffle().allocator();
        Optional<VectorFilter> filter = residual.map(condition -> new VectorFilter(condition, allocator));
        try (VectorProjection projection = new VectorProjection(inputs, allocator)) {
            scan.forEachBatch(context, allocator, (batch, rows) -> {
                VectorFilter.Kept kept = filter.isPresent() ? filter.get().apply(batch, rows)
                        : new VectorFilter.Kept(batch, rows);
                if (kept.rows() > 0) {
                    groups.add(projection.apply(kept.batch(), kept.rows()), kept.rows());
                }
            });
        } finally {
            filter.ifPresent(VectorFilter::close);
        }
        return groups.rows();
    }
}
