package dev.riffle.sql.planner;

import dev.riffle.sql.exec.ReplayedRows;
import java.util.List;
import org.apache.calcite.adapter.enumerable.EnumerableNestedLoopJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelOptCluster;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelShuttleImpl;
import org.apache.calcite.rel.SingleRel;

/**
 * Its input's rows, read once per execution and replayed ({@link ReplayedRows}). Calcite's
 * nested-loop join (a cross join, a join without an equality) enumerates its inner input once per
 * outer row, and an inner Fluss scan would read the table that many times; {@link #innersOf} puts
 * this above every such inner input once planning is done.
 *
 * <pre>{@code
 * RelNode plan = MaterializedInput.innersOf(root.rel);   // SELECT * FROM a, b reads b once
 * }</pre>
 */
public final class MaterializedInput extends SingleRel implements EnumerableRel {
    private MaterializedInput(RelOptCluster cluster, RelTraitSet traits, RelNode input) {
        super(cluster, traits, input);
    }

    /** {@code plan} with the inner input of each nested-loop join materialized. */
    public static RelNode innersOf(RelNode plan) {
        return plan.accept(new RelShuttleImpl() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode visited = super.visit(other);
                if (visited instanceof EnumerableNestedLoopJoin join && !(join.getRight() instanceof MaterializedInput)) {
                    RelNode right = join.getRight();
                    return join.copy(join.getTraitSet(), join.getCondition(), join.getLeft(),
                            new MaterializedInput(right.getCluster(), right.getTraitSet(), right), join.getJoinType(),
                            join.isSemiJoinDone());
                }
                return visited;
            }
        });
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new MaterializedInput(getCluster(), traitSet, sole(inputs));
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        BlockBuilder builder = new BlockBuilder();
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
        Expression rows = builder.append("rows", input.block);
        builder.add(Expressions.return_(null, Expressions.new_(ReplayedRows.class, rows)));
        return implementor.result(input.physType, builder.toBlock());
    }
}
