package dev.riffle.core.log;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;

/**
 * Reads Arrow values back into the plain Java values {@link EveryType} generates, so decoded
 * batches compare with what was written by {@code equals}. Byte arrays become hex strings on both
 * sides ({@link #comparable}), since arrays compare by identity.
 */
final class ArrowValues {
    private ArrowValues() {}

    /** Every row of {@code root}, comparable with {@link #comparable(List)} of what was written. */
    static List<List<Object>> rows(VectorSchemaRoot root, RowType rowType) {
        List<List<Object>> rows = new ArrayList<>(root.getRowCount());
        for (int row = 0; row < root.getRowCount(); row++) {
            List<Object> values = new ArrayList<>(rowType.getFieldCount());
            for (int field = 0; field < rowType.getFieldCount(); field++) {
                values.add(comparable(value(root.getVector(field), row, rowType.getTypeAt(field))));
            }
            rows.add(values);
        }
        return rows;
    }

    static List<List<Object>> comparable(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            List<Object> values = new ArrayList<>(row.size());
            row.forEach(value -> values.add(comparable(value)));
            out.add(values);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Object comparable(Object value) {
        if (value instanceof byte[] bytes) {
            return "0x" + HexFormat.of().formatHex(bytes);
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(comparable(v)));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            ((Map<Object, Object>) map).forEach((k, v) -> out.put(comparable(k), comparable(v)));
            return out;
        }
        return value;
    }

    private static Object value(ValueVector vector, int index, DataType type) {
        if (vector.isNull(index)) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ((BitVector) vector).get(index) == 1;
            case TINYINT:
                return ((TinyIntVector) vector).get(index);
            case SMALLINT:
                return ((SmallIntVector) vector).get(index);
            case INTEGER:
                return ((IntVector) vector).get(index);
            case BIGINT:
                return ((BigIntVector) vector).get(index);
            case FLOAT:
                return ((Float4Vector) vector).get(index);
            case DOUBLE:
                return ((Float8Vector) vector).get(index);
            case DECIMAL:
                return ((DecimalVector) vector).getObject(index);
            case CHAR:
            case STRING:
                return new String(((VarCharVector) vector).get(index), StandardCharsets.UTF_8);
            case BINARY:
                return ((FixedSizeBinaryVector) vector).get(index);
            case BYTES:
                return ((VarBinaryVector) vector).get(index);
            case DATE:
                return LocalDate.ofEpochDay(((DateDayVector) vector).get(index));
            case TIME_WITHOUT_TIME_ZONE:
                return time(vector, index);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return LocalDateTime.ofInstant(instant((TimeStampVector) vector, index), ZoneOffset.UTC);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return instant((TimeStampVector) vector, index);
            case ARRAY:
                return list((ListVector) vector, index, ((ArrayType) type).getElementType());
            case MAP:
                return map((MapVector) vector, index, (MapType) type);
            case ROW:
                StructVector struct = (StructVector) vector;
                RowType rowType = (RowType) type;
                List<Object> fields = new ArrayList<>(rowType.getFieldCount());
                for (int field = 0; field < rowType.getFieldCount(); field++) {
                    fields.add(value(struct.getChildByOrdinal(field), index, rowType.getTypeAt(field)));
                }
                return fields;
            default:
                throw new IllegalArgumentException("No reader for " + type);
        }
    }

    private static LocalTime time(ValueVector vector, int index) {
        if (vector instanceof TimeSecVector seconds) {
            return LocalTime.ofSecondOfDay(seconds.get(index));
        }
        if (vector instanceof TimeMilliVector millis) {
            return LocalTime.ofNanoOfDay(millis.get(index) * 1_000_000L);
        }
        if (vector instanceof TimeMicroVector micros) {
            return LocalTime.ofNanoOfDay(micros.get(index) * 1_000L);
        }
        return LocalTime.ofNanoOfDay(((TimeNanoVector) vector).get(index));
    }

    private static Instant instant(TimeStampVector vector, int index) {
        long value = vector.get(index);
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        switch (type.getUnit()) {
            case SECOND:
                return Instant.ofEpochSecond(value);
            case MILLISECOND:
                return Instant.ofEpochMilli(value);
            case MICROSECOND:
                return Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000L), Math.floorMod(value, 1_000_000L) * 1_000L);
            default:
                return Instant.ofEpochSecond(Math.floorDiv(value, 1_000_000_000L), Math.floorMod(value, 1_000_000_000L));
        }
    }

    private static List<Object> list(ListVector vector, int index, DataType elementType) {
        FieldVector elements = vector.getDataVector();
        List<Object> values = new ArrayList<>();
        for (int i = vector.getElementStartIndex(index); i < vector.getElementEndIndex(index); i++) {
            values.add(value(elements, i, elementType));
        }
        return values;
    }

    private static Map<Object, Object> map(MapVector vector, int index, MapType type) {
        StructVector entries = (StructVector) vector.getDataVector();
        Map<Object, Object> values = new LinkedHashMap<>();
        for (int i = vector.getElementStartIndex(index); i < vector.getElementEndIndex(index); i++) {
            values.put(value(entries.getChildByOrdinal(0), i, type.getKeyType()),
                    value(entries.getChildByOrdinal(1), i, type.getValueType()));
        }
        return values;
    }
}
