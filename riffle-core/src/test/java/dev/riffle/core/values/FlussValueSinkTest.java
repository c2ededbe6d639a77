package dev.riffle.core.values;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.types.RowArrowWriter;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeParser;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.Test;

/** Arrow cells into Fluss values through the value layer: nested values rebuilt, misfits named by their place. */
class FlussValueSinkTest {

    @Test
    void nestedValuesComeBackWhole() {
        DataType type = DataTypeParser.parse("ROW<tags ARRAY<STRING>, weights MAP<INT, DOUBLE>>");
        Map<Object, Object> weights = new LinkedHashMap<>();
        weights.put(1, 0.5);
        weights.put(-2, null);
        GenericRow point = GenericRow.of(new GenericArray(new Object[] {BinaryString.fromString("a"), null}),
                new GenericMap(weights));

        InternalRow read = (InternalRow) readBack(type, point, type);

        InternalArray tags = read.getArray(0);
        assertThat(tags.size()).isEqualTo(2);
        assertThat(tags.getString(0).toString()).isEqualTo("a");
        assertThat(tags.isNullAt(1)).isTrue();
        InternalMap map = read.getMap(1);
        assertThat(map.size()).isEqualTo(2);
        assertThat(map.keyArray().getInt(0)).isEqualTo(1);
        assertThat(map.valueArray().getDouble(0)).isEqualTo(0.5);
        assertThat(map.keyArray().getInt(1)).isEqualTo(-2);
        assertThat(map.valueArray().isNullAt(1)).isTrue();
    }

    @Test
    void aNullWhereTheTargetForbidsOneIsRefusedWithItsPlace() {
        Object cell = new GenericArray(new Object[] {1, null});
        assertThatThrownBy(() -> readBack(DataTypeParser.parse("ARRAY<INT>"), cell,
                DataTypeParser.parse("ARRAY<INT NOT NULL>")))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("at [1]: null where INT NOT NULL is required");
    }

    @Test
    void decimalsAndIntegersMustFitTheTarget() {
        Decimal wide = Decimal.fromBigDecimal(new BigDecimal("12345.678"), 10, 3);
        assertThatThrownBy(() -> readBack(DataTypeParser.parse("DECIMAL(10, 3)"), wide,
                DataTypeParser.parse("DECIMAL(6, 3)")))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("DECIMAL(6, 3)");
        assertThatThrownBy(() -> readBack(DataTypeParser.parse("INT"), 300, DataTypeParser.parse("TINYINT")))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("TINYINT");
        assertThat(readBack(DataTypeParser.parse("INT"), 100, DataTypeParser.parse("TINYINT"))).isEqualTo((byte) 100);
    }

    /** Writes {@code value} as a one-row Arrow column of {@code written}, reads it into a sink of {@code target}. */
    private static Object readBack(DataType written, Object value, DataType target) {
        RowType rowType = RowType.of(new DataType[] {written}, new String[] {"c"});
        try (BufferAllocator allocator = new RootAllocator();
                RowArrowWriter writer = RowArrowWriter.create(rowType, allocator)) {
            writer.write(GenericRow.of(value));
            try (VectorSchemaRoot root = writer.finish()) {
                FlussValueSink sink = new FlussValueSink(target);
                ArrowValueReader.of(root.getVector(0)).read(0, sink);
                return sink.take();
            }
        }
    }
}
