package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.plan.VectorExpression;
import dev.riffle.sql.plan.VectorizedInput;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * The columns a vectorized operator reads, computed from each batch of its scan
 * ({@link VectorExpression}s): a column is the batch's own vector, anything else a new vector of
 * the expression's type, evaluated operation by operation over the whole batch ({@link ExpressionValues}). The computed
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
        this.identity = VectorizedInput.scanColumnsInOrder(this.expressions);
    }

    /**
     * The expressions' values over the first {@code rows} rows of {@code batch} (the scan's output
     * columns in order), one vector per expression; the batch itself when the expressions are its
     * columns, all of them, in order.
     */
    VectorSchemaRoot apply(VectorSchemaRoot batch, int rows) {
        if (identity && batch.getFieldVectors().size() == expressions.size()) {
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
            } else if (expression instanceof VectorExpression.TimeFloor floor) {
                vector = timestamps("expr$" + i, batch.getVector(floor.operand().index()),
                        ExpressionValues.of(expression, batch, rows), rows);
                computed.add(vector);
            } else {
                vector = materialize("expr$" + i, expression.type(), ExpressionValues.of(expression, batch, rows), rows);
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

    /** Time buckets as a vector of {@code source}'s own timestamp type (its unit, its zone); null rows unset. */
    private FieldVector timestamps(String name, FieldVector source, ExpressionValues values, int rows) {
        TimeStampVector vector = (TimeStampVector) new Field(name, FieldType.nullable(source.getField().getType()), null)
                .createVector(allocator);
        vector.allocateNew(rows);
        for (int row = 0; row < rows; row++) {
            if (!values.nulls()[row]) {
                vector.set(row, values.longs()[row]);
            }
        }
        vector.setValueCount(rows);
        return vector;
    }

    /** A vector of {@code type} holding {@code values}; a null row is left unset (a new vector's rows are all null). */
    private FieldVector materialize(String name, SqlTypeName type, ExpressionValues values, int rows) {
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
