package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.plan.VectorCondition;
import dev.riffle.sql.plan.VectorExpression;
import dev.riffle.sql.plan.VectorizedInput;
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
 * The inputs a vectorized operator is planned over (a {@link FlussScan}, under at most a
 * {@code Filter} and a {@code Project}), and the {@link VectorizedInput} each one computes: the
 * rule side of the plan's value type.
 *
 * <pre>{@code
 * Optional<VectorizedInput> input = VectorizedInputShapes.of(call, 1);
 * }</pre>
 */
final class VectorizedInputShapes {
    private VectorizedInputShapes() {}

    /**
     * The input of an operator over {@code between} (top down: at most a {@code Project}, then at
     * most a {@code Filter}) over {@code scan}.
     */
    static Optional<VectorizedInput> between(List<RelNode> between, FlussScan scan) {
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
