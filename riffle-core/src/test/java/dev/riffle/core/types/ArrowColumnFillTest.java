package dev.riffle.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.util.ValueVectorUtility;
import org.junit.jupiter.api.Test;

/**
 * A vector filled through {@link ArrowColumnFill} holds what the same values set with Arrow's
 * {@code setSafe} and {@code setNull} give: in runs that start where the last ended, grow the
 * vector past its first capacity, alternate with Arrow's own setters (a null among them, which Arrow
 * sets without an offset), and hold nulls and empty and multi-byte strings; valid as Arrow checks a
 * vector, with the same buffer sizes.
 */
class ArrowColumnFillTest {
    private static final int ROWS = 5_000;
    private static final int RUN = 700;

    @Test
    void fillsAsArrowsSettersDo() {
        try (BufferAllocator allocator = new RootAllocator()) {
            Random random = new Random(11);
            List<FieldVector> filled = vectors(allocator, "filled");
            List<FieldVector> expected = vectors(allocator, "expected");
            try {
                int row = 0;
                while (row < ROWS) {
                    int run = Math.min(RUN, ROWS - row);
                    long seed = random.nextLong();
                    for (int v = 0; v < filled.size(); v++) {
                        fill(filled.get(v), row, run, new Random(seed + v));
                        set(expected.get(v), row, run, new Random(seed + v));
                    }
                    row += run;
                    // Rows by Arrow's setters between runs, as a lake split's row-at-a-time batches would
                    // set them: every other time ending in a null, which Arrow sets without an offset.
                    if (row + 2 <= ROWS) {
                        boolean endsInNull = (row / RUN) % 2 == 0;
                        for (int v = 0; v < filled.size(); v++) {
                            set(filled.get(v), row, 1, new Random(seed - v));
                            set(expected.get(v), row, 1, new Random(seed - v));
                            if (endsInNull) {
                                filled.get(v).setNull(row + 1);
                                expected.get(v).setNull(row + 1);
                            } else {
                                set(filled.get(v), row + 1, 1, new Random(seed + v));
                                set(expected.get(v), row + 1, 1, new Random(seed + v));
                            }
                        }
                        row += 2;
                    }
                }
                for (int v = 0; v < filled.size(); v++) {
                    FieldVector actual = filled.get(v);
                    FieldVector wanted = expected.get(v);
                    actual.setValueCount(ROWS);
                    wanted.setValueCount(ROWS);
                    for (int i = 0; i < ROWS; i++) {
                        assertThat(actual.getObject(i)).as("%s row %s", wanted.getName(), i).isEqualTo(wanted.getObject(i));
                    }
                    assertThat(actual.getNullCount()).isEqualTo(wanted.getNullCount()).isPositive();
                    assertThat(actual.getBufferSize()).as("%s bytes", wanted.getName()).isEqualTo(wanted.getBufferSize());
                    ValueVectorUtility.validateFull(actual);
                }
            } finally {
                filled.forEach(FieldVector::close);
                expected.forEach(FieldVector::close);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void bitVectorsAreNotFilled() {
        try (BufferAllocator allocator = new RootAllocator(); BitVector bits = new BitVector("b", allocator)) {
            assertThatThrownBy(() -> ArrowColumnFill.of(bits, 0, 1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("Vector b");
        }
    }

    private static List<FieldVector> vectors(BufferAllocator allocator, String prefix) {
        List<FieldVector> vectors = List.of(new TinyIntVector("i8", allocator), new SmallIntVector("i16", allocator),
                new IntVector("i32", allocator), new BigIntVector("i64", allocator), new Float4Vector("f32", allocator),
                new Float8Vector("f64", allocator), new VarCharVector("s", allocator));
        for (FieldVector vector : vectors) {
            vector.setInitialCapacity(100); // far fewer rows than written: the fill must make room
            vector.allocateNew();
        }
        return vectors;
    }

    private static Object value(FieldVector vector, Random random) {
        if (random.nextInt(6) == 0) {
            return null;
        }
        return switch (vector.getName()) {
            case "i8" -> (byte) random.nextInt();
            case "i16" -> (short) random.nextInt();
            case "i32" -> random.nextInt();
            case "i64" -> random.nextLong();
            case "f32" -> random.nextFloat() - 0.5f;
            case "f64" -> random.nextGaussian();
            default -> ("é" + "x".repeat(random.nextInt(3) * random.nextInt(40))).substring(random.nextInt(2));
        };
    }

    private static void fill(FieldVector vector, int at, int rows, Random random) {
        ArrowColumnFill fill = ArrowColumnFill.of(vector, at, at + rows);
        for (int i = at; i < at + rows; i++) {
            Object value = value(vector, random);
            if (value == null) {
                fill.setNull(i);
            } else if (value instanceof Byte b) {
                fill.setByte(i, b);
            } else if (value instanceof Short s) {
                fill.setShort(i, s);
            } else if (value instanceof Integer n) {
                fill.setInt(i, n);
            } else if (value instanceof Long l) {
                fill.setLong(i, l);
            } else if (value instanceof Float f) {
                fill.setFloat(i, f);
            } else if (value instanceof Double d) {
                fill.setDouble(i, d);
            } else {
                byte[] bytes = ("<" + value + ">").getBytes(StandardCharsets.UTF_8);
                fill.setBytes(i, bytes, 1, bytes.length - 2);
            }
        }
        fill.finish();
    }

    private static void set(FieldVector vector, int at, int rows, Random random) {
        for (int i = at; i < at + rows; i++) {
            Object value = value(vector, random);
            if (value == null) {
                vector.setNull(i);
                continue;
            }
            if (vector instanceof TinyIntVector v) {
                v.setSafe(i, (Byte) value);
            } else if (vector instanceof SmallIntVector v) {
                v.setSafe(i, (Short) value);
            } else if (vector instanceof IntVector v) {
                v.setSafe(i, (Integer) value);
            } else if (vector instanceof BigIntVector v) {
                v.setSafe(i, (Long) value);
            } else if (vector instanceof Float4Vector v) {
                v.setSafe(i, (Float) value);
            } else if (vector instanceof Float8Vector v) {
                v.setSafe(i, (Double) value);
            } else {
                ((VarCharVector) vector).setSafe(i, ((String) value).getBytes(StandardCharsets.UTF_8));
            }
        }
    }
}
