package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.catalog.FlussTable;
import dev.riffle.sql.exec.VectorizedAggregateExecutor;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.linq4j.tree.Blocks;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.AbstractRelNode;
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
public final class VectorizedAggregate extends AbstractRelNode implements EnumerableRel {
    /** The read it aggregates (not an input: it is read here, not planned further). */
    private final FlussScan scan;
    private final RelOptTable table;
    private final FlussTable flussTable;
    private final ReadPlan plan;
    private final List<String> scanColumns;
    private final AggregatePlan aggregate;

    VectorizedAggregate(FlussScan scan, AggregatePlan aggregate, RelDataType rowType, RelTraitSet traits) {
        super(scan.getCluster(), traits.replace(EnumerableConvention.INSTANCE));
        this.scan = scan;
        this.table = scan.getTable();
        this.flussTable = scan.flussTable();
        this.plan = scan.plan();
        this.scanColumns = scan.getRowType().getFieldNames();
        this.aggregate = requireNonNull(aggregate, "aggregate is null");
        this.rowType = requireNonNull(rowType, "rowType is null");
    }

    private VectorizedAggregate(VectorizedAggregate other, RelTraitSet traits) {
        super(other.getCluster(), traits);
        this.scan = other.scan;
        this.table = other.table;
        this.flussTable = other.flussTable;
        this.plan = other.plan;
        this.scanColumns = other.scanColumns;
        this.aggregate = other.aggregate;
        this.rowType = other.rowType;
    }

    /** What is read. */
    public ReadPlan plan() {
        return plan;
    }

    public AggregatePlan aggregate() {
        return aggregate;
    }

    @Override
    public RelOptTable getTable() {
        return table;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return traitSet.equals(getTraitSet()) ? this : new VectorizedAggregate(this, traitSet);
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        List<String> names = table.getRowType().getFieldNames();
        return super.explainTerms(pw)
                .item("table", table.getQualifiedName())
                .item("access", plan.describe())
                .item("columns", plan.columns().stream().map(names::get).toList())
                .item("aggregate", aggregate.describe(scanColumns));
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return aggregate.groupColumns().isEmpty() ? 1 : 100;
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        // Cheaper than the scan alone, so that it wins over any Aggregate above that scan; narrower reads stay cheaper.
        return scan.computeSelfCost(planner, mq).multiplyBy(0.5);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        Expression executor = implementor.stash(new VectorizedAggregateExecutor(flussTable.session(), plan, aggregate),
                VectorizedAggregateExecutor.class);
        return implementor.result(physType,
                Blocks.toBlock(Expressions.call(executor, "enumerable", DataContext.ROOT)));
    }
}
