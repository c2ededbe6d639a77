package dev.riffle.sql.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.adapter.enumerable.EnumerableLimit;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;

/**
 * {@code ORDER BY ... LIMIT n} directly over a {@link FlussScan} becomes a {@link VectorizedTopN}:
 * the scan's batches are ordered on their vectors and only the rows that make the top become
 * Calcite rows. Calcite's enumerable plan splits a top-N into {@code EnumerableLimit} over a
 * {@code Sort} ({@link #LIMIT_OVER_SORT}); a {@code Sort} that carries its own fetch
 * ({@link #SORT_WITH_FETCH}) is taken too. Conditions the scan absorbed are applied by the read, so
 * a filtered top-N is vectorized as well; a condition the scan cannot take and computed columns
 * between the two ({@link #OVER_FILTER_OR_PROJECT}) are computed on the batches when they are a
 * {@link VectorizedInput}, else the sort is Calcite's. The driver property
 * {@code vectorized=false} leaves every sort to Calcite.
 */
public final class VectorizedTopNRule extends RelOptRule {
    public static final VectorizedTopNRule LIMIT_OVER_SORT = new VectorizedTopNRule(
            limitOverSort(operand(FlussScan.class, none())), "limit over sort");
    public static final VectorizedTopNRule SORT_WITH_FETCH = new VectorizedTopNRule(
            sortWithFetch(operand(FlussScan.class, none())), "sort with fetch");
    /** The same two forms over a condition the scan did not take, a projection, or both (see {@link VectorizedInput}). */
    public static final List<VectorizedTopNRule> OVER_FILTER_OR_PROJECT = List.of(
            new VectorizedTopNRule(limitOverSort(filterOverScan()), "limit over sort over filter"),
            new VectorizedTopNRule(sortWithFetch(filterOverScan()), "sort with fetch over filter"),
            new VectorizedTopNRule(limitOverSort(operand(Project.class, operand(FlussScan.class, none()))),
                    "limit over sort over project"),
            new VectorizedTopNRule(sortWithFetch(operand(Project.class, operand(FlussScan.class, none()))),
                    "sort with fetch over project"),
            new VectorizedTopNRule(limitOverSort(operand(Project.class, filterOverScan())),
                    "limit over sort over project over filter"),
            new VectorizedTopNRule(sortWithFetch(operand(Project.class, filterOverScan())),
                    "sort with fetch over project over filter"));

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand limitOverSort(RelOptRuleOperand input) {
        return operand(EnumerableLimit.class, operand(Sort.class, input));
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand sortWithFetch(RelOptRuleOperand input) {
        return operand(Sort.class, input);
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand filterOverScan() {
        return operand(Filter.class, operand(FlussScan.class, none()));
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
        List<RelNode> between = new ArrayList<>();
        for (int i = below; i < call.rels.length - 1; i++) {
            between.add(call.rel(i));
        }
        Optional<VectorizedInput> input = VectorizedInput.between(between, scan);
        if (plan.isPresent() && input.isPresent()) {
            call.transformTo(new VectorizedTopN(scan, input.get(), plan.get(), sort.getRowType(),
                    call.rel(0).getTraitSet().replace(sort.getCollation())));
        }
    }
}
