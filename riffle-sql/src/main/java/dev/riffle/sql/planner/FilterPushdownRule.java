package dev.riffle.sql.planner;

import dev.riffle.sql.plan.PushedCondition;
import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexNode;

/**
 * Hands a scan the filter conditions it can apply itself ({@link ReadPlan#absorbs}): every
 * condition Fluss's predicates express. The read façade tests them on the Arrow batches (after
 * a primary-key merge), skips the partitions they rule out, and gives them to the lake, which
 * prunes files and row groups (the union read re-checks what the lake could not apply exactly).
 * What the scan absorbs leaves the plan; the rest stays in a filter above it, visible in EXPLAIN.
 */
public final class FilterPushdownRule extends RelOptRule {
    public static final FilterPushdownRule INSTANCE = new FilterPushdownRule();

    @SuppressWarnings("deprecation")
    private FilterPushdownRule() {
        super(operand(Filter.class, operand(FlussScan.class, none())), "FilterPushdownRule");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        FlussScan scan = call.rel(1);
        ReadPlan plan = scan.plan();
        // a lookup's rows are whole rows of its keys: it can test them too (what it takes: ReadPlan.absorbs)
        return plan.limit().isEmpty() && plan.filters().isEmpty();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Filter filter = call.rel(0);
        FlussScan scan = call.rel(1);
        ReadPlan plan = scan.plan();
        ConditionTranslator translator = new ConditionTranslator(filter.getCluster().getRexBuilder(), plan.columns(),
                plan.table().getRowType());
        List<PushedCondition> absorbed = new ArrayList<>();
        List<RexNode> remaining = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            Optional<PushedCondition> condition = translator.translate(conjunct);
            if (condition.isPresent() && plan.absorbs(condition.get())) {
                absorbed.add(condition.get());
            } else {
                remaining.add(conjunct);
            }
        }
        if (absorbed.isEmpty()) {
            return;
        }
        FlussScan filtered = scan.withPlan(plan.withFilters(absorbed));
        call.transformTo(KeyAccess.withRemaining(call.builder(), filtered, remaining));
    }
}
