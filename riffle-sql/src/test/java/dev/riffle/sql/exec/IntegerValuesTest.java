package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.junit.jupiter.api.Test;

/**
 * {@link IntegerValues} reads every integer vector the aggregates read by memory as Arrow's own
 * getters do (signs, extremes, nulls), and a batch of another vector type through its Calcite values.
 */
class IntegerValuesTest {

    @Test
    void everyIntegerVectorReadsAsItsGetterDoes() {
        long[] values = {0, 1, -1, 42, -42, 127, -128, 32_767, -32_768, Integer.MAX_VALUE, Integer.MIN_VALUE,
            Long.MAX_VALUE, Long.MIN_VALUE};
        try (BufferAllocator allocator = new RootAllocator()) {
            List<FieldVector> vectors = new ArrayList<>();
            try {
                TinyIntVector bytes = new TinyIntVector("i8", allocator);
                SmallIntVector shorts = new SmallIntVector("i16", allocator);
                IntVector ints = new IntVector("i32", allocator);
                DateDayVector days = new DateDayVector("day", allocator);
                BigIntVector longs = new BigIntVector("i64", allocator);
                vectors.addAll(List.of(bytes, shorts, ints, days, longs));
                for (int row = 0; row < values.length; row++) {
                    bytes.setSafe(row, (byte) values[row]);
                    shorts.setSafe(row, (short) values[row]);
                    ints.setSafe(row, (int) values[row]);
                    days.setSafe(row, (int) values[row]);
                    longs.setSafe(row, values[row]);
                }
                for (FieldVector vector : vectors) {
                    vector.setNull(values.length); // and a null last
                    vector.setValueCount(values.length + 1);
                }
                for (FieldVector vector : vectors) {
                    IntegerValues read = IntegerValues.of(vector);
                    for (int row = 0; row <= values.length; row++) {
                        assertThat(read.isNull(row)).as("%s row %s null", vector.getName(), row).isEqualTo(vector.isNull(row));
                        if (!vector.isNull(row)) {
                            Object expected = vector.getObject(row);
                            long number = expected instanceof LocalDate date ? date.toEpochDay()
                                    : ((Number) expected).longValue();
                            assertThat(read.get(row)).as("%s row %s", vector.getName(), row).isEqualTo(number);
                        }
                    }
                }
            } finally {
                vectors.forEach(FieldVector::close);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aBatchOfAnotherVectorTypeIsReadThroughItsCalciteValues() {
        try (BufferAllocator allocator = new RootAllocator();
                DecimalVector decimals = new DecimalVector("d", allocator, 20, 0)) {
            decimals.allocateNew();
            decimals.setSafe(0, new BigDecimal("-9000000000"));
            decimals.setNull(1);
            decimals.setValueCount(2);
            IntegerValues read = IntegerValues.of(decimals);
            assertThat(read.isNull(0)).isFalse();
            assertThat(read.get(0)).isEqualTo(-9_000_000_000L);
            assertThat(read.isNull(1)).isTrue();
        }
    }
}
