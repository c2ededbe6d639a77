package dev.riffle.sql.planner;

import static dev.riffle.sql.exec.GuardedEnumerable.GROUPS;
import static dev.riffle.sql.exec.GuardedEnumerable.HELD;
import static dev.riffle.sql.exec.GuardedEnumerable.JOIN_OUTPUT;
import static dev.riffle.sql.exec.GuardedEnumerable.ROOT;

import dev.riffle.sql.exec.GuardedEnumerable;
import dev.riffle.sql.statement.ExecutionGuard;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.EnumerableHashJoin;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRelImplementor;
import org.apache.calcite.adapter.enumerable.EnumerableSortedAggregate;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.rel.SingleRel;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.Collect;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.SetOp;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * An edge of a plan checked by the execution's {@link ExecutionGuard}: its input's rows, passed on
 * as they are, each one first asking whether the statement may go on and counted toward the
 * budget its edge stands for. {@link #everyEdgeOf} puts one on every edge between two of the
 * plan's operators and above its root once planning is done, so no loop of Calcite's operators
 * (a nested-loop join's pairs, an aggregate folding a join's output, a sort taking its input) runs
 * long without a check: a statement stops within milliseconds of its deadline or a cancel, and
 * at the budget of what it builds.
 *
 * <pre>{@code
 * RelNode plan = GuardedInput.everyEdgeOf(root.rel);   // EnumerableAggregate -> GuardedInput[groups] -> EnumerableNestedLoopJoin ...
 * }</pre>
 */
public final class GuardedInput extends SingleRel implements EnumerableRel {
    private final int roles;
    private final long heldCap;

    private GuardedInput(RelNode input, int roles, long heldCap) {
        super(input.getCluster(), input.getTraitSet(), input);
        this.roles = roles;
        this.heldCap = heldCap;
    }

    /** {@code plan} with a guard on every edge between two enumerable operators, and above its root. */
    public static RelNode everyEdgeOf(RelNode plan) {
        RelNode guarded = guardInputs(plan);
        return guarded instanceof EnumerableRel ? new GuardedInput(guarded, ROOT | producedBy(guarded), Long.MAX_VALUE)
                : guarded;
    }

    /**
     * {@code plan} as it was planned, without its guards: for what reads a plan's shape while it is
     * implemented (a write's input, to find the exact values it takes).
     */
    public static RelNode strip(RelNode plan) {
        if (plan instanceof GuardedInput guarded) {
            return strip(guarded.getInput());
        }
        List<RelNode> inputs = plan.getInputs();
        List<RelNode> stripped = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (RelNode input : inputs) {
            RelNode plain = strip(input);
            changed |= plain != input;
            stripped.add(plain);
        }
        return changed ? plan.copy(plan.getTraitSet(), stripped) : plan;
    }

    private static RelNode guardInputs(RelNode node) {
        List<RelNode> inputs = node.getInputs();
        if (inputs.isEmpty() || node instanceof GuardedInput) {
            return node;
        }
        List<RelNode> guarded = new ArrayList<>(inputs.size());
        boolean changed = false;
        for (int i = 0; i < inputs.size(); i++) {
            RelNode input = guardInputs(inputs.get(i));
            if (node instanceof EnumerableRel && input instanceof EnumerableRel) {
                input = new GuardedInput(input, consumedAs(node, i) | producedBy(input), heldCap(node));
            }
            changed |= input != inputs.get(i);
            guarded.add(input);
        }
        return changed ? node.copy(node.getTraitSet(), guarded) : node;
    }

    /** What the rows of {@code node}'s input {@code i} count toward because of what {@code node} does with them. */
    private static int consumedAs(RelNode node, int i) {
        if (node instanceof EnumerableSortedAggregate) {
            return 0; // its input comes sorted: it holds one group at a time
        }
        if (node instanceof Aggregate) {
            return GROUPS;
        }
        if (node instanceof Sort || node instanceof Window || node instanceof Collect || node instanceof MaterializedInput) {
            return HELD;
        }
        if (node instanceof SetOp setOp && !setOp.all) {
            return HELD; // UNION, INTERSECT and EXCEPT keep a set of the rows seen
        }
        if (node instanceof EnumerableHashJoin && i == 1) {
            return HELD; // the build side, looked up by key
        }
        return 0;
    }

    /** What the rows {@code input} produces count toward because of what it is. */
    private static int producedBy(RelNode input) {
        return input instanceof Join || input instanceof Correlate ? JOIN_OUTPUT : 0;
    }

    /** The most rows of an input {@code node} holds: a top-N keeps its offset plus fetch at most. */
    private static long heldCap(RelNode node) {
        if (node instanceof Sort sort && sort.fetch != null) {
            long offset = sort.offset == null ? 0 : literal(sort.offset);
            long fetch = literal(sort.fetch);
            return offset < 0 || fetch < 0 ? Long.MAX_VALUE : Math.max(0, offset + fetch);
        }
        return Long.MAX_VALUE;
    }

    private static long literal(RexNode node) {
        if (node instanceof RexLiteral literal) {
            Long value = literal.getValueAs(Long.class);
            if (value != null && value >= 0) {
                return value;
            }
        }
        return -1; // a parameter: not known when planning
    }

    @Override
    public RelNode copy(RelTraitSet traitSet, List<RelNode> inputs) {
        return new GuardedInput(sole(inputs), roles, heldCap);
    }

    @Override
    public RelWriter explainTerms(RelWriter pw) {
        return super.explainTerms(pw).item("roles", roles).itemIf("heldCap", heldCap, heldCap != Long.MAX_VALUE);
    }

    @Override
    public Result implement(EnumerableRelImplementor implementor, Prefer pref) {
        BlockBuilder builder = new BlockBuilder();
        Result input = implementor.visitChild(this, 0, (EnumerableRel) getInput(), pref);
        Expression rows = builder.append("rows", input.block);
        builder.add(Expressions.return_(null, Expressions.call(GuardedEnumerable.class, "watch", DataContext.ROOT, rows,
                Expressions.constant(roles), Expressions.constant(heldCap))));
        return implementor.result(input.physType, builder.toBlock());
    }
}
