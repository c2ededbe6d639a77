package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.planner.VectorExpression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The columns a vectorized operator reads, computed from each batch of its scan
 * ({@link VectorExpression}s): a column is the batch's own vector, anything else a new vector of
 * the expression's type, evaluated operation by operation over the whole batch. The computed
 * vectors live until the next batch or {@link #close()}, whichever comes first.
 *
 * <pre>{@code
 * try (VectorProjection inputs = new VectorProjection(expressions, allocator)) {
 *     scan.forEachBatch(context, allocator, (batch, rows) -> groups.add(inputs.apply(batch, rows), rows));
 * }
 * }</pre>
 */
final class VectorProjection implements AutoCloseable {
    private final List<VectorExpression> expressions;
    private final BufferAllocator allocator;
    private final boolean identity;
    private final List<FieldVector> computed = new ArrayList<>();

    /** @param allocator where the computed vectors are allocated */
    VectorProjection(List<VectorExpression> expressions, BufferAllocator allocator) {
        this.expressions = List.copyOf(requireNonNull(expressions, "expressions is null"));
        this.allocator = requireNonNull(allocator, "allocator is null");
        boolean columnsInOrder = true;
        for (int i = 0; i < this.expressions.size(); i++) {
            columnsInOrder &= this.expressions.get(i) instanceof VectorExpression.Column column && column.index() == i;
        }
        this.identity = columnsInOrder;
    }

    /**
     * The expressions' values over the first {@code rows} rows of {@code batch} (the scan's output
     * columns in order), one vector per expression; the batch itself when every expression is its
     * column of the same position.
     */
    VectorSchemaRoot apply(VectorSchemaRoot batch, int rows) {
        if (identity) {
            return batch;
        }
        releaseComputed();
        List<Field> fields = new ArrayList<>(expressions.size());
        List<FieldVector> vectors = new ArrayList<>(expressions.size());
        for (int i = 0; i < expressions.size(); i++) {
            VectorExpression expression = expressions.get(i);
            FieldVector vector;
            if (expression instanceof VectorExpression.Column column) {
                vector = batch.getVector(column.index());
            } else {
                vector = materialize("expr$" + i, expression.type(), evaluate(expression, batch, rows), rows);
                computed.add(vector);
            }
            fields.add(vector.getField());
            vectors.add(vector);
        }
        // Not setRowCount: that would set the value count of the scan's own vectors too.
        return new VectorSchemaRoot(fields, vectors, rows);
    }

    @Override
    public void close() {
        releaseComputed();
    }

    private void releaseComputed() {
        computed.forEach(FieldVector::close);
        computed.clear();
    }

    /** An expression's values for a batch: integers in {@code longs}, floating values in {@code doubles}. */
    private record Values(long[] longs, double[] doubles, boolean[] nulls) {}

    private static Values evaluate(VectorExpression expression, VectorSchemaRoot batch, int rows) {
        if (expression instanceof VectorExpression.Column column) {
            return read(batch.getVector(column.index()), rows);
        }
        if (expression instanceof VectorExpression.Constant constant) {
            return constant(constant, rows);
        }
        if (expression instanceof VectorExpression.Widening widening) {
            return convert(evaluate(widening.operand(), batch, rows), widening.operand().type(), widening.type(), rows);
        }
        if (expression instanceof VectorExpression.Negation negation) {
            return negate(convert(evaluate(negation.operand(), batch, rows), negation.operand().type(), negation.type(),
                    rows), negation.type(), rows);
        }
        VectorExpression.Arithmetic arithmetic = (VectorExpression.Arithmetic) expression;
        return arithmetic(arithmetic,
                convert(evaluate(arithmetic.left(), batch, rows), arithmetic.left().type(), arithmetic.type(), rows),
                convert(evaluate(arithmetic.right(), batch, rows), arithmetic.right().type(), arithmetic.type(), rows),
                rows);
    }

    private static Values read(FieldVector vector, int rows) {
        boolean[] nulls = new boolean[rows];
        for (int row = 0; row < rows; row++) {
            nulls[row] = vector.isNull(row);
        }
        if (vector instanceof Float4Vector floats) {
            double[] doubles = new double[rows];
            for (int row = 0; row < rows; row++) {
                doubles[row] = nulls[row] ? 0 : floats.get(row);
            }
            return new Values(null, doubles, nulls);
        }
        if (vector instanceof Float8Vector floats) {
            double[] doubles = new double[rows];
            for (int row = 0; row < rows; row++) {
                doubles[row] = nulls[row] ? 0 : floats.get(row);
            }
            return new Values(null, doubles, nulls);
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
        return new Values(longs, null, nulls);
    }

    private static Values constant(VectorExpression.Constant constant, int rows) {
        boolean[] nulls = new boolean[rows];
        if (VectorExpression.integral(constant.type())) {
            long[] longs = new long[rows];
            Arrays.fill(longs, constant.value().longValue());
            return new Values(longs, null, nulls);
        }
        double[] doubles = new double[rows];
        double value = constant.type() == SqlTypeName.REAL ? constant.value().floatValue() : constant.value().doubleValue();
        Arrays.fill(doubles, value);
        return new Values(null, doubles, nulls);
    }

    /** Values of {@code from} as Java converts them to {@code to} (a wider integer type, or a floating one). */
    private static Values convert(Values values, SqlTypeName from, SqlTypeName to, int rows) {
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
        return new Values(null, doubles, values.nulls());
    }

    private static Values negate(Values operand, SqlTypeName type, int rows) {
        if (VectorExpression.integral(type)) {
            long[] longs = new long[rows];
            for (int row = 0; row < rows; row++) {
                longs[row] = narrow(-operand.longs()[row], type);
            }
            return new Values(longs, null, operand.nulls());
        }
        double[] doubles = new double[rows];
        for (int row = 0; row < rows; row++) {
            doubles[row] = -operand.doubles()[row];
        }
        return new Values(null, doubles, operand.nulls());
    }

    private static Values arithmetic(VectorExpression.Arithmetic arithmetic, Values left, Values right, int rows) {
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
            return new Values(longs, null, nulls);
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
        return new Values(null, doubles, nulls);
    }

    /**
     * An integer result in its type's Java type: an {@code int} operation keeps the low 32 bits,
     * which the same operation in {@code long} followed by the cast gives too.
     */
    private static long narrow(long value, SqlTypeName type) {
        return type == SqlTypeName.INTEGER ? (int) value : value;
    }

    /** A vector of {@code type} holding {@code values}; a null row is left unset (a new vector's rows are all null). */
    private FieldVector materialize(String name, SqlTypeName type, Values values, int rows) {
        BaseFixedWidthVector vector = switch (type) {
            case INTEGER -> new IntVector(name, allocator);
            case BIGINT -> new BigIntVector(name, allocator);
            case REAL -> new Float4Vector(name, allocator);
            case FLOAT, DOUBLE -> new Float8Vector(name, allocator);
            default -> throw new IllegalStateException("No vectorized computation of " + type);
        };
        vector.allocateNew(rows);
        boolean[] nulls = values.nulls();
        for (int row = 0; row < rows; row++) {
            if (nulls[row]) {
                continue;
            }
            if (vector instanceof IntVector ints) {
                ints.set(row, (int) values.longs()[row]);
            } else if (vector instanceof BigIntVector longs) {
                longs.set(row, values.longs()[row]);
            } else if (vector instanceof Float4Vector floats) {
                floats.set(row, (float) values.doubles()[row]);
            } else {
                ((Float8Vector) vector).set(row, values.doubles()[row]);
            }
        }
        vector.setValueCount(rows);
        return vector;
    }
}
