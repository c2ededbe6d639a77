package dev.riffle.sql.exec;

import dev.riffle.sql.plan.VectorExpression;
import java.util.Arrays;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A {@link VectorExpression}'s values over the rows of one batch, computed an operation at a time
 * over the whole batch: integer results in {@code longs}, floating ones in {@code doubles} (a
 * {@code REAL} value as the exact {@code double} of its {@code float}), and which rows are null.
 * Vectorized operators turn them into a vector ({@link VectorProjection}) or a selection
 * ({@link VectorFilter}).
 *
 * <pre>{@code
 * ExpressionValues revenue = ExpressionValues.of(expression, batch, rows);
 * }</pre>
 */
record ExpressionValues(long[] longs, double[] doubles, boolean[] nulls) {

    static ExpressionValues of(VectorExpression expression, VectorSchemaRoot batch, int rows) {
        if (expression instanceof VectorExpression.Column column) {
            return read(batch.getVector(column.index()), rows);
        }
        if (expression instanceof VectorExpression.TimeFloor floor) {
            return floor(floor, batch.getVector(floor.operand().index()), rows);
        }
        if (expression instanceof VectorExpression.Constant constant) {
            return constant(constant, rows);
        }
        if (expression instanceof VectorExpression.Widening widening) {
            return convert(of(widening.operand(), batch, rows), widening.operand().type(), widening.type(), rows);
        }
        if (expression instanceof VectorExpression.Negation negation) {
            return negate(convert(of(negation.operand(), batch, rows), negation.operand().type(), negation.type(),
                    rows), negation.type(), rows);
        }
        VectorExpression.Arithmetic arithmetic = (VectorExpression.Arithmetic) expression;
        return arithmetic(arithmetic,
                convert(of(arithmetic.left(), batch, rows), arithmetic.left().type(), arithmetic.type(), rows),
                convert(of(arithmetic.right(), batch, rows), arithmetic.right().type(), arithmetic.type(), rows),
                rows);
    }

    private static ExpressionValues read(FieldVector vector, int rows) {
        boolean[] nulls = new boolean[rows];
        for (int row = 0; row < rows; row++) {
            nulls[row] = vector.isNull(row);
        }
        if (vector instanceof Float4Vector floats) {
            double[] doubles = new double[rows];
            for (int row = 0; row < rows; row++) {
                doubles[row] = nulls[row] ? 0 : floats.get(row);
            }
            return new ExpressionValues(null, doubles, nulls);
        }
        if (vector instanceof Float8Vector floats) {
            double[] doubles = new double[rows];
            for (int row = 0; row < rows; row++) {
                doubles[row] = nulls[row] ? 0 : floats.get(row);
            }
            return new ExpressionValues(null, doubles, nulls);
        }
        long[] longs = new long[rows];
        if (vector instanceof TinyIntVector bytes) {
            for (int row = 0; row < rows; row++) {
                longs[row] = nulls[row] ? 0 : bytes.get(row);
            }
        } else if (vector instanceof SmallIntVector shorts) {
            for (int row = 0; row < rows; row++) {
                longs[row] = nulls[row] ? 0 : shorts.get(row);
            }
        } else if (vector instanceof IntVector ints) {
            for (int row = 0; row < rows; row++) {
                longs[row] = nulls[row] ? 0 : ints.get(row);
            }
        } else if (vector instanceof BigIntVector bigints) {
            for (int row = 0; row < rows; row++) {
                longs[row] = nulls[row] ? 0 : bigints.get(row);
            }
        } else {
            throw new IllegalStateException("No vectorized arithmetic over " + vector.getField());
        }
        return new ExpressionValues(longs, null, nulls);
    }

    /** Each timestamp floored to the bucket, in the vector's own unit (seconds to nanoseconds). */
    private static ExpressionValues floor(VectorExpression.TimeFloor floor, FieldVector vector, int rows) {
        if (!(vector instanceof TimeStampVector timestamps)
                || !(vector.getField().getType() instanceof ArrowType.Timestamp type)) {
            throw new IllegalStateException("No time bucket of " + vector.getField());
        }
        long bucket = switch (type.getUnit()) {
            case SECOND -> floor.millis() / 1_000;
            case MILLISECOND -> floor.millis();
            case MICROSECOND -> floor.millis() * 1_000;
            case NANOSECOND -> floor.millis() * 1_000_000;
        };
        boolean[] nulls = new boolean[rows];
        long[] longs = new long[rows];
        for (int row = 0; row < rows; row++) {
            nulls[row] = timestamps.isNull(row);
            longs[row] = nulls[row] ? 0 : Math.floorDiv(timestamps.get(row), bucket) * bucket;
        }
        return new ExpressionValues(longs, null, nulls);
    }

