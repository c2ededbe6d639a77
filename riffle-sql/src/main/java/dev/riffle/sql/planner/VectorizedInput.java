package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexNode;

/**
 * What a vectorized operator reads from each batch of its scan, when Calcite put a {@code Filter}
 * (a condition the scan did not take) and/or a {@code Project} (computed columns) between the two:
 * the condition as a {@link VectorCondition}, the columns as {@link VectorExpression}s (the scan's
 * own columns when there is no projection). Made only when every part is computed on the batches
 * ({@link #between}); otherwise the operator stays Calcite's.
 *
 * <pre>{@code
 * // call.rels: Aggregate, Project, Filter, FlussScan
 * Optional<VectorizedInput> input = VectorizedInput.between(List.of(call.rel(1), call.rel(2)), scan);
 * }</pre>
 *
 * @param residual the condition on the scan's rows, checked before the columns are computed
 * @param columns the operator's input columns, computed from the kept rows
 */
public record VectorizedInput(Optional<VectorCondition> residual, List<VectorExpression> columns) {

    public VectorizedInput {
        requireNonNull(residual, "residual is null");
        columns = List.copyOf(columns);
    }

    /**
     * The input of an operator over {@code between} (top down: at most a {@code Project}, then at
     * most a {@code Filter}) over {@code scan}.
     */
    public static Optional<VectorizedInput> between(List<RelNode> between, FlussScan scan) {
        requireNonNull(scan, "scan is null");
        Optional<VectorCondition> residual = Optional.empty();
        Optional<Project> project = Optional.empty();
        for (RelNode rel : between) {
            if (rel instanceof Filter filter) {
                residual = VectorCondition.of(filter.getCondition(), filter.getCluster().getRexBuilder());
                if (residual.isEmpty()) {
                    return Optional.empty();
                }
            } else if (rel instanceof Project projection) {
                project = Optional.of(projection);
            } else {
                return Optional.empty();
            }
        }
        List<VectorExpression> columns = new ArrayList<>();
        if (project.isPresent()) {
            for (RexNode expression : project.get().getProjects()) {
                Optional<VectorExpression> column = VectorExpression.of(expression);
                if (column.isEmpty()) {
                    return Optional.empty();
                }
                columns.add(column.get());
            }
        } else {
            List<RelDataTypeField> fields = scan.getRowType().getFieldList();
            for (int i = 0; i < fields.size(); i++) {
                columns.add(new VectorExpression.Column(i, fields.get(i).getType().getSqlTypeName()));
            }
        }
        return Optional.of(new VectorizedInput(residual, columns));
    }

    /** Whether the columns are the scan's own, in order. */
    public boolean scanColumns() {
        return scanColumnsInOrder(columns);
    }

    /** Whether {@code columns} are the scan's columns {@code 0, 1, ...} as they are. */
    public static boolean scanColumnsInOrder(List<VectorExpression> columns) {
        for (int i = 0; i < columns.size(); i++) {
            if (!(columns.get(i) instanceof VectorExpression.Column column) || column.index() != i) {
                return false;
            }
        }
        return true;
    }

    /**
     * The input of the operator a rule matched: the rels of {@code call} from {@code first} up to
     * the scan, which is the last.
     */
    static Optional<VectorizedInput> of(RelOptRuleCall call, int first) {
        List<RelNode> between = new ArrayList<>();
        for (int i = first; i < call.rels.length - 1; i++) {
            between.add(call.rel(i));
        }
        return between(between, call.rel(call.rels.length - 1));
    }

    /** One operand tree a rule can match under its operator, and its name for the rule's description. */
    record Shape(String name, RelOptRuleOperand operand) {}

    /**
     * The inputs a vectorized operator is matched over: the scan, a projection of it, a condition
     * over it, a projection of such a condition. New operands each call (a rule owns its operands).
     */
    @SuppressWarnings("deprecation")
    static List<Shape> shapes() {
        return List.of(
                new Shape("scan", scan()),
                new Shape("project", RelOptRule.operand(Project.class, scan())),
                new Shape("filter", RelOptRule.operand(Filter.class, scan())),
                new Shape("project over filter",
                        RelOptRule.operand(Project.class, RelOptRule.operand(Filter.class, scan()))));
    }

    @SuppressWarnings("deprecation")
    private static RelOptRuleOperand scan() {
        return RelOptRule.operand(FlussScan.class, RelOptRule.none());
    }
}
