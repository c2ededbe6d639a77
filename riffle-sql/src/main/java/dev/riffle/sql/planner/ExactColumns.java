package dev.riffle.sql.planner;

import static java.util.Objects.requireNonNull;

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
 * The timestamp values of a write's input rows that the plan knows to the digit, while Calcite's
 * rows hold them as milliseconds: the literals and {@code ?} parameters of {@code INSERT ... VALUES},
 * the {@code SET} values of an {@code UPDATE}, and the key of the row a point lookup finds for an
 * {@code UPDATE} or {@code DELETE}. The writer takes these instead of the row's
 * value, so a {@code TIMESTAMP(6)} column gets its microseconds.
 *
 * <pre>{@code
 * ExactColumns exact = ExactColumns.of(input);   // INSERT INTO t VALUES (1, TIMESTAMP '2024-06-01 12:00:00.123456')
 * exact.row(0);                                   // {1=2024-06-01 12:00:00.123456}
 * }</pre>
 *
 * @param rows when the input's rows are known one by one (a {@code VALUES} list), each row's exact
 *     columns, by position in the input row
 * @param everyRow exact columns of every row (a {@code SET ts = ?}), by position
 */
public record ExactColumns(Optional<List<Map<Integer, ReadPlan.KeyValue>>> rows,
        Map<Integer, ReadPlan.KeyValue> everyRow) {
    /** A write whose values are all Calcite's. */
    public static final ExactColumns NONE = new ExactColumns(Optional.empty(), Map.of());

    public ExactColumns {
        requireNonNull(rows, "rows is null");
        rows = rows.map(list -> list.stream().map(Map::copyOf).toList());
        everyRow = Map.copyOf(everyRow);
    }

    /** The exact columns of input row {@code index} (from 0). */
    public Map<Integer, ReadPlan.KeyValue> row(long index) {
        if (rows.isEmpty() || index >= rows.get().size()) {
            return everyRow;
        }
        Map<Integer, ReadPlan.KeyValue> row = new HashMap<>(everyRow);
        row.putAll(rows.get().get((int) index));
        return row;
    }

    /** What {@code input} (a physical plan) is known to produce exactly. */
    public static ExactColumns of(RelNode input) {
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
                return NONE;
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
                if (exact.rows.isEmpty()) {
                    return NONE; // how many rows a branch has is known only at run time
                }
                for (int i = 0; i < exact.rows.get().size(); i++) {
                    rows.add(exact.row(i));
                }
            }
            return new ExactColumns(Optional.of(rows), Map.of());
        }
        return NONE;
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
            if (below.everyRow.containsKey(from)) {
                belowEveryRow.put(to, below.everyRow.get(from));
            }
        });
        everyRow.putAll(belowEveryRow);
        if (below.rows.isEmpty()) {
            return new ExactColumns(Optional.empty(), everyRow);
        }
        List<Map<Integer, ReadPlan.KeyValue>> rows = new ArrayList<>();
        for (Map<Integer, ReadPlan.KeyValue> belowRow : below.rows.get()) {
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
