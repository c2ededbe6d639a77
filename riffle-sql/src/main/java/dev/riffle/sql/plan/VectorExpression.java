package dev.riffle.sql.plan;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A scalar expression over the columns of one scan that a vectorized operator computes on Arrow
 * batches, one output vector per batch: a column (of any type), or {@code +}, {@code -}, {@code *},
 * unary minus and widening {@code CAST}s of integer and floating-point columns and literals, and time
 * buckets of timestamps ({@code FLOOR(ts TO MINUTE)}). Made only where
 * the result is the one Calcite's generated code computes ({@link #of}): integer arithmetic wraps
 * in the result's Java type, {@code REAL} rounds to {@code float} after each operation, an operand
 * is converted to the result type as Java converts it, and a null operand makes the result null.
 * Division, decimals and everything else stay with Calcite.
 *
 * <pre>{@code
 * // SELECT k, SUM(price * qty) ...: the aggregate's argument
 * Optional<VectorExpression> revenue = VectorExpression.of(project.getProjects().get(1));
 * }</pre>
 */
public sealed interface VectorExpression {
    /**
     * Result types of what is computed: {@code TINYINT} and {@code SMALLINT} results are left to
     * Calcite, whose narrowing of an {@code int} result is not the plain Java cast.
     */
    /** Numeric types, each converting to every later one without failing. */
    List<SqlTypeName> WIDENING_ORDER = List.of(SqlTypeName.TINYINT, SqlTypeName.SMALLINT, SqlTypeName.INTEGER,
            SqlTypeName.BIGINT, SqlTypeName.REAL, SqlTypeName.DOUBLE);
    Set<SqlTypeName> COMPUTED = Set.of(SqlTypeName.INTEGER, SqlTypeName.BIGINT, SqlTypeName.REAL, SqlTypeName.FLOAT,
            SqlTypeName.DOUBLE);

    /** The SQL type of the expression's values. */
    SqlTypeName type();

    /** As EXPLAIN shows it, with the scan's column names. */
    String describe(List<String> columnNames);

    /** The scan's output column {@code index}, as it is. */
    record Column(int index, SqlTypeName type) implements VectorExpression {
        public Column {
            requireNonNull(type, "type is null");
        }

        @Override
        public String describe(List<String> columnNames) {
            return columnNames.get(index);
        }
    }

    /** A numeric literal, already of {@link #type()}'s Java type ({@code Long} for integers, {@code Double} else). */
    record Constant(Number value, SqlTypeName type) implements VectorExpression {
        public Constant {
            requireNonNull(value, "value is null");
            requireNonNull(type, "type is null");
        }

        @Override
        public String describe(List<String> columnNames) {
            return value.toString();
        }
    }

    /** What an {@link Arithmetic} computes. */
    enum Operator {
        PLUS("+"), MINUS("-"), TIMES("*");

        private final String symbol;

        Operator(String symbol) {
            this.symbol = symbol;
        }
    }

    /** {@code left op right}, both converted to {@link #type()} first. */
    record Arithmetic(Operator operator, VectorExpression left, VectorExpression right, SqlTypeName type)
            implements VectorExpression {
        public Arithmetic {
            requireNonNull(operator, "operator is null");
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
            requireNonNull(type, "type is null");
        }

        @Override
        public String describe(List<String> columnNames) {
            return operand(left, columnNames) + " " + operator.symbol + " " + operand(right, columnNames);
        }

        private static String operand(VectorExpression operand, List<String> columnNames) {
            String described = operand.describe(columnNames);
            return operand instanceof Arithmetic ? "(" + described + ")" : described;
        }
    }

    /** {@code -operand}. */
    record Negation(VectorExpression operand, SqlTypeName type) implements VectorExpression {
        public Negation {
            requireNonNull(operand, "operand is null");
            requireNonNull(type, "type is null");
        }

        @Override
        public String describe(List<String> columnNames) {
            String described = operand.describe(columnNames);
            return operand instanceof Arithmetic ? "-(" + described + ")" : "-" + described;
        }
    }

