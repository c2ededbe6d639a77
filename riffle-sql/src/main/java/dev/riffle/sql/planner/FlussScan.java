package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.catalog.FlussRootSchema;
import dev.riffle.sql.catalog.FlussTable;
import dev.riffle.sql.exec.ScanExecutor;
import dev.riffle.sql.plan.ReadPlan;
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
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelOptCost;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.prepare.CalciteCatalogReader;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.core.TableScan;
import org.apache.calcite.rel.metadata.RelMetadataQuery;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * The scan of one Fluss table by one {@link ReadPlan}, in the enumerable convention: its rows come
 * from {@link ScanExecutor}. Rules ({@link FlussRules}) narrow the plan; EXPLAIN shows the access
 * path and the columns read.
 */
public final class FlussScan extends TableScan implements EnumerableRel {
    /** The row count the planner assumes for a full read (Fluss has no row statistics). */
    private static final double FULL_SCAN_ROWS = 100_000;

    private final FlussTable flussTable;
    private final ReadPlan plan;

    private FlussScan(RelOptCluster cluster, RelTraitSet traits, RelOptTable table, FlussTable flussTable,
            ReadPlan plan) {
        super(cluster, traits, List.of(), table);
        this.flussTable = requireNonNull(flussTable, "flussTable is null");
        this.plan = requireNonNull(plan, "plan is null");
    }

    /**
     * Makes the full scan of a {@link FlussTable} that planning starts from: what a connection
     * gives its catalog, which does not know the planner's relational expressions.
     */
    public static final RelFactories.TableScanFactory TABLES = (context, table) -> {
        FlussTable fluss = requireNonNull(table.unwrap(FlussTable.class), "not a Fluss table");
        return create(context.getCluster(), table, fluss,
                ReadPlan.scan(fluss.info(), fluss.source(), table.getRowType().getFieldCount()));
    };

    public static FlussScan create(RelOptCluster cluster, RelOptTable table, FlussTable flussTable, ReadPlan plan) {
        return new FlussScan(cluster, cluster.traitSetOf(EnumerableConvention.INSTANCE), table, flussTable, plan);
    }

    public ReadPlan plan() {
        return plan;
    }

    public FlussTable flussTable() {
        return flussTable;
    }

    /** The same scan with another plan. */
    public FlussScan withPlan(ReadPlan newPlan) {
        return new FlussScan(getCluster(), getTraitSet(), getTable(), flussTable, newPlan);
    }

    /**
     * Whether operators over this scan may run on its Arrow batches ({@link VectorizedAggregate},
     * {@link VectorizedTopN}): the connection's setting (the driver's {@code vectorized}), read
     * through the catalog the table comes from.
     */
    boolean vectorizedExecution() {
        return getTable().getRelOptSchema() instanceof CalciteCatalogReader catalog
                && catalog.getRootSchema().schema instanceof FlussRootSchema root && root.vectorized();
    }

    /**
     * Of the columns this scan reads, the cheapest to fetch and decode: the narrowest fixed width,
     * text, bytes and nested values last. What a read that needs no column ({@code count(*)})
     * reads, since Fluss fetches at least one; the first of equals, so plans stay stable.
     */
    int narrowestColumn() {
        List<RelDataTypeField> fields = table.getRowType().getFieldList();
        int narrowest = plan.columns().get(0);
        for (int column : plan.columns()) {
            if (fetchWidth(fields.get(column).getType()) < fetchWidth(fields.get(narrowest).getType())) {
                narrowest = column;
            }
        }
        return narrowest;
    }

    /** Bytes a value of {@code type} takes in an Arrow batch, roughly; variable widths count as wide. */
    private static int fetchWidth(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN, TINYINT -> 1;
            case SMALLINT -> 2;
            case INTEGER, REAL, DATE, TIME -> 4;
            case BIGINT, DOUBLE, FLOAT, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> 8;
            case DECIMAL -> 16;
            case CHAR, BINARY -> 16 + type.getPrecision();
            default -> 1_000;
        };
    }

    /** The SQL table's column names. */
    public List<String> tableColumns() {
        return table.getRowType().getFieldNames();
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new FlussScan(getCluster(), traitSet, getTable(), flussTable, plan);
    }

    @Override
    public RelDataType deriveRowType() {
        RelDataTypeFactory.Builder builder = getCluster().getTypeFactory().builder();
        List<RelDataTypeField> fields = table.getRowType().getFieldList();
        for (int column : plan.columns()) {
            builder.add(fields.get(column));
        }
        return builder.build();
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        List<String> names = tableColumns();
        return super.explainTerms(pw)
                .item("access", plan.describe())
                .item("columns", plan.columns().stream().map(names::get).toList());
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        double rows = FULL_SCAN_ROWS;
        if (plan.access() instanceof ReadPlan.Lookup lookup) {
            rows = lookup.keys().size();
        } else if (plan.access() instanceof ReadPlan.PrefixLookup) {
            rows = 100;
        }
        // each absorbed condition is assumed to keep a quarter of the rows, as Calcite guesses for filters
        rows *= Math.pow(0.25, plan.filters().size());
        if (plan.limit().isPresent()) {
            // a ? limit is unknown while planning; any limit makes the read small
            ReadPlan.KeyValue limit = plan.limit().get();
            rows = Math.min(rows, limit.isParameter() ? 100 : ((Number) limit.literal()).doubleValue());
        }
        return Math.max(rows, 1);
    }

    @Override
    public RelOptCost computeSelfCost(RelOptPlanner planner, RelMetadataQuery mq) {
        // Volcano compares row counts: fewer columns read must look cheaper, or projections would not be pushed.
        double width = (double) plan.columns().size() / table.getRowType().getFieldCount();
        double rows = estimateRowCount(mq) * (0.5 + 0.5 * width);
        return planner.getCostFactory().makeCost(rows, rows * plan.columns().size(), 0);
    }

    @Override
    public void register(RelOptPlanner planner) {
        FlussRules.register(planner);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        PhysType physType = PhysTypeImpl.of(implementor.getTypeFactory(), getRowType(), JavaRowFormat.ARRAY);
        Expression executor = implementor.stash(new ScanExecutor(flussTable.session(), plan), ScanExecutor.class);
        return implementor.result(physType,
                Blocks.toBlock(Expressions.call(executor, "enumerable", DataContext.ROOT)));
    }
}
