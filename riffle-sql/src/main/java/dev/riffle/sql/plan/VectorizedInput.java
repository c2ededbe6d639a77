package dev.riffle.sql.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;

/**
 * What a vectorized operator reads from each batch of its scan, when Calcite put a {@code Filter}
 * (a condition the scan did not take) and/or a {@code Project} (computed columns) between the two:
 * the condition as a {@link VectorCondition}, the columns as {@link VectorExpression}s (the scan's
 * own columns when there is no projection). Made only when every part is computed on the batches
 * ({@code VectorizedInputShapes.between} in the planner); otherwise the operator stays Calcite's.
 *
 * <pre>{@code
 * // call.rels: Aggregate, Project, Filter, FlussScan
 * Optional<VectorizedInput> input = VectorizedInputShapes.between(List.of(call.rel(1), call.rel(2)), scan);
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
}
