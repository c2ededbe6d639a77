package dev.riffle.sql.planner;

import dev.riffle.sql.plan.AggregatePlan;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;

/**
 * A logical aggregate with {@code DISTINCT} calls that the vectorized executor computes
 * ({@link AggregatePlan#of}) gets a {@link DistinctAggregateCandidate} beside it, for
 * {@link VectorizedAggregateRule} to match over the scans its input became. Calcite's expansion of
 * such an aggregate into grouping sets stays in the plan space, so the cheaper of the two is run.
 */
public final class DistinctAggregateCandidateRule extends RelOptRule {
    public static final DistinctAggregateCandidateRule INSTANCE = new DistinctAggregateCandidateRule();

    @SuppressWarnings("deprecation")
    private DistinctAggregateCandidateRule() {
        super(operand(LogicalAggregate.class, any()), "DistinctAggregateCandidateRule");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        return aggregate.getAggCallList().stream().anyMatch(AggregateCall::isDistinct)
                && AggregatePlan.of(aggregate).isPresent();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalAggregate aggregate = call.rel(0);
        RelNode input = convert(aggregate.getInput(), aggregate.getInput().getTraitSet()
                .replace(EnumerableConvention.INSTANCE));
        call.transformTo(new DistinctAggregateCandidate(aggregate.getCluster(),
                aggregate.getTraitSet().replace(EnumerableConvention.INSTANCE), aggregate.getHints(), input,
                aggregate.getGroupSet(), aggregate.getGroupSets(), aggregate.getAggCallList()));
    }
}
