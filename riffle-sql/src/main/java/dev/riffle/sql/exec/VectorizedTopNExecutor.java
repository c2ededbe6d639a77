package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.plan.TopNPlan;
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
 * Runs a {@code VectorizedTopN}: reads the plan's batches through the same executor as a scan
 * ({@link ScanExecutor#forEachBatch}, so the same access path, pushed conditions, limit and
 * cancellation) into {@link TopRows} holding {@code offset + fetch} rows, and returns them in order
 * past the offset. The generated code of a query calls {@link #enumerable} on the instance the plan
 * stashed; {@code LIMIT ?} and {@code OFFSET ?} are bound per execution.
 */
public final class VectorizedTopNExecutor {
    private final FlussSession session;
    private final VectorizedInput input;
    private final TopNPlan topN;
    private final ScanExecutor scan;

    /** @param input what the top-N reads from each batch of the read */
    public VectorizedTopNExecutor(FlussSession session, ReadPlan plan, VectorizedInput input, TopNPlan topN) {
        this.session = requireNonNull(session, "session is null");
        this.input = requireNonNull(input, "input is null");
        this.topN = requireNonNull(topN, "topN is null");
        this.scan = new ScanExecutor(session, requireNonNull(plan, "plan is null"));
    }

    /** The rows, computed when first enumerated; a row is an {@code Object[]} (the value itself for one column). */
    public Enumerable<Object> enumerable(DataContext context) {
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object> enumerator() {
                return Linq4j.enumerator(rows(context));
            }
        };
    }

    private List<Object> rows(DataContext context) {
        long fetch = Bindings.count(topN.fetch(), context, "FETCH/LIMIT");
        long offset = topN.offset().isPresent() ? Bindings.count(topN.offset().get(), context, "OFFSET") : 0;
        if (fetch == 0) {
            return List.of();
        }
        // Rows are kept as objects: more than Integer.MAX_VALUE of them could not be returned either.
        TopRows top = new TopRows(topN.keys(), Math.min(Integer.MAX_VALUE - 8, saturatedSum(offset, fetch)));
        ExecutionGuard guard = ExecutionGuard.of(context);
        BufferAllocator allocator = session.riffle().allocator();
        try (ComputedBatches inputs = new ComputedBatches(input, allocator)) {
            int[] counted = {0};
            scan.forEachBatch(context, allocator, inputs.feeding((batch, rows) -> {
                top.add(batch, rows);
                guard.heldRows(top.size() - counted[0]);
                counted[0] = top.size();
            }));
        }
        List<Object> rows = top.rows();
        return offset >= rows.size() ? List.of() : rows.subList((int) offset, rows.size());
    }

    private static long saturatedSum(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}
