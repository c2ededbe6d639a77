package dev.riffle.sql.planner;

import java.util.List;
import org.apache.calcite.plan.RelOptLattice;
import org.apache.calcite.plan.RelOptMaterialization;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.plan.RelTraitSet;
import org.apache.calcite.plan.hep.HepMatchOrder;
import org.apache.calcite.plan.hep.HepProgramBuilder;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.metadata.DefaultRelMetadataProvider;
import org.apache.calcite.rel.rules.CoreRules;
import org.apache.calcite.rel.rules.JoinPushThroughJoinRule;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.tools.Program;
import org.apache.calcite.tools.Programs;

/**
 * Orders the joins of a statement over many tables by their join conditions before the
 * cost-based planner sees them. Calcite's planner keeps the FROM clause's order of a comma join
 * ({@code FROM t61, t17, t43, ... WHERE a53 = b61 AND ...}), joining tables that share no
 * condition as cross products whose rows multiply (a 17-table query of ten-row tables held
 * millions of rows, and stopped at the statement's budget). Here the WHERE clause's conditions go
 * into the joins, the joins become one multi-way join, and Calcite's heuristic join ordering
 * ({@code LoptOptimizeJoinRule}) rebuilds it so that each table joins one it has a condition with.
 * Statements of fewer joins, and those with subqueries (which later phases rewrite into joins of
 * their own), are left as they are.
 *
 * <pre>{@code
 * Program program = Programs.sequence(JoinOrderProgram.INSTANCE, Programs.standard());
 * }</pre>
 */
public final class JoinOrderProgram implements Program {
    public static final JoinOrderProgram INSTANCE = new JoinOrderProgram();

    /** Joins from which the order is decided here: four tables and more. */
    static final int MIN_JOINS = 3;

    private static final Program REORDER = Programs.of(new HepProgramBuilder()
            .addRuleInstance(CoreRules.FILTER_INTO_JOIN)
            .addMatchOrder(HepMatchOrder.BOTTOM_UP)
            .addRuleInstance(CoreRules.JOIN_TO_MULTI_JOIN)
            .addRuleInstance(CoreRules.MULTI_JOIN_OPTIMIZE)
            .build(), true, DefaultRelMetadataProvider.INSTANCE);

    private static final List<RelOptRule> EXHAUSTIVE = List.of(CoreRules.JOIN_COMMUTE, CoreRules.JOIN_COMMUTE_OUTER,
            CoreRules.JOIN_ASSOCIATE, JoinPushThroughJoinRule.LEFT, JoinPushThroughJoinRule.RIGHT);

    private JoinOrderProgram() {}

    @Override
    public RelNode run(RelOptPlanner planner, RelNode rel, RelTraitSet requiredOutputTraits,
            List<RelOptMaterialization> materializations, List<RelOptLattice> lattices) {
        if (RelOptUtil.countJoins(rel) < MIN_JOINS || hasSubQuery(rel)) {
            return rel;
        }
        // The order is decided: the cost-based planner's rules that try every other one (their search
        // grows exponentially with the joins, seconds for a dozen) go, as in Calcite's own heuristic order.
        EXHAUSTIVE.forEach(planner::removeRule);
        return REORDER.run(planner, rel, requiredOutputTraits, materializations, lattices);
    }

    /** Whether a filter, projection or join condition of {@code rel} holds a subquery. */
    static boolean hasSubQuery(RelNode rel) {
        boolean[] found = new boolean[1];
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                if (node instanceof Filter filter && RexUtil.SubQueryFinder.containsSubQuery(filter)
                        || node instanceof Project project && RexUtil.SubQueryFinder.containsSubQuery(project)
                        || node instanceof Join join && RexUtil.SubQueryFinder.containsSubQuery(join)) {
                    found[0] = true;
                    return;
                }
                super.visit(node, ordinal, parent);
            }
        }.go(rel);
        return found[0];
    }
}
