package dev.riffle.sql.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;

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
    public static final VectorizedAggregateRule INSTANCE = new VectorizedAggregateRule(
            // Calcite's enumerable aggregate: its input is the enumerable subset, where the scan is (a logical
            // aggregate's input subset lists logical operators only).
            operand(Aggregate.class, operand(FlussScan.class, none())), "VectorizedAggregateRule");
    public static final VectorizedAggregateRule OVER_PROJECT = new VectorizedAggregateRule(
            operand(Aggregate.class, operand(Project.class, operand(FlussScan.class, none()))),
            "VectorizedAggregateRule:project");
    public static final VectorizedAggregateRule OVER_FILTER = new VectorizedAggregateRule(
            operand(Aggregate.class, operand(Filter.class, operand(FlussScan.class, none()))),
            "VectorizedAggregateRule:filter");
    public static final VectorizedAggregateRule OVER_PROJECT_FILTER = new VectorizedAggregateRule(
            operand(Aggregate.class, operand(Project.class, operand(Filter.class, operand(FlussScan.class, none())))),
            "VectorizedAggregateRule:project-filter");

    @SuppressWarnings("deprecation")
    private VectorizedAggregateRule(RelOptRuleOperand operand, String description) {
        super(operand, description);
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
        Optional<VectorCondition> residual = Optional.empty();
        Optional<Project> project = Optional.empty();
        for (int i = 1; i < call.rels.length - 1; i++) {
            if (call.rel(i) instanceof Filter filter) {
                residual = VectorCondition.of(filter.getCondition(), filter.getCluster().getRexBuilder());
                if (residual.isEmpty()) {
                    return;
                }
            } else {
                project = Optional.of(call.rel(i));
            }
        }
        List<VectorExpression> inputs = new ArrayList<>();
        if (project.isPresent()) {
            for (RexNode expression : project.get().getProjects()) {
                Optional<VectorExpression> input = VectorExpression.of(expression);
                if (input.isEmpty()) {
                    return;
                }
                inputs.add(input.get());
            }
        } else {
            List<RelDataTypeField> columns = scan.getRowType().getFieldList();
            for (int i = 0; i < columns.size(); i++) {
                inputs.add(new VectorExpression.Column(i, columns.get(i).getType().getSqlTypeName()));
            }
        }
        call.transformTo(new VectorizedAggregate(scan, residual, inputs, plan.get(), aggregate.getRowType(),
                aggregate.getTraitSet()));
    }
}
