package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.sql.plan.VectorExpression.Arithmetic;
import dev.riffle.sql.plan.VectorExpression.Column;
import dev.riffle.sql.plan.VectorExpression.Constant;
import dev.riffle.sql.plan.VectorExpression.Negation;
import dev.riffle.sql.plan.VectorExpression.Operator;
import dev.riffle.sql.plan.VectorExpression.Widening;
import dev.riffle.sql.plan.VectorExpression;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/** The values a vectorized aggregate computes from a batch: Java's arithmetic in the result type, nulls propagated. */
class VectorProjectionTest {
    private static final Column I = new Column(0, SqlTypeName.INTEGER);
    private static final Column B = new Column(1, SqlTypeName.BIGINT);
    private static final Column F = new Column(2, SqlTypeName.REAL);

    @Test
    void arithmeticIsJavasInTheResultTypeAndNullsPropagate() {
        int[] ints = {Integer.MAX_VALUE, -7, 46_341, 0};
        long[] longs = {1L, Long.MAX_VALUE, 3_000_000_000L, 5};
        float[] floats = {0.1f, 16_777_216f, -2.5f, 1.5f};
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = batch(allocator, ints, longs, floats)) {
            long batchBytes = allocator.getAllocatedMemory();
            List<VectorExpression> expressions = List.of(
                    new Arithmetic(Operator.PLUS, I, new Constant(1L, SqlTypeName.INTEGER), SqlTypeName.INTEGER),
                    new Arithmetic(Operator.TIMES, I, I, SqlTypeName.INTEGER),
                    new Arithmetic(Operator.TIMES, B, new Widening(I, SqlTypeName.BIGINT), SqlTypeName.BIGINT),
                    new Arithmetic(Operator.PLUS, F, new Widening(I, SqlTypeName.REAL), SqlTypeName.REAL),
                    new Negation(B, SqlTypeName.BIGINT),
                    new Column(1, SqlTypeName.BIGINT),
                    // Rounded to float after each operation, not once at the end: (0.1f + 2^31 - 1) - (2^31 - 1) is 0.
                    new Arithmetic(Operator.MINUS,
                            new Arithmetic(Operator.PLUS, F, new Widening(I, SqlTypeName.REAL), SqlTypeName.REAL),
                            new Widening(I, SqlTypeName.REAL), SqlTypeName.REAL));
            try (VectorProjection projection = new VectorProjection(expressions, allocator)) {
                VectorSchemaRoot out = projection.apply(batch, 4);
                List<Object> sums = values(out.getVector(0));
                assertThat(sums).containsExactly(Integer.MAX_VALUE + 1, -6, 46_342, null);
                assertThat(values(out.getVector(1))).containsExactly(Integer.MAX_VALUE * Integer.MAX_VALUE, 49,
                        46_341 * 46_341, null);
                assertThat(values(out.getVector(2))).containsExactly((long) Integer.MAX_VALUE, Long.MAX_VALUE * -7,
                        3_000_000_000L * 46_341, null);
                assertThat(values(out.getVector(3))).containsExactly(0.1f + (float) Integer.MAX_VALUE,
                        16_777_216f + (float) -7, -2.5f + (float) 46_341, null);
                assertThat(values(out.getVector(4))).containsExactly(-1L, -Long.MAX_VALUE, -3_000_000_000L, -5L);
                assertThat(values(out.getVector(6))).containsExactly((0.1f + (float) Integer.MAX_VALUE) - (float) Integer.MAX_VALUE,
                        (16_777_216f + (float) -7) - (float) -7, (-2.5f + (float) 46_341) - (float) 46_341, null);
                assertThat(values(out.getVector(6)).get(0)).as("not the exact 0.1").isEqualTo(0.0f);
                // A column is the batch's own vector, not a copy.
                assertThat(out.getVector(5)).isSameAs(batch.getVector(1));
                // Only the first rows belong to the result when a limit ends inside the batch.
                assertThat(values(projection.apply(batch, 2).getVector(0))).containsExactly(Integer.MAX_VALUE + 1, -6);
            }
            assertThat(allocator.getAllocatedMemory()).as("computed vectors freed").isEqualTo(batchBytes);
        }
    }

    @Test
    void onlyTheScanColumnsInOrderIsTheBatchItself() {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = batch(allocator, new int[] {1}, new long[] {2}, new float[] {3});
                VectorProjection projection = new VectorProjection(List.of(I, B, F), allocator)) {
            assertThat(projection.apply(batch, 1)).isSameAs(batch);
        }
    }

    /** Three columns (INT, BIGINT, REAL); the last row's INT is null. */
    private static VectorSchemaRoot batch(BufferAllocator allocator, int[] ints, long[] longs, float[] floats) {
        IntVector i = new IntVector("i", allocator);
        BigIntVector b = new BigIntVector("b", allocator);
        Float4Vector f = new Float4Vector("f", allocator);
        i.allocateNew(ints.length);
        b.allocateNew(ints.length);
        f.allocateNew(ints.length);
        for (int row = 0; row < ints.length; row++) {
            if (row == ints.length - 1 && ints.length > 1) {
                i.setNull(row);
            } else {
                i.set(row, ints[row]);
            }
            b.set(row, longs[row]);
            f.set(row, floats[row]);
        }
        VectorSchemaRoot root = VectorSchemaRoot.of(i, b, f);
        root.setRowCount(ints.length);
        return root;
    }

    private static List<Object> values(FieldVector vector) {
        List<Object> values = new ArrayList<>();
        for (int row = 0; row < vector.getValueCount(); row++) {
            values.add(vector.getObject(row));
        }
        return values;
    }
}
