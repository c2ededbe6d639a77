package dev.riffle.sql.planner;

import java.util.Optional;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.core.Sort;

/**
 * {@code ORDER BY ... LIMIT n} directly over a {@link FlussScan} becomes a {@link VectorizedTopN}:
 * the scan's batches are ordered on their vectors and only the rows that make the top become
 * Calcite rows. Calcite's enumerable plan splits a top-N into {@code EnumerableLimit} over a
 * {@code Sort} ({@link #LIMIT_OVER_SORT}); a {@code Sort} that carries its own fetch
 * ({@link #SORT_WITH_FETCH}) is taken too. Conditions the scan absorbed are applied by the read, so
 * a filtered top-N is vectorized as well; an expression or condition the scan cannot take stays in
 * a Calcite operator between the two, and the sort is then Calcite's. The driver property
 * {@code vectorized=false} leaves every sort to Calcite.
 */
public final class VectorizedTopNRule extends RelOptRule {
    @SuppressWarnings("deprecation")
    public static final VectorizedTopNRule LIMIT_OVER_SORT = new VectorizedTopNRule(
            operand(EnumerableLimit.class, operand(Sort.class, operand(FlussScan.class, none()))), "limit over sort");
    @SuppressWarnings("deprecation")
    public static final VectorizedTopNRule SORT_WITH_FETCH = new VectorizedTopNRule(
            operand(Sort.class, operand(FlussScan.class, none())), "sort with fetch");

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
        if (call.rel(0) instanceof EnumerableLimit limit) {
            sort = call.rel(1);
            if (sort.fetch != null || sort.offset != null) {
                return; // a limit over a limited sort: Calcite's
            }
            plan = TopNPlan.of(sort.getCollation(), sort.getRowType(), limit.fetch, limit.offset);
        } else {
            sort = call.rel(0);
            plan = TopNPlan.of(sort);
        }
        if (plan.isPresent()) {
            call.transformTo(new VectorizedTopN(scan, plan.get(), call.rel(0).getTraitSet().replace(sort.getCollation())));
        }
    }
}