    private static ExpressionValues constant(VectorExpression.Constant constant, int rows) {
        boolean[] nulls = new boolean[rows];
        if (VectorExpression.integral(constant.type())) {
            long[] longs = new long[rows];
            Arrays.fill(longs, constant.value().longValue());
            return new ExpressionValues(longs, null, nulls);
        }
        double[] doubles = new double[rows];
        double value = constant.type() == SqlTypeName.REAL ? constant.value().floatValue()
                : constant.value().doubleValue();
        Arrays.fill(doubles, value);
        return new ExpressionValues(null, doubles, nulls);
    }

    /** Values of {@code from} as Java converts them to {@code to} (a wider integer type, or a floating one). */
    static ExpressionValues convert(ExpressionValues values, SqlTypeName from, SqlTypeName to, int rows) {
        boolean fromIntegral = VectorExpression.integral(from);
        if (VectorExpression.integral(to)) {
            return values; // a wider integer type holds every value as it is
        }
        if (!fromIntegral) {
            return values; // REAL to DOUBLE: the float's value exactly
        }
        double[] doubles = new double[rows];
        for (int row = 0; row < rows; row++) {
            long value = values.longs()[row];
            doubles[row] = to == SqlTypeName.REAL ? (float) value : (double) value;
        }
        return new ExpressionValues(null, doubles, values.nulls());
    }

    private static ExpressionValues negate(ExpressionValues operand, SqlTypeName type, int rows) {
        if (VectorExpression.integral(type)) {
            long[] longs = new long[rows];
            for (int row = 0; row < rows; row++) {
                longs[row] = narrow(-operand.longs()[row], type);
            }
            return new ExpressionValues(longs, null, operand.nulls());
        }
        double[] doubles = new double[rows];
        for (int row = 0; row < rows; row++) {
            doubles[row] = -operand.doubles()[row];
        }
        return new ExpressionValues(null, doubles, operand.nulls());
    }

    private static ExpressionValues arithmetic(VectorExpression.Arithmetic arithmetic, ExpressionValues left,
            ExpressionValues right, int rows) {
        boolean[] nulls = new boolean[rows];
        for (int row = 0; row < rows; row++) {
            nulls[row] = left.nulls()[row] || right.nulls()[row];
        }
        SqlTypeName type = arithmetic.type();
        if (VectorExpression.integral(type)) {
            long[] a = left.longs();
            long[] b = right.longs();
            long[] longs = new long[rows];
            switch (arithmetic.operator()) {
                case PLUS -> {
                    for (int row = 0; row < rows; row++) {
                        longs[row] = narrow(a[row] + b[row], type);
                    }
                }
                case MINUS -> {
                    for (int row = 0; row < rows; row++) {
                        longs[row] = narrow(a[row] - b[row], type);
                    }
                }
                case TIMES -> {
                    for (int row = 0; row < rows; row++) {
                        longs[row] = narrow(a[row] * b[row], type);
                    }
                }
            }
            return new ExpressionValues(longs, null, nulls);
        }
        double[] a = left.doubles();
        double[] b = right.doubles();
        double[] doubles = new double[rows];
        boolean real = type == SqlTypeName.REAL;
        for (int row = 0; row < rows; row++) {
            double value = switch (arithmetic.operator()) {
                case PLUS -> a[row] + b[row];
                case MINUS -> a[row] - b[row];
                case TIMES -> a[row] * b[row];
            };
            // Two floats' sum, difference or product in double, rounded once to float, is the float operation's result.
            doubles[row] = real ? (float) value : value;
        }
        return new ExpressionValues(null, doubles, nulls);
    }

    /**
     * An integer result in its type's Java type: an {@code int} operation keeps the low 32 bits,
     * which the same operation in {@code long} followed by the cast gives too.
     */
    private static long narrow(long value, SqlTypeName type) {
        return type == SqlTypeName.INTEGER ? (int) value : value;
    }
}