    /** {@code CAST(operand AS type)} to a type that holds every value of the operand's (or a floating type). */
    record Widening(VectorExpression operand, SqlTypeName type) implements VectorExpression {
        public Widening {
            requireNonNull(operand, "operand is null");
            requireNonNull(type, "type is null");
        }

        @Override
        public String describe(List<String> columnNames) {
            return "CAST(" + operand.describe(columnNames) + " AS " + type + ")";
        }
    }

    /**
     * {@code FLOOR(operand TO unit)} of a {@code TIMESTAMP} column, for a unit of fixed length
     * ({@code SECOND} to {@code DAY}): the time buckets of {@code GROUP BY FLOOR(ts TO MINUTE)}.
     * Computed in the column's own Arrow unit, rounding toward negative infinity as Calcite does,
     * so a value before 1970 falls in the bucket that holds it.
     */
    record TimeFloor(Column operand, TimeUnitRange unit) implements VectorExpression {
        public TimeFloor {
            requireNonNull(operand, "operand is null");
            requireNonNull(unit, "unit is null");
            unitMillis(unit);
        }

        @Override
        public SqlTypeName type() {
            return SqlTypeName.TIMESTAMP;
        }

        /** The bucket's length in milliseconds. */
        public long millis() {
            return unitMillis(unit);
        }

        private static long unitMillis(TimeUnitRange unit) {
            return switch (unit) {
                case SECOND -> 1_000L;
                case MINUTE -> 60_000L;
                case HOUR -> 3_600_000L;
                case DAY -> 86_400_000L;
                default -> throw new IllegalArgumentException("No fixed-length time bucket of " + unit);
            };
        }

        @Override
        public String describe(List<String> columnNames) {
            return "FLOOR(" + operand.describe(columnNames) + " TO " + unit + ")";
        }
    }

    /** Whether {@code type} is computed in {@code long}s (else in {@code double}s). */
    static boolean integral(SqlTypeName type) {
        return type == SqlTypeName.TINYINT || type == SqlTypeName.SMALLINT || type == SqlTypeName.INTEGER
                || type == SqlTypeName.BIGINT;
    }

