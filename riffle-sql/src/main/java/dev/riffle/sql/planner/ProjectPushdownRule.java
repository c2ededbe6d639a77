package dev.riffle.sql.planner;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.tools.RelBuilder;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Reads only the columns a query uses: {@code Project over FlussScan} (and
 * {@code Project over Filter over FlussScan}) narrows the scan's columns, which Fluss then
 * projects on the server (ARROW log format) and the lake reads column by column. A project of
 * plain distinct columns disappears into the scan; computed expressions stay above it.
 */
public final class ProjectPushdownRule extends RelOptRule {
    public static final ProjectPushdownRule PROJECT = new ProjectPushdownRule(false);
    public static final ProjectPushdownRule PROJECT_FILTER = new ProjectPushdownRule(true);

    private final boolean throughFilter;

    @SuppressWarnings("deprecation")
    private ProjectPushdownRule(boolean throughFilter) {
        super(throughFilter
                ? operand(Project.class, operand(Filter.class, operand(FlussScan.class, none())))
                : operand(Project.class, operand(FlussScan.class, none())),
                throughFilter ? "ProjectFilterPushdownRule" : "ProjectPushdownRule");
        this.throughFilter = throughFilter;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Project project = call.rel(0);
        Filter filter = throughFilter ? call.rel(1) : null;
        FlussScan scan = call.rel(throughFilter ? 2 : 1);
        List<Integer> current = scan.plan().columns();

        // Plain distinct column references: the scan returns exactly them, in that order.
        if (!throughFilter && plainDistinctRefs(project.getProjects())) {
            List<Integer> columns = new ArrayList<>();
            for (RexNode node : project.getProjects()) {
                columns.add(current.get(((RexInputRef) node).getIndex()));
            }
            if (columns.equals(current)) {
                return; // nothing to narrow; Calcite removes a trivial project itself
            }
            FlussScan narrowed = scan.withPlan(scan.plan().withColumns(columns));
            RelBuilder builder = call.builder().push(narrowed);
            builder.project(builder.fields(), project.getRowType().getFieldNames(), false);
            call.transformTo(builder.build());
            return;
        }

        ImmutableBitSet used = RelOptUtilHolder.inputs(project.getProjects(), filter);
        if (used.cardinality() >= current.size()) {
            return;
        }
        List<Integer> columns = new ArrayList<>();
        int[] newIndex = new int[current.size()];
        for (int old : used) {
            newIndex[old] = columns.size();
            columns.add(current.get(old));
        }
        if (columns.isEmpty()) {
            // count(*) and the like: Fluss fetches at least one column; the narrowest costs least.
            columns.add(scan.narrowestColumn());
        }
        RexShuttle remap = new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                return new RexInputRef(newIndex[ref.getIndex()], ref.getType());
            }
        };
        FlussScan narrowed = scan.withPlan(scan.plan().withColumns(columns));
        RelBuilder builder = call.builder().push(narrowed);
        if (filter != null) {
            builder.filter(filter.getCondition().accept(remap));
        }
        List<RexNode> projects = new ArrayList<>();
        for (RexNode node : project.getProjects()) {
            projects.add(node.accept(remap));
        }
        builder.project(projects, project.getRowType().getFieldNames(), false);
        call.transformTo(builder.build());
    }

    private static boolean plainDistinctRefs(List<RexNode> projects) {
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (RexNode node : projects) {
            if (!(node instanceof RexInputRef ref) || !seen.add(ref.getIndex())) {
                return false;
            }
        }
        return !projects.isEmpty();
    }

    /** The input columns that projects and an optional filter read. */
    private static final class RelOptUtilHolder {
        static ImmutableBitSet inputs(List<RexNode> projects, Filter filter) {
            ImmutableBitSet.Builder bits = ImmutableBitSet.builder();
            bits.addAll(org.apache.calcite.plan.RelOptUtil.InputFinder.bits(projects, null));
            if (filter != null) {
                bits.addAll(org.apache.calcite.plan.RelOptUtil.InputFinder.bits(filter.getCondition()));
            }
            return bits.build();
        }
    }
}
