package dev.riffle.core.reader;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Picked rows copied buffer to buffer: the same values, nulls included, as Arrow's own per-value copy gives. */
class SelectedRowsTest {
    @Test
    void pickedRowsKeepTheirValuesAndNullsInEveryKindOfColumn() {
        int rows = 5_000;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = batch(allocator, rows)) {
            int[] picked = new int[rows];
            int count = 0;
            for (int row = rows - 1; row >= 0; row -= 3) {
                picked[count++] = row;
            }
            picked[count++] = 0;
            picked[count++] = 0;
            int[] columns = {4, 0, 1, 2, 3};
            List<Field> fields = new ArrayList<>();
            for (int column : columns) {
                fields.add(batch.getSchema().getFields().get(column));
            }
            try (VectorSchemaRoot copy = SelectedRows.copy(batch, columns, new Schema(fields), picked, count, allocator)) {
                assertThat(copy.getRowCount()).isEqualTo(count);
                for (int i = 0; i < count; i++) {
                    for (int c = 0; c < columns.length; c++) {
                        assertThat(copy.getVector(c).getObject(i)).as("row %d column %d", picked[i], columns[c])
                                .isEqualTo(batch.getVector(columns[c]).getObject(picked[i]));
                    }
                }
                assertThat(copy.getVector(1).getNullCount()).isPositive();
            }
            try (VectorSchemaRoot none = SelectedRows.copy(batch, columns, new Schema(fields), picked, 0, allocator)) {
                assertThat(none.getRowCount()).isZero();
            }
        }
    }

    private static VectorSchemaRoot batch(BufferAllocator allocator, int rows) {
        VarCharVector text = new VarCharVector("text", allocator);
        IntVector ints = new IntVector("int", allocator);
        BigIntVector longs = new BigIntVector("bigint", allocator);
        DecimalVector decimals = new DecimalVector("decimal", allocator, 12, 3);
        BitVector bits = new BitVector("flag", allocator);
        List<FieldVector> vectors = List.of(text, ints, longs, decimals, bits);
        vectors.forEach(FieldVector::allocateNew);
        for (int row = 0; row < rows; row++) {
            if (row % 7 == 1) {
                text.setNull(row);
                ints.setNull(row);
                longs.setNull(row);
                decimals.setNull(row);
                bits.setNull(row);
                continue;
            }
            text.setSafe(row, ("value-" + "z".repeat(row % 13) + row).getBytes(StandardCharsets.UTF_8));
            ints.setSafe(row, row * 31 - 7);
            longs.setSafe(row, (long) row << 35);
            decimals.setSafe(row, BigDecimal.valueOf(row * 1_001L - 500, 3));
            bits.setSafe(row, row % 2);
        }
        vectors.forEach(v -> v.setValueCount(rows));
        return new VectorSchemaRoot(vectors);
    }
}
