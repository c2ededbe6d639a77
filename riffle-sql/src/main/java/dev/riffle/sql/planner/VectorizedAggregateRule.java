package dev.riffle.sql.planner;

import dev.riffle.sql.plan.AggregatePlan;
import dev.riffle.sql.plan.VectorCondition;
import dev.riffle.sql.plan.VectorExpression;
import dev.riffle.sql.plan.VectorizedInput;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.core.Aggregate;

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
    /**
     * One rule per input shape ({@link VectorizedInput#shapes}): straight over the scan, over
     * computed columns, over a condition the scan did not take, over both.
     */
    public static final List<VectorizedAggregateRule> RULES = VectorizedInputShapes.shapes().stream()
            // Calcite's enumerable aggregate: its input is the enumerable subset, where the scan is (a logical
            // aggregate's input subset lists logical operators only).
            .map(shape -> new VectorizedAggregateRule(aggregateOver(shape.operand()),
                    "VectorizedAggregateRule(" + shape.name() + ")"))
            .toList();

    private VectorizedAggregateRule(RelOptRuleOperand operand, String description) {
        super(operand, description);
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand aggregateOver(RelOptRuleOperand input) {
        return operand(Aggregate.class, input);
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
        if (call.rels.length == 2 && readsNoColumn(aggregate)) {
            // count(*) straight over the scan: no Project names the columns it needs (none), so the
            // scan still reads every column; one, the narrowest, is all it needs to count rows.
            FlussScan narrowed = scan.withPlan(scan.plan().withColumns(List.of(scan.narrowestColumn())));
            call.transformTo(new VectorizedAggregate(narrowed, VectorizedInputShapes.between(List.of(), narrowed)
                    .orElseThrow(), plan.get(), aggregate.getRowType(), aggregate.getTraitSet()));
            return;
        }
        Optional<VectorizedInput> input = VectorizedInputShapes.of(call, 1);
        if (input.isEmpty()) {
            return;
        }
        call.transformTo(new VectorizedAggregate(scan, input.get(), plan.get(), aggregate.getRowType(),
                aggregate.getTraitSet()));
    }

    private static boolean readsNoColumn(Aggregate aggregate) {
        return aggregate.getGroupSet().isEmpty() && aggregate.getAggCallList().stream()
                .allMatch(call -> call.getArgList().isEmpty() && call.filterArg < 0);
    }
}