    /**
     * The expression {@code node} over a scan's columns, when it is one computed here exactly as
     * Calcite computes it.
     */
    static Optional<VectorExpression> of(RexNode node) {
        requireNonNull(node, "node is null");
        SqlTypeName type = node.getType().getSqlTypeName();
        if (node instanceof RexInputRef ref) {
            return Optional.of(new Column(ref.getIndex(), type)); // of any type: a group key, a MIN argument
        }
        if (type == SqlTypeName.TIMESTAMP && node instanceof RexCall floor && floor.getKind() == SqlKind.FLOOR) {
            return timeFloor(floor);
        }
        if (!COMPUTED.contains(type)) {
            return Optional.empty();
        }
        if (node instanceof RexLiteral literal) {
            return constant(literal, type);
        }
        if (!(node instanceof RexCall call)) {
            return Optional.empty();
        }
        List<RexNode> operands = call.getOperands();
        switch (call.getKind()) {
            case PLUS, MINUS, TIMES -> {
                if (operands.size() != 2) {
                    return Optional.empty();
                }
                Optional<VectorExpression> left = operand(operands.get(0), type);
                Optional<VectorExpression> right = operand(operands.get(1), type);
                if (left.isEmpty() || right.isEmpty()) {
                    return Optional.empty();
                }
                Operator operator = switch (call.getKind()) {
                    case PLUS -> Operator.PLUS;
                    case MINUS -> Operator.MINUS;
                    default -> Operator.TIMES;
                };
                return Optional.of(new Arithmetic(operator, left.get(), right.get(), type));
            }
            case MINUS_PREFIX -> {
                return operand(operands.get(0), type).map(operand -> new Negation(operand, type));
            }
            case CAST -> {
                return of(operands.get(0)).filter(operand -> widens(operand.type(), type))
                        .map(operand -> new Widening(operand, type));
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    /** {@code FLOOR(column TO unit)} of a {@code TIMESTAMP} column to a fixed-length unit; else empty. */
    private static Optional<VectorExpression> timeFloor(RexCall floor) {
        List<RexNode> operands = floor.getOperands();
        if (operands.size() != 2 || !(operands.get(0) instanceof RexInputRef ref)
                || ref.getType().getSqlTypeName() != SqlTypeName.TIMESTAMP
                || !(operands.get(1) instanceof RexLiteral flag)) {
            return Optional.empty();
        }
        TimeUnitRange unit = flag.getValueAs(TimeUnitRange.class);
        if (unit != TimeUnitRange.SECOND && unit != TimeUnitRange.MINUTE && unit != TimeUnitRange.HOUR
                && unit != TimeUnitRange.DAY) {
            return Optional.empty(); // weeks, months and years are calendar units: Calcite's
        }
        return Optional.of(new TimeFloor(new Column(ref.getIndex(), SqlTypeName.TIMESTAMP), unit));
    }

    /**
     * An operand of an operation computed in {@code result}: Java converts it to the result's type,
     * which for an integer result must not narrow it (Calcite does not make {@code BIGINT + INT} an
     * {@code INT}, but nothing here relies on that).
     */
    private static Optional<VectorExpression> operand(RexNode node, SqlTypeName result) {
        if (node instanceof RexLiteral literal) {
            return constant(literal, result);
        }
        return of(node).filter(operand -> operand.type() == result || widens(operand.type(), result));
    }

    /**
     * A literal as a value of {@code type}: an integer literal of an integer type that holds it, or
     * any numeric literal of a floating type (converted as Java converts a constant).
     */
    private static Optional<VectorExpression> constant(RexLiteral literal, SqlTypeName type) {
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (value == null || !(literal.getType().getSqlTypeName() == SqlTypeName.DECIMAL
                || integral(literal.getType().getSqlTypeName()))) {
            return Optional.empty();
        }
        if (integral(type)) {
            if (value.scale() > 0 && value.stripTrailingZeros().scale() > 0) {
                return Optional.empty();
            }
            long exact;
            try {
                exact = value.longValueExact();
            } catch (ArithmeticException outOfRange) {
                return Optional.empty();
            }
            return fits(exact, type) ? Optional.of(new Constant(exact, type)) : Optional.empty();
        }
        if (literal.getType().getSqlTypeName() == SqlTypeName.DECIMAL && value.scale() > 0) {
            // A decimal literal in floating arithmetic: Calcite's conversion of a fraction is not
            // pinned down here (float and double rounding differ), so only integers are taken.
            return Optional.empty();
        }
        long integer;
        try {
            integer = value.longValueExact();
        } catch (ArithmeticException outOfRange) {
            return Optional.empty();
        }
        // Java converts the long constant to the operation's type once: (float) for REAL, (double) else.
        return Optional.of(new Constant(type == SqlTypeName.REAL ? (double) (float) integer : (double) integer, type));
    }

    private static boolean fits(long value, SqlTypeName type) {
        return switch (type) {
            case TINYINT -> value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE;
            case SMALLINT -> value >= Short.MIN_VALUE && value <= Short.MAX_VALUE;
            case INTEGER -> value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE;
            default -> true;
        };
    }

    /**
     * Whether Java converts every value of {@code from} to {@code to} without failing: to a wider
     * integer type exactly, to a floating type as the nearest value ({@code long} to {@code double}
     * rounds, as Calcite's generated code does too).
     */
    static boolean widens(SqlTypeName from, SqlTypeName to) {
        List<SqlTypeName> order = WIDENING_ORDER;
        SqlTypeName source = from == SqlTypeName.FLOAT ? SqlTypeName.DOUBLE : from;
        SqlTypeName target = to == SqlTypeName.FLOAT ? SqlTypeName.DOUBLE : to;
        return order.contains(source) && order.contains(target) && order.indexOf(target) >= order.indexOf(source);
    }
}
