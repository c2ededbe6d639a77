package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.VectorizedAggregateExecutor;
import java.util.List;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

/**
 * A hash aggregate computed on the Arrow batches of one Fluss read ({@link AggregatePlan} over a
 * {@link ReadPlan}), without turning them into rows: the read's columns are aggregated vector by
 * vector ({@link VectorizedAggregateExecutor}), and only the groups become Calcite rows. It stands
 * for {@code Aggregate over FlussScan} ({@link VectorizedAggregateRule}); EXPLAIN shows it as
 * {@code VectorizedAggregate}, so where vectorized execution ends is visible:
 *
 * <pre>{@code
 * EnumerableSort(sort0=[$2], dir0=[DESC])          <- Calcite, row at a time
 *   VectorizedAggregate(table=[[shop, orders]], access=[LogScan], aggregate=[group [k] aggregates [COUNT(*), SUM(v)]])
 * }</pre>
 */
public final class VectorizedAggregate extends VectorizedScanOperator {
    private final AggregatePlan aggregate;

    VectorizedAggregate(FlussScan scan, AggregatePlan aggregate, RelDataType rowType, RelTraitSet traits) {
        super(scan, traits, rowType);
        this.aggregate = requireNonNull(aggregate, "aggregate is null");
    }

    private VectorizedAggregate(VectorizedAggregate other, RelTraitSet traits) {
        super(other, traits);
        this.aggregate = other.aggregate;
    }

    public AggregatePlan aggregate() {
        return aggregate;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return traitSet.equals(getTraitSet()) ? this : new VectorizedAggregate(this, traitSet);
    }

    @Override
    protected RelWriter explainOperator(RelWriter pw) {
        return pw.item("aggregate", aggregate.describe(scan().getRowType().getFieldNames()));
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return aggregate.groupColumns().isEmpty() ? 1 : 100;
    }

    @Override
    protected Object executor() {
        return new VectorizedAggregateExecutor(flussTable().session(), plan(), aggregate);
    }
}
