package dev.riffle.sql.planner;

import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.hint.RelHint;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.util.ImmutableBitSet;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * An aggregate with {@code DISTINCT} calls ({@code COUNT(DISTINCT user), COUNT(*)}) in the
 * enumerable convention, over its input's enumerable subset: the one place
 * {@link VectorizedAggregateRule} can find the scan that took the query's filter and columns.
 *
 * <p>Calcite's {@code EnumerableAggregate} refuses {@code DISTINCT} calls, so such an aggregate
 * otherwise exists only as a logical operator, whose input subset holds logical operators: the
 * vectorized rule then sees the scan as the table was read before any pushdown (every column, no
 * filter) and Calcite's expansion into grouping sets over the pushed scan costs less. This operator
 * is never run: its cost is infinite, and {@link #implement} fails.
 *
 * <pre>{@code
 * // SELECT k, count(DISTINCT v), count(*) FROM t WHERE k > 0 GROUP BY k
 * VectorizedAggregate(table=[[db, t]], access=[LogScan[k > 0]], columns=[[k, v]],
 *     aggregate=[group [k] aggregates [COUNT(DISTINCT v), COUNT(*)]])
 * }</pre>
 */
public final class DistinctAggregateCandidate extends Aggregate implements EnumerableRel {

    DistinctAggregateCandidate(RelOptCluster cluster, RelTraitSet traits, List<RelHint> hints, RelNode input,
            ImmutableBitSet groupSet, @Nullable List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        super(cluster, traits, hints, input, groupSet, groupSets, aggCalls);
    }

    @Override
    public Aggregate copy(RelTraitSet traitSet, RelNode input, ImmutableBitSet groupSet,
            @Nullable List<ImmutableBitSet> groupSets, List<AggregateCall> aggCalls) {
        return new DistinctAggregateCandidate(getCluster(), traitSet, getHints(), input, groupSet, groupSets, aggCalls);
    }

    @Override
    public @Nullable RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return planner.getCostFactory().makeInfiniteCost();
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        throw new IllegalStateException("a DISTINCT aggregate that did not become a VectorizedAggregate cannot run: "
                + this);
    }
}
