package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.VectorizedAggregateExecutor;
import dev.riffle.sql.plan.AggregatePlan;
import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.plan.VectorCondition;
import dev.riffle.sql.plan.VectorExpression;
import dev.riffle.sql.plan.VectorizedInput;
import java.util.List;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A hash aggregate computed on the Arrow batches of one Fluss read ({@link AggregatePlan} over a
 * {@link ReadPlan}), without turning them into rows: the read's columns, and expressions computed
 * from them a batch at a time ({@link VectorExpression}), are aggregated vector by vector
 * ({@link VectorizedAggregateExecutor}), and only the groups become Calcite rows. It stands for
 * {@code Aggregate over [Project over] [Filter over] FlussScan} ({@link VectorizedAggregateRule}),
 * checking a condition the scan did not take on the batches too ({@link VectorCondition}); EXPLAIN
 * shows it as {@code VectorizedAggregate}, with the condition and the expressions it computes, so
 * where vectorized execution ends is visible:
 *
 * <pre>{@code
 * EnumerableSort(sort0=[$2], dir0=[DESC])          <- Calcite, row at a time
 *   VectorizedAggregate(table=[[shop, orders]], access=[LogScan], aggregate=[group [k] aggregates [COUNT(*), SUM(price * qty)]])
 * }</pre>
 */
public final class VectorizedAggregate extends VectorizedScanOperator {
    private final VectorizedInput input;
    private final AggregatePlan aggregate;

    /** @param input what the aggregate reads from each batch of the scan */
    VectorizedAggregate(FlussScan scan, VectorizedInput input, AggregatePlan aggregate, RelDataType rowType,
            RelTraitSet traits) {
        super(scan, traits, rowType);
        this.input = requireNonNull(input, "input is null");
        this.aggregate = requireNonNull(aggregate, "aggregate is null");
    }

    private VectorizedAggregate(VectorizedAggregate other, RelTraitSet traits) {
        super(other, traits);
        this.input = other.input;
        this.aggregate = other.aggregate;
    }

    public AggregatePlan aggregate() {
        return aggregate;
    }

    /** This aggregate, handing on only the groups that meet {@code conditions} too ({@link VectorizedHavingRule}). */
    VectorizedAggregate having(List<AggregatePlan.GroupCondition> conditions) {
        return new VectorizedAggregate(scan(), input, aggregate.having(conditions), getRowType(), getTraitSet());
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return traitSet.equals(getTraitSet()) ? this : new VectorizedAggregate(this, traitSet);
    }

    @Override
    protected RelWriter explainOperator(RelWriter pw) {
        List<String> columns = scan().getRowType().getFieldNames();
        return explainFilter(pw, input).item("aggregate",
                aggregate.describe(input.columns().stream().map(column -> column.describe(columns)).toList()));
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return aggregate.groupColumns().isEmpty() ? 1 : 100;
    }

    @Override
    protected Object executor() {
        return new VectorizedAggregateExecutor(flussTable().session(), plan(), input, aggregate);
    }
}
