package dev.riffle.sql.planner;

import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;

/**
 * {@code Aggregate over FlussScan} becomes a {@link VectorizedAggregate} when every aggregate
 * function is one the vectorized executor computes exactly as Calcite would
 * ({@link AggregatePlan#of}). Conditions the scan absorbed are applied by the read on its Arrow
 * batches, so a filtered aggregate is vectorized too; a condition or expression the scan cannot
 * take stays in a Calcite operator between the two, and the aggregate is then Calcite's.
 * The driver property {@code vectorized=false} leaves every aggregate to Calcite.
 */
public final class VectorizedAggregateRule extends RelOptRule {
    public static final VectorizedAggregateRule INSTANCE = new VectorizedAggregateRule();

    @SuppressWarnings("deprecation")
    private VectorizedAggregateRule() {
        // Calcite's enumerable aggregate: its input is the enumerable subset, where the scan is (a logical
        // aggregate's input subset lists logical operators only).
        super(operand(Aggregate.class, operand(FlussScan.class, none())), "VectorizedAggregateRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        FlussScan scan = call.rel(1);
        if (!scan.vectorizedExecution()) {
            return;
        }
        Optional<AggregatePlan> plan = AggregatePlan.of(aggregate);
        if (plan.isEmpty()) {
            return;
        }
        call.transformTo(new VectorizedAggregate(scan, plan.get(), aggregate.getRowType(), aggregate.getTraitSet()));
    }
}
