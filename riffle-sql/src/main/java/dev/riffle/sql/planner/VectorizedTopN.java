package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.VectorizedTopNExecutor;
import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.plan.TopNPlan;
import dev.riffle.sql.plan.VectorizedInput;
import java.util.List;
import org.apache.calcite.plan.RelTraitSet;
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
public final class VectorizedTopN extends VectorizedScanOperator {
    private final VectorizedInput input;
    private final TopNPlan topN;

    /**
     * @param input what the top-N reads from each batch of the scan
     * @param rowType the sort's row type: the input's columns
     */
    VectorizedTopN(FlussScan scan, VectorizedInput input, TopNPlan topN, RelDataType rowType, RelTraitSet sortTraits) {
        super(scan, sortTraits, rowType);
        this.input = requireNonNull(input, "input is null");
        this.topN = requireNonNull(topN, "topN is null");
    }

    private VectorizedTopN(VectorizedTopN other, RelTraitSet traits) {
        super(other, traits);
        this.input = other.input;
        this.topN = other.topN;
    }

    public TopNPlan topN() {
        return topN;
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return traitSet.equals(getTraitSet()) ? this : new VectorizedTopN(this, traitSet);
    }

    @Override
    protected RelWriter explainOperator(RelWriter pw) {
        List<String> columns = scan().getRowType().getFieldNames();
        return explainFilter(pw, input)
                .itemIf("computes", input.columns().stream().map(column -> column.describe(columns)).toList(),
                        !input.scanColumns())
                .item("topN", topN.describe(getRowType().getFieldNames()));
    }

    @Override
    public double estimateRowCount(RelMetadataQuery mq) {
        return topN.fetch().isParameter() ? 100 : Math.min(((Number) topN.fetch().literal()).doubleValue(),
                scan().estimateRowCount(mq));
    }

    @Override
    protected Object executor() {
        return new VectorizedTopNExecutor(flussTable().session(), plan(), input, topN);
    }
}
