package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.catalog.FlussTable;
import dev.riffle.sql.exec.VectorizedTopNExecutor;
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
 * {@code ORDER BY ... LIMIT} computed on the Arrow batches of one Fluss read ({@link TopNPlan} over
 * a {@link ReadPlan}): each batch's rows are compared by their sort-key vectors against the rows
 * kept so far, and only a row that enters the top becomes a Calcite row
 * ({@link VectorizedTopNExecutor}). It stands for {@code Sort(fetch) over FlussScan}
 * ({@link VectorizedTopNRule}) and carries the sort's collation; EXPLAIN shows it as
 * {@code VectorizedTopN}, so where vectorized execution ends is visible:
 *
 * <pre>{@code
 * EnumerableCalc(expr#0..1=[{inputs}], expr#2=[*($t1, 2)], ...)     <- Calcite, row at a time
 *   VectorizedTopN(table=[[shop, orders]], access=[LogScan], topN=[order [amount DESC] fetch 10])
 * }</pre>
 */
public final class VectorizedTopN extends AbstractRelNode implements EnumerableRel {
    /** The read it orders (not an input: it is read here, not planned further). */
    private final FlussScan scan;
    private final RelOptTable table;
    private final FlussTable flussTable;
    private final ReadPlan plan;
    private final TopNPlan topN;

    VectorizedTopN(FlussScan scan, TopNPlan topN, RelTraitSet sortTraits) {
        super(scan.getCluster(), sortTraits.replace(EnumerableConvention.INSTANCE));
        this.scan = scan;
        this.table = scan.getTable();
        this.flussTable = scan.flussTable();
        this.plan = scan.plan();
        this.topN = requireNonNull(topN, "topN is null");
        this.rowType = scan.getRowType();
    }

    private VectorizedTopN(VectorizedTopN other, RelTraitSet traits) {
        super(other.getCluster(), traits);
        this.scan = other.scan;
        this.table = other.table;
        this.flussTable = other.flussTable;
        this.plan = other.plan;
        this.topN = other.topN;
        this.rowType = other.rowType;
    }

    /** What is read. */
    public ReadPlan plan() {
        return plan;
    }

    public TopNPlan topN() {
        return topN;
    }

    @Override
    public RelOptTable getTable() {
        return table;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return traitSet.equals(getTraitSet()) ? this : new VectorizedTopN(this, traitSet);
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
                .item("topN", topN.describe(rowType.getFieldNames()));
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return topN.fetch().isParameter() ? 100 : Math.min(((Number) topN.fetch().literal()).doubleValue(),
                scan.estimateRowCount(mq));
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        // Cheaper than the scan alone, so that it wins over any sort above that scan; narrower reads stay cheaper.
        return scan.computeSelfCost(planner, mq).multiplyBy(0.5);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        Expression executor = implementor.stash(new VectorizedTopNExecutor(flussTable.session(), plan, topN),
                VectorizedTopNExecutor.class);
        return implementor.result(physType,
                Blocks.toBlock(Expressions.call(executor, "enumerable", DataContext.ROOT)));
    }
}
