package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
        for (int i = 0; i < columns.size(); i++) {
            if (!(columns.get(i) instanceof VectorExpression.Column column) || column.index() != i) {
                return false;
            }
        }
        return true;
    }
}
