package dev.riffle.sql.planner;

import dev.riffle.sql.plan.ExactColumns;
import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Calc;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Union;
import org.apache.calcite.rel.core.Values;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;

/**
 * Finds the {@link ExactColumns} of a write's input plan: the literals and parameters of a
 * {@code VALUES} list, the key a point lookup finds, through projections and unions.
 *
 * <pre>{@code
 * ExactColumns exact = ExactColumnsFinder.of(input);
 * }</pre>
 */
final class ExactColumnsFinder {
    private ExactColumnsFinder() {}

    /** What {@code input} (a physical plan) is known to produce exactly. */
    static ExactColumns of(RelNode input) {
        if (input instanceof Values values) {
            List<Map<Integer, ReadPlan.KeyValue>> rows = new ArrayList<>();
            for (List<RexLiteral> tuple : values.getTuples()) {
                Map<Integer, ReadPlan.KeyValue> row = new HashMap<>();
                for (int i = 0; i < tuple.size(); i++) {
                    int column = i;
                    literal(tuple.get(i)).ifPresent(value -> row.put(column, value));
                }
                rows.add(row);
            }
            return new ExactColumns(Optional.of(rows), Map.of());
        }
        if (input instanceof FlussScan scan && scan.plan().access() instanceof ReadPlan.Lookup lookup
                && lookup.keys().size() == 1) {
            // the row a point lookup finds has the key it was looked up with, to the digit
            Map<Integer, ReadPlan.KeyValue> everyRow = new HashMap<>();
            List<String> names = scan.plan().table().getRowType().getFieldNames();
            for (int i = 0; i < lookup.keyColumns().size(); i++) {
                int position = scan.plan().columns().indexOf(names.indexOf(lookup.keyColumns().get(i)));
                if (position >= 0 && isTimestamp(scan.getRowType().getFieldList().get(position).getType())) {
                    everyRow.put(position, lookup.keys().get(0).get(i));
                }
            }
            return new ExactColumns(Optional.empty(), everyRow);
        }
        if (input instanceof Calc calc) {
            RexProgram program = calc.getProgram();
            if (program.getCondition() != null) {
                return ExactColumns.NONE;
            }
            return project(of(calc.getInput()), program.getProjectList().stream().map(program::expandLocalRef).toList());
        }
        if (input instanceof Project project) {
            return project(of(project.getInput()), project.getProjects());
        }
        if (input instanceof Union union && union.all) {
            List<Map<Integer, ReadPlan.KeyValue>> rows = new ArrayList<>();
            for (RelNode branch : union.getInputs()) {
                ExactColumns exact = of(branch);
                if (exact.rows().isEmpty()) {
                    return ExactColumns.NONE; // how many rows a branch has is known only at run time
                }
                for (int i = 0; i < exact.rows().get().size(); i++) {
                    rows.add(exact.row(i));
                }
            }
            return new ExactColumns(Optional.of(rows), Map.of());
        }
        return ExactColumns.NONE;
    }

    /** The exact columns of a projection of rows whose exact columns are {@code below}. */
    private static ExactColumns project(ExactColumns below, List<RexNode> expressions) {
        Map<Integer, ReadPlan.KeyValue> everyRow = new HashMap<>();
        Map<Integer, Integer> fromBelow = new HashMap<>();
        for (int column = 0; column < expressions.size(); column++) {
            int i = column;
            RexNode expression = expressions.get(i);
            if (!isTimestamp(expression.getType())) {
                continue;
            }
            RexNode value = uncast(expression);
            if (value instanceof RexDynamicParam param) {
                everyRow.put(i, ReadPlan.KeyValue.parameter(param.getIndex()));
            } else if (value instanceof RexLiteral literal) {
                literal(literal).ifPresent(exact -> everyRow.put(i, exact));
            } else if (value instanceof RexInputRef ref) {
                fromBelow.put(i, ref.getIndex());
            }
        }
        Map<Integer, ReadPlan.KeyValue> belowEveryRow = new HashMap<>();
        fromBelow.forEach((to, from) -> {
            if (below.everyRow().containsKey(from)) {
                belowEveryRow.put(to, below.everyRow().get(from));
            }
        });
        everyRow.putAll(belowEveryRow);
        if (below.rows().isEmpty()) {
            return new ExactColumns(Optional.empty(), everyRow);
        }
        List<Map<Integer, ReadPlan.KeyValue>> rows = new ArrayList<>();
        for (Map<Integer, ReadPlan.KeyValue> belowRow : below.rows().get()) {
            Map<Integer, ReadPlan.KeyValue> row = new HashMap<>(everyRow);
            fromBelow.forEach((to, from) -> {
                if (belowRow.containsKey(from)) {
                    row.put(to, belowRow.get(from));
                }
            });
            rows.add(row);
        }
        return new ExactColumns(Optional.of(rows), Map.of());
    }

    /** A timestamp under casts to other timestamp precisions (the writer cuts to the column's precision itself). */
    private static RexNode uncast(RexNode node) {
        while (node instanceof RexCall call && call.getKind() == SqlKind.CAST
                && call.getOperands().get(0).getType().getSqlTypeName() == call.getType().getSqlTypeName()) {
            node = call.getOperands().get(0);
        }
        return node;
    }

    private static Optional<ReadPlan.KeyValue> literal(RexLiteral literal) {
        if (literal.isNull() || !isTimestamp(literal.getType())) {
            return Optional.empty();
        }
        return Optional.ofNullable(literal.getValueAs(TimestampString.class)).map(ReadPlan.KeyValue::literal);
    }

    private static boolean isTimestamp(RelDataType type) {
        return type.getSqlTypeName() == SqlTypeName.TIMESTAMP
                || type.getSqlTypeName() == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }
}
