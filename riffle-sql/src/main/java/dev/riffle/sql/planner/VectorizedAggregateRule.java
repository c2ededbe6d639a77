package dev.riffle.sql.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;

/**
 * {@code Aggregate over [Project over] [Filter over] FlussScan} becomes a
 * {@link VectorizedAggregate} when every aggregate function is one the vectorized executor
 * computes exactly as Calcite would ({@link AggregatePlan#of}) and every projected expression is a
 * {@link VectorExpression} (arithmetic such as {@code SUM(price * qty)}, computed per batch).
 * Conditions the scan absorbed are applied by the read on its Arrow batches; a condition it could
 * not take ({@code WHERE a + b > 0}: {@code Filter} between the two) is checked on the batches
 * when it is a {@link VectorCondition}, else the aggregate stays Calcite's. The driver property
 * {@code vectorized=false} leaves every aggregate to Calcite.
 */
public final class VectorizedAggregateRule extends RelOptRule {
    /** An aggregate straight over the scan. */
    public static final VectorizedAggregateRule INSTANCE = new VectorizedAggregateRule(
            // Calcite's enumerable aggregate: its input is the enumerable subset, where the scan is (a logical
            // aggregate's input subset lists logical operators only).
            aggregateOver(scan()), "VectorizedAggregateRule");
    /** An aggregate of computed columns. */
    public static final VectorizedAggregateRule OVER_PROJECT = new VectorizedAggregateRule(
            aggregateOver(projectOver(scan())), "VectorizedAggregateRule:project");
    /** An aggregate over a condition the scan did not take. */
    public static final VectorizedAggregateRule OVER_FILTER = new VectorizedAggregateRule(
            aggregateOver(filterOver(scan())), "VectorizedAggregateRule:filter");
    /** An aggregate of columns computed from the rows a condition the scan did not take keeps. */
    public static final VectorizedAggregateRule OVER_PROJECT_FILTER = new VectorizedAggregateRule(
            aggregateOver(projectOver(filterOver(scan()))), "VectorizedAggregateRule:project-filter");

    private VectorizedAggregateRule(RelOptRuleOperand operand, String description) {
        super(operand, description);
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand aggregateOver(RelOptRuleOperand input) {
        return operand(Aggregate.class, input);
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand projectOver(RelOptRuleOperand input) {
        return operand(Project.class, input);
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand filterOver(RelOptRuleOperand input) {
        return operand(Filter.class, input);
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand scan() {
        return operand(FlussScan.class, none());
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        FlussScan scan = call.rel(call.rels.length - 1);
        if (!scan.vectorizedExecution()) {
            return;
        }
        Optional<AggregatePlan> plan = AggregatePlan.of(aggregate);
        if (plan.isEmpty()) {
            return;
        }
        List<RelNode> between = new ArrayList<>();
        for (int i = 1; i < call.rels.length - 1; i++) {
            between.add(call.rel(i));
        }
        Optional<VectorizedInput> input = VectorizedInput.between(between, scan);
        if (input.isEmpty()) {
            return;
        }
        call.transformTo(new VectorizedAggregate(scan, input.get(), plan.get(), aggregate.getRowType(),
                aggregate.getTraitSet()));
    }
}
