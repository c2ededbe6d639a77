package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.plan.AggregatePlan;
import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.plan.VectorizedInput;
import dev.riffle.sql.statement.ExecutionGuard;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;

/**
 * Runs a {@code VectorizedAggregate}: reads the plan's batches through the same executor as a
 * scan ({@link ScanExecutor#forEachBatch}, so the same access path, pushed conditions, limit and
 * cancellation), makes the aggregate's input from each ({@link ComputedBatches}: the rows a residual
 * condition keeps, the columns computed from them), and folds it into a {@link HashAggregation}
 * column by column, on the statement's thread and, for a large read, a helper's
 * ({@link ParallelHashAggregation}). The groups come out as Calcite rows once the read is done.
 * The generated code of a query calls {@link #enumerable} on the instance the plan stashed.
 */
public final class VectorizedAggregateExecutor {
    private final FlussSession session;
    private final ReadPlan plan;
    private final VectorizedInput input;
    private final AggregatePlan aggregate;
    private final ScanExecutor scan;

    /** @param input what the aggregate reads from each batch of the read */
    public VectorizedAggregateExecutor(FlussSession session, ReadPlan plan, VectorizedInput input,
            AggregatePlan aggregate) {
        this.session = requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
        this.input = requireNonNull(input, "input is null");
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
        BufferAllocator allocator = session.riffle().allocator();
        ParallelHashAggregation groups = new ParallelHashAggregation(aggregate, input, allocator,
                ExecutionGuard.of(context));
        try {
            scan.forEachOwnedBatch(context, allocator, groups);
        } finally {
            groups.release();
        }
        return groups.rows();
    }
}
