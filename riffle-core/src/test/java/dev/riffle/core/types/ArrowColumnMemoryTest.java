package dev.riffle.core.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.TimeStampNanoVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.fluss.row.TimestampNtz;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowColumnMemory} reads what Arrow's own getters read: every fixed-width and string
 * vector, with and without nulls, whole and sliced at a row that is not on a byte of validity
 * bits; and {@link ArrowRowView}, which reads through it, converts TIME and TIMESTAMP units as
 * before.
 */
class ArrowColumnMemoryTest {
    private static final int ROWS = 1_000;

    @Test
    void everyGetterReadsWhatTheVectorHolds() {
        try (BufferAllocator allocator = new RootAllocator()) {
            for (boolean withNulls : new boolean[] {true, false}) {
                Random random = new Random(withNulls ? 7 : 8);
                List<FieldVector> vectors = filled(allocator, random, withNulls);
                try {
                    for (FieldVector vector : vectors) {
                        check(vector, withNulls);
                        // A slice that starts mid-byte of the validity bits and of the values.
                        TransferPair slice = vector.getTransferPair(allocator);
                        slice.splitAndTransfer(13, 500);
                        try (FieldVector sliced = (FieldVector) slice.getTo()) {
                            check(sliced, withNulls);
                        }
                    }
                } finally {
                    vectors.forEach(FieldVector::close);
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void bitAndNestedVectorsHaveNoColumnMemory() {
        try (BufferAllocator allocator = new RootAllocator();
                BitVector bits = new BitVector("b", allocator);
                ListVector list = ListVector.empty("l", allocator)) {
            bits.allocateNew(1);
            bits.setSafe(0, 1);
            bits.setValueCount(1);
            assertThat(ArrowColumnMemory.of(bits)).isEmpty();
            assertThat(ArrowColumnMemory.of(list)).isEmpty();
        }
    }

    @Test
    void rowViewConvertsTimeAndTimestampUnits() {
        try (BufferAllocator allocator = new RootAllocator();
                TimeSecVector seconds = new TimeSecVector("sec", allocator);
                TimeMicroVector micros = new TimeMicroVector("micro", allocator);
                TimeNanoVector nanos = new TimeNanoVector("nano", allocator);
                TimeStampNanoVector timestamps = new TimeStampNanoVector("ts", allocator);
                VarCharVector strings = new VarCharVector("s", allocator)) {
            seconds.setSafe(0, 3_723);
            micros.setSafe(0, 3_723_004_005L);
            nanos.setSafe(0, 3_723_004_005_006L);
            timestamps.setSafe(0, -1_500_000_001L); // 1969-12-31T23:59:58.499999999
            strings.setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
            for (FieldVector vector : List.<FieldVector>of(seconds, micros, nanos, timestamps, strings)) {
                vector.setValueCount(1);
            }
            try (VectorSchemaRoot batch = VectorSchemaRoot.of(seconds, micros, nanos, timestamps, strings)) {
                ArrowRowView view = new ArrowRowView(batch, new int[] {0, 1, 2, 3, 4, -1}).at(0);
                assertThat(view.getInt(0)).isEqualTo(3_723_000);
                assertThat(view.getInt(1)).isEqualTo(3_723_004);
                assertThat(view.getInt(2)).isEqualTo(3_723_004);
                assertThat(view.getTimestampNtz(3, 9)).isEqualTo(TimestampNtz.fromMillis(-1_501L, 999_999));
                assertThat(view.timestampCount(3)).isEqualTo(-1_500_000_001L);
                assertThatThrownBy(() -> view.getInt(4)).isInstanceOf(UnsupportedOperationException.class)
                        .hasMessageContaining("Field 's'").hasMessageContaining("cannot be viewed as int");
                assertThatThrownBy(() -> view.getString(0)).isInstanceOf(UnsupportedOperationException.class)
                        .hasMessageContaining("Field 'sec'");
                assertThatThrownBy(() -> view.isNullAt(5)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("Field 5 was not read");
            }
        }
    }

    private static List<FieldVector> filled(BufferAllocator allocator, Random random, boolean withNulls) {
        TinyIntVector bytes = new TinyIntVector("i8", allocator);
        SmallIntVector shorts = new SmallIntVector("i16", allocator);
        IntVector ints = new IntVector("i32", allocator);
        DateDayVector days = new DateDayVector("day", allocator);
        BigIntVector longs = new BigIntVector("i64", allocator);
        Float4Vector floats = new Float4Vector("f32", allocator);
        Float8Vector doubles = new Float8Vector("f64", allocator);
        TimeStampMicroVector timestamps = new TimeStampMicroVector("ts", allocator);
        VarCharVector strings = new VarCharVector("s", allocator);
        List<FieldVector> vectors = List.of(bytes, shorts, ints, days, longs, floats, doubles, timestamps, strings);
        for (int row = 0; row < ROWS; row++) {
            bytes.setSafe(row, (byte) random.nextInt());
            shorts.setSafe(row, (short) random.nextInt());
            ints.setSafe(row, random.nextInt());
            days.setSafe(row, random.nextInt(40_000) - 20_000);
            longs.setSafe(row, random.nextLong());
            floats.setSafe(row, random.nextFloat() * 1e6f - 5e5f);
            doubles.setSafe(row, random.nextGaussian() * 1e12);
            timestamps.setSafe(row, random.nextLong() / 1_000);
            strings.setSafe(row, ("é" + "x".repeat(random.nextInt(30)) + row).getBytes(StandardCharsets.UTF_8));
            if (withNulls) {
                for (FieldVector vector : vectors) {
                    if (random.nextInt(5) == 0) {
                        vector.setNull(row);
                    }
                }
            }
        }
        vectors.forEach(vector -> vector.setValueCount(ROWS));
        return new ArrayList<>(vectors);
    }

    private static void check(FieldVector vector, boolean withNulls) {
        ArrowColumnMemory column = ArrowColumnMemory.of(vector).orElseThrow();
        assertThat(column.hasNulls()).as(vector.getName()).isEqualTo(withNulls);
        for (int row = 0; row < vector.getValueCount(); row++) {
            assertThat(column.isNull(row)).as("%s row %s null", vector.getName(), row).isEqualTo(vector.isNull(row));
            if (vector.isNull(row)) {
                continue;
            }
            Object expected = vector.getObject(row);
            Object actual = switch (vector.getName()) {
                case "i8" -> column.getByte(row);
                case "i16" -> column.getShort(row);
                case "i32", "day" -> column.getInt(row);
                case "i64", "ts" -> column.getLong(row);
                case "f32" -> column.getFloat(row);
                case "f64" -> column.getDouble(row);
                case "s" -> {
                    byte[] bytes = new byte[column.end(row) - column.start(row)];
                    column.data().get(column.start(row), bytes);
                    yield new String(bytes, StandardCharsets.UTF_8);
                }
                default -> throw new IllegalStateException(vector.getName());
            };
            if (vector instanceof TimeStampMicroVector micros) {
                expected = micros.get(row);
            } else if (vector instanceof DateDayVector dates) {
                expected = dates.get(row);
            } else if (vector instanceof VarCharVector) {
                expected = expected.toString();
            }
            assertThat(actual).as("%s row %s", vector.getName(), row).isEqualTo(expected);
        }
    }
}
