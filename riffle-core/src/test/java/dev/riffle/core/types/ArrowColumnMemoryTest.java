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
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.fluss.row.TimestampNtz;
import org.junit.jupiter.api.Test;

/**
 * {@link ArrowColumnMemory} reads what Arrow's own getters read: every fixed-width and string
 * vector, with and without nulls, whole and sliced at a row that is not on a byte of validity
 * bits; and {@link ArrowRowView}, which reads through it, converts TIME and TIMESTAMP units as
 * before and reads every kind of a batch read back from Arrow IPC (empty and all-null strings, a
 * batch without rows), and vectors never allocated.
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

    @Test
    void rowViewReadsEveryKindOfABatchReadBackFromIpc() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            byte[] ipc;
            try (TinyIntVector bytes = new TinyIntVector("i8", allocator);
                    SmallIntVector shorts = new SmallIntVector("i16", allocator);
                    Float4Vector floats = new Float4Vector("f32", allocator);
                    VarCharVector empty = new VarCharVector("empty", allocator);
                    VarCharVector nulls = new VarCharVector("nulls", allocator);
                    BitVector bits = new BitVector("b", allocator)) {
                for (int row = 0; row < 3; row++) {
                    bytes.setSafe(row, (byte) (row - 1));
                    shorts.setSafe(row, (short) (row * -1000));
                    floats.setSafe(row, row * 1.5f);
                    empty.setSafe(row, new byte[0]); // strings without a data byte
                    nulls.setNull(row);
                    bits.setSafe(row, row % 2);
                }
                List<FieldVector> vectors = List.of(bytes, shorts, floats, empty, nulls, bits);
                vectors.forEach(vector -> vector.setValueCount(3));
                java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
                try (VectorSchemaRoot root = new VectorSchemaRoot(vectors);
                        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, out)) {
                    writer.start();
                    writer.writeBatch();
                    root.setRowCount(0); // and a batch without rows
                    for (FieldVector vector : vectors) {
                        vector.setValueCount(0);
                    }
                    writer.writeBatch();
                    writer.end();
                }
                ipc = out.toByteArray();
            }
            try (ArrowStreamReader reader = new ArrowStreamReader(new java.io.ByteArrayInputStream(ipc), allocator)) {
                VectorSchemaRoot batch = reader.getVectorSchemaRoot();
                assertThat(reader.loadNextBatch()).isTrue();
                ArrowRowView view = new ArrowRowView(batch, new int[] {0, 1, 2, 3, 4, 5});
                for (int row = 0; row < 3; row++) {
                    view.at(row);
                    assertThat(view.getByte(0)).isEqualTo((byte) (row - 1));
                    assertThat(view.getShort(1)).isEqualTo((short) (row * -1000));
                    assertThat(view.getFloat(2)).isEqualTo(row * 1.5f);
                    assertThat(view.isNullAt(3)).isFalse();
                    assertThat(view.getString(3).getSizeInBytes()).isZero();
                    assertThat(view.isNullAt(4)).isTrue();
                    assertThat(view.getBoolean(5)).isEqualTo(row % 2 == 1);
                }
                assertThat(view.column(5)).as("bits are read through their vector").isEmpty();
                assertThat(reader.loadNextBatch()).isTrue();
                assertThat(batch.getRowCount()).isZero();
                assertThat(new ArrowRowView(batch, new int[] {0, 1, 2, 3, 4, 5}).column(3)).isPresent();
            }
            // Vectors never allocated: buffers of capacity 0.
            try (VarCharVector strings = new VarCharVector("s", allocator);
                    IntVector ints = new IntVector("i", allocator)) {
                strings.setValueCount(0);
                ints.setValueCount(0);
                assertThat(ArrowColumnMemory.of(strings)).isPresent();
                assertThat(ArrowColumnMemory.of(ints)).isPresent();
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
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
