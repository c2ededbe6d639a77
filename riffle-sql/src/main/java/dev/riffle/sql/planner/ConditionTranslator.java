package dev.riffle.sql.planner;

import dev.riffle.sql.plan.PushedCondition;
import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.fluss.types.RowType;

/**
 * Translates one conjunct of a SQL filter over a {@link FlussScan} into a {@link PushedCondition},
 * when Fluss's predicates can express it exactly: comparisons of a column with a literal or
 * {@code ?}, {@code IN}, {@code BETWEEN} and ranges (Calcite's {@code SEARCH}), {@code IS [NOT]
 * NULL}, {@code LIKE 'abc%'}, {@code '%abc'}, {@code '%abc%'}, and {@code AND}/{@code OR} of
 * those. Anything else (casts of the column, functions, other columns) is left to Calcite.
 */
final class ConditionTranslator {
    private final RexBuilder rexBuilder;
    private final List<Integer> scanColumns;
    private final RowType rowType;

    ConditionTranslator(RexBuilder rexBuilder, List<Integer> scanColumns, RowType rowType) {
        this.rexBuilder = rexBuilder;
        this.scanColumns = scanColumns;
        this.rowType = rowType;
    }

    Optional<PushedCondition> translate(RexNode node) {
        if (node instanceof RexInputRef) {
            return booleanColumn(node, true); // WHERE flag (Calcite's form of flag = TRUE)
        }
        if (!(node instanceof RexCall call)) {
            return Optional.empty();
        }
        switch (call.getKind()) {
            case NOT, IS_FALSE -> {
                return booleanColumn(call.getOperands().get(0), false);
            }
            case IS_TRUE -> {
                return booleanColumn(call.getOperands().get(0), true);
            }
            case AND, OR -> {
                List<PushedCondition> children = new ArrayList<>();
                for (RexNode operand : call.getOperands()) {
                    Optional<PushedCondition> child = translate(operand);
                    if (child.isEmpty()) {
                        return Optional.empty();
                    }
                    children.add(child.get());
                }
                if (call.getKind() == SqlKind.AND) {
                    return Optional.of(new PushedCondition.AllOf(children));
                }
                return Optional.of(asIn(children).orElseGet(() -> new PushedCondition.AnyOf(children)));
            }
            case SEARCH -> {
                return translate(RexUtil.expandSearch(rexBuilder, null, call));
            }
            case IS_NULL, IS_NOT_NULL -> {
                return column(call.getOperands().get(0)).map(c -> new PushedCondition.Leaf(name(c),
                        call.getKind() == SqlKind.IS_NULL ? PushedCondition.Op.IS_NULL : PushedCondition.Op.IS_NOT_NULL,
                        List.of()));
            }
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                return comparison(call);
            }
            case LIKE -> {
                return like(call);
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    /** {@code c = a OR c = b} (how Calcite expands {@code c IN (a, b)}) as one {@code IN}. */
    private static Optional<PushedCondition> asIn(List<PushedCondition> alternatives) {
        String column = null;
        List<ReadPlan.KeyValue> values = new ArrayList<>();
        for (PushedCondition alternative : alternatives) {
            if (!(alternative instanceof PushedCondition.Leaf leaf) || leaf.op() != PushedCondition.Op.EQ
                    || (column != null && !column.equals(leaf.column()))) {
                return Optional.empty();
            }
            column = leaf.column();
            values.addAll(leaf.values());
        }
        return Optional.of(new PushedCondition.Leaf(column, PushedCondition.Op.IN, values));
    }

    private Optional<PushedCondition> comparison(RexCall call) {
        PushedCondition.Op op = switch (call.getKind()) {
            case EQUALS -> PushedCondition.Op.EQ;
            case NOT_EQUALS -> PushedCondition.Op.NE;
            case LESS_THAN -> PushedCondition.Op.LT;
            case LESS_THAN_OR_EQUAL -> PushedCondition.Op.LE;
            case GREATER_THAN -> PushedCondition.Op.GT;
            default -> PushedCondition.Op.GE;
        };
        RexNode left = call.getOperands().get(0);
        RexNode right = call.getOperands().get(1);
        Optional<Integer> column = column(left);
        if (column.isEmpty()) {
            column = column(right);
            right = left;
            op = op.flipped();
        }
        if (column.isEmpty()) {
            return Optional.empty();
        }
        int index = column.get();
        ReadPlan.KeyValue value = KeyEqualities.value(right, rowType.getTypeAt(index));
        return value == null ? Optional.empty()
                : Optional.of(new PushedCondition.Leaf(name(index), op, List.of(value)));
    }

    private Optional<PushedCondition> like(RexCall call) {
        // LIKE only: ILIKE (the same kind) ignores case, NOT LIKE negates; neither is a pushed LIKE
        if (call.getOperator() != org.apache.calcite.sql.fun.SqlStdOperatorTable.LIKE
                || call.getOperands().size() != 2 || !(call.getOperands().get(1) instanceof RexLiteral literal)) {
            return Optional.empty();
        }
        Optional<Integer> column = column(call.getOperands().get(0));
        String pattern = literal.getValueAs(String.class);
        if (column.isEmpty() || pattern == null || pattern.indexOf('_') >= 0 || pattern.indexOf('\\') >= 0) {
            return Optional.empty();
        }
        boolean leading = pattern.startsWith("%");
        boolean trailing = pattern.length() > 1 && pattern.endsWith("%");
        String middle = pattern.substring(leading ? 1 : 0, pattern.length() - (trailing ? 1 : 0));
        if (middle.isEmpty() || middle.indexOf('%') >= 0 || (!leading && !trailing)) {
            return Optional.empty();
        }
        PushedCondition.Op op = leading && trailing ? PushedCondition.Op.CONTAINS
                : leading ? PushedCondition.Op.ENDS_WITH : PushedCondition.Op.STARTS_WITH;
        return Optional.of(new PushedCondition.Leaf(name(column.get()), op, List.of(ReadPlan.KeyValue.literal(middle))));
    }

    /**
     * A BOOLEAN column tested for {@code value} (a null is neither, as for {@code = TRUE} and
     * {@code = FALSE}).
     */
    private Optional<PushedCondition> booleanColumn(RexNode node, boolean value) {
        if (!(node instanceof RexInputRef) || node.getType().getSqlTypeName() != SqlTypeName.BOOLEAN) {
            return Optional.empty();
        }
        return column(node).map(c -> new PushedCondition.Leaf(name(c), PushedCondition.Op.EQ,
                List.of(ReadPlan.KeyValue.literal(value))));
    }

    /** The table column a node reads directly, if it is one whose values Fluss's predicates compare correctly. */
    private Optional<Integer> column(RexNode node) {
        if (node instanceof RexCall cast && cast.getKind() == SqlKind.CAST
                && cast.getOperands().get(0) instanceof RexInputRef inner
                && losslessWidening(inner.getType(), cast.getType())) {
            node = inner; // Calcite widens a column to compare it with a wider literal; the value is the same
        }
        if (!(node instanceof RexInputRef ref)) {
            return Optional.empty();
        }
        int column = scanColumns.get(ref.getIndex());
        if (column >= rowType.getFieldCount()) {
            return Optional.empty(); // a changelog column
        }
        return switch (rowType.getTypeAt(column).getTypeRoot()) {
            // nested types have no SQL comparison here; TIMESTAMP_LTZ is pushed (ConditionPredicates works
            // around Fluss 0.9.1 reading it as TIMESTAMP_NTZ), since Calcite would compare it in milliseconds
            case ARRAY, MAP, ROW, BINARY, BYTES -> Optional.empty();
            default -> Optional.of(column);
        };
    }

    /**
     * Integers to wider integers, decimals to more digits at the same scale, timestamps to more
     * fractional digits: every value stays equal.
     */
    private static boolean losslessWidening(RelDataType from, RelDataType to) {
        SqlTypeName source = from.getSqlTypeName();
        SqlTypeName target = to.getSqlTypeName();
        if ((source == SqlTypeName.TIMESTAMP || source == SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                && target == source) {
            return to.getPrecision() >= from.getPrecision();
        }
        List<SqlTypeName> integers = List.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER,
                SqlTypeName.BIGINT);
        if (integers.contains(source) && integers.contains(target)) {
            return integers.indexOf(target) >= integers.indexOf(source);
        }
        return source == SqlTypeName.DECIMAL && target == SqlTypeName.DECIMAL && from.getScale() == to.getScale()
                && to.getPrecision() >= from.getPrecision();
    }

    private String name(int column) {
        return rowType.getFieldNames().get(column);
    }
}
