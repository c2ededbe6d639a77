package dev.riffle.sql.planner;

import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.types.SqlTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.Sarg;
import org.apache.calcite.util.TimestampString;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * The equalities of a filter that a key access path can absorb: for each table column, the first
 * conjunct {@code column = literal}, {@code column = ?} or {@code column IN (literals)}. What the
 * path absorbs leaves the plan; every other conjunct stays in a filter above the scan.
 */
final class KeyEqualities {
    /** One absorbable conjunct: a column and its candidate values. */
    record Equality(RexNode conjunct, List<ReadPlan.KeyValue> values) {}

    private final Map<String, Equality> byColumn = new LinkedHashMap<>();
    private final List<RexNode> conjuncts;

    private KeyEqualities(List<RexNode> conjuncts) {
        this.conjuncts = conjuncts;
    }

    static KeyEqualities of(RexNode condition, FlussScan scan) {
        KeyEqualities found = new KeyEqualities(RelOptUtil.conjunctions(condition));
        RowType rowType = scan.plan().table().getRowType();
        for (RexNode conjunct : found.conjuncts) {
            if (!(conjunct instanceof RexCall call)) {
                continue;
            }
            if (call.getKind() == SqlKind.EQUALS) {
                RexNode left = call.getOperands().get(0);
                RexNode right = call.getOperands().get(1);
                if (!(left instanceof RexInputRef)) {
                    RexNode swap = left;
                    left = right;
                    right = swap;
                }
                if (left instanceof RexInputRef ref) {
                    int column = scan.plan().columns().get(ref.getIndex());
                    if (column >= rowType.getFieldCount()) {
                        continue; // a changelog column
                    }
                    ReadPlan.KeyValue value = value(right, rowType.getTypeAt(column));
                    if (value != null) {
                        found.byColumn.putIfAbsent(rowType.getFieldNames().get(column),
                                new Equality(conjunct, List.of(value)));
                    }
                }
            } else if (call.getKind() == SqlKind.SEARCH && call.getOperands().get(0) instanceof RexInputRef ref
                    && call.getOperands().get(1) instanceof RexLiteral literal) {
                int column = scan.plan().columns().get(ref.getIndex());
                if (column >= rowType.getFieldCount()) {
                    continue;
                }
                List<ReadPlan.KeyValue> points = points(literal, rowType.getTypeAt(column));
                if (points != null) {
                    found.byColumn.putIfAbsent(rowType.getFieldNames().get(column), new Equality(conjunct, points));
                }
            }
        }
        return found;
    }

    /** The equality on {@code column}, or null. */
    Equality get(String column) {
        return byColumn.get(column);
    }

    /** Every conjunct except those absorbed. */
    List<RexNode> remaining(List<Equality> absorbed) {
        List<RexNode> rest = new ArrayList<>(conjuncts);
        for (Equality equality : absorbed) {
            rest.remove(equality.conjunct());
        }
        return rest;
    }

    /** A literal or {@code ?} compared with a column of {@code type}, or null when it is neither (or does not fit). */
    static ReadPlan.KeyValue value(RexNode node, DataType type) {
        if (node instanceof RexDynamicParam param) {
            return ReadPlan.KeyValue.parameter(param.getIndex());
        }
        if (node instanceof RexLiteral literal && !literal.isNull()) {
            if (timestampKind(type).isPresent() && timestampKind(type).get() != literal.getType().getSqlTypeName()) {
                return null; // a TIMESTAMP literal against a TIMESTAMP_LTZ column needs a time zone: Calcite's cast
            }
            try {
                Object value = literal.getValueAs(SqlTypes.internalClass(type));
                return value == null ? null : ReadPlan.KeyValue.literal(value);
            } catch (RuntimeException e) {
                return null; // a literal of another type: leave the comparison to Calcite
            }
        }
        return null;
    }

    /** The SQL type of the literals a timestamp column compares with directly; empty for other columns. */
    private static Optional<SqlTypeName> timestampKind(DataType type) {
        return switch (type.getTypeRoot()) {
            case TIMESTAMP_WITHOUT_TIME_ZONE -> Optional.of(SqlTypeName.TIMESTAMP);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> Optional.of(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
            default -> Optional.empty();
        };
    }

    /** The values of {@code column IN (...)}, when the search is a plain set of non-null points. */
    private static List<ReadPlan.KeyValue> points(RexLiteral literal, DataType type) {
        Sarg<?> sarg = literal.getValueAs(Sarg.class);
        if (sarg == null || !sarg.isPoints() || sarg.nullAs != org.apache.calcite.rex.RexUnknownAs.UNKNOWN) {
            return null;
        }
        if (timestampKind(type).isPresent() && timestampKind(type).get() != literal.getType().getSqlTypeName()) {
            return null;
        }
        List<ReadPlan.KeyValue> values = new ArrayList<>();
        for (var range : sarg.rangeSet.asRanges()) {
            Object point = pointValue(range.lowerEndpoint(), SqlTypes.internalClass(type));
            if (point == null) {
                return null;
            }
            values.add(ReadPlan.KeyValue.literal(point));
        }
        return values.isEmpty() ? null : values;
    }

    private static Object pointValue(Object point, Class<?> target) {
        if (point instanceof NlsString s && target == String.class) {
            return s.getValue();
        }
        if (point instanceof BigDecimal d) {
            try {
                if (target == Integer.class) {
                    return d.intValueExact();
                } else if (target == Long.class) {
                    return d.longValueExact();
                } else if (target == Short.class) {
                    return d.shortValueExact();
                } else if (target == Byte.class) {
                    return d.byteValueExact();
                } else if (target == BigDecimal.class) {
                    return d;
                }
            } catch (ArithmeticException e) {
                return null;
            }
        }
        if (point instanceof Boolean b && target == Boolean.class) {
            return b;
        }
        if (point instanceof TimestampString ts && target == TimestampString.class) {
            return ts; // every digit; its Long would keep milliseconds
        }
        return null;
    }
}
