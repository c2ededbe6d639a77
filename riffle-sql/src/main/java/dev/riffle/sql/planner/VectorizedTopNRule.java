package dev.riffle.sql.planner;

import dev.riffle.sql.plan.TopNPlan;
import dev.riffle.sql.plan.VectorizedInput;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.core.Sort;

/**
 * {@code ORDER BY ... LIMIT n} directly over a {@link FlussScan} becomes a {@link VectorizedTopN}:
 * the scan's batches are ordered on their vectors and only the rows that make the top become
 * Calcite rows. Calcite's enumerable plan splits a top-N into {@code EnumerableLimit} over a
 * {@code Sort}; a {@code Sort} that carries its own fetch is taken too ({@link #RULES}: both
 * forms over each input shape). Conditions the scan absorbed are applied by the read, so
 * a filtered top-N is vectorized as well; a condition the scan cannot take and computed columns
 * between the two are computed on the batches when they are a {@link VectorizedInput}, else the
 * sort is Calcite's. The driver property
 * {@code vectorized=false} leaves every sort to Calcite.
 */
public final class VectorizedTopNRule extends RelOptRule {
    /** Both forms of a top-N over each input shape ({@link VectorizedInput#shapes}). */
    public static final List<VectorizedTopNRule> RULES = Stream.concat(
            VectorizedInputShapes.shapes().stream().map(shape -> new VectorizedTopNRule(limitOverSort(shape.operand()),
                    "limit over sort over " + shape.name())),
            VectorizedInputShapes.shapes().stream().map(shape -> new VectorizedTopNRule(sortWithFetch(shape.operand()),
                    "sort with fetch over " + shape.name())))
            .toList();

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand limitOverSort(RelOptRuleOperand input) {
        return operand(EnumerableLimit.class, operand(Sort.class, input));
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand sortWithFetch(RelOptRuleOperand input) {
        return operand(Sort.class, input);
    }

    private VectorizedTopNRule(RelOptRuleOperand operand, String form) {
        super(operand, "VectorizedTopNRule(" + form + ")");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        FlussScan scan = call.rel(call.rels.length - 1);
        if (!scan.vectorizedExecution()) {
            return;
        }
        Optional<TopNPlan> plan;
        Sort sort;
        int below;
        if (call.rel(0) instanceof EnumerableLimit limit) {
            sort = call.rel(1);
            below = 2;
            if (sort.fetch != null || sort.offset != null) {
                return; // a limit over a limited sort: Calcite's
            }
            plan = TopNPlan.of(sort.getCollation(), sort.getRowType(), limit.fetch, limit.offset);
        } else {
            sort = call.rel(0);
            below = 1;
            plan = TopNPlan.of(sort);
        }
        Optional<VectorizedInput> input = VectorizedInputShapes.of(call, below);
        if (plan.isPresent() && input.isPresent()) {
            call.transformTo(new VectorizedTopN(scan, input.get(), plan.get(), sort.getRowType(),
                    call.rel(0).getTraitSet().replace(sort.getCollation())));
        }
    }
}
