package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.catalog.FlussTable;
import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.plan.VectorizedInput;
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
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;

/**
 * An operator computed on the Arrow batches of one Fluss read, standing in for itself and the
 * {@link FlussScan} under it ({@link VectorizedAggregate}, {@link VectorizedTopN}). The scan is
 * kept, not an input: it is read here, not planned further. EXPLAIN shows the table, the access
 * path and the columns read, then what the operator computes; its cost is half its scan's, so it
 * wins over Calcite's operator over that scan while narrower reads stay cheaper. Its rows come from
 * the {@link #executor()} the generated code calls {@code enumerable(DataContext)} on.
 */
public abstract class VectorizedScanOperator extends AbstractRelNode implements EnumerableRel {
    private final FlussScan scan;
    private final RelOptTable table;
    private final FlussTable flussTable;
    private final ReadPlan plan;

    protected VectorizedScanOperator(FlussScan scan, RelTraitSet traits, RelDataType rowType) {
        super(scan.getCluster(), traits.replace(EnumerableConvention.INSTANCE));
        this.scan = scan;
        this.table = scan.getTable();
        this.flussTable = scan.flussTable();
        this.plan = scan.plan();
        this.rowType = requireNonNull(rowType, "rowType is null");
    }

    /** The same operator with other traits. */
    protected VectorizedScanOperator(VectorizedScanOperator other, RelTraitSet traits) {
        super(other.getCluster(), traits);
        this.scan = other.scan;
        this.table = other.table;
        this.flussTable = other.flussTable;
        this.plan = other.plan;
        this.rowType = other.rowType;
    }

    /** What is read. */
    public ReadPlan plan() {
        return plan;
    }

    /** The read's own scan, for what the operator knows of it (its row type, its row estimate). */
    protected FlussScan scan() {
        return scan;
    }

    protected FlussTable flussTable() {
        return flussTable;
    }

    @Override
    public RelOptTable getTable() {
        return table;
    }

    @Override
    protected RelDataType deriveRowType() {
        return rowType;
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        List<String> names = table.getRowType().getFieldNames();
        return explainOperator(super.explainTerms(pw)
                .item("table", table.getQualifiedName())
                .item("access", plan.describe())
                .item("columns", plan.columns().stream().map(names::get).toList()));
    }

    /** The residual condition the operator checks on the batches, if it has one, on its EXPLAIN line. */
    protected RelWriter explainFilter(RelWriter pw, VectorizedInput input) {
        List<String> names = scan.getRowType().getFieldNames();
        return pw.itemIf("filter", input.residual().map(condition -> condition.describe(names)).orElse(""),
                input.residual().isPresent());
    }

    /** Adds what the operator computes to its EXPLAIN line. */
    protected abstract RelWriter explainOperator(RelWriter pw);

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        return scan.computeSelfCost(planner, mq).multiplyBy(0.5);
    }

    /** What computes the rows: an object with a public {@code Enumerable<Object> enumerable(DataContext)}. */
    protected abstract Object executor();

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        Object executor = executor();
        @SuppressWarnings("unchecked")
        Class<Object> type = (Class<Object>) executor.getClass();
        Expression stashed = implementor.stash(executor, type);
        return implementor.result(physType,
                Blocks.toBlock(Expressions.call(stashed, "enumerable", DataContext.ROOT)));
    }
}
