package dev.riffle.gateway.rows;

import dev.riffle.core.types.ArrowTypeMapping;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;

/**
 * Reads Arrow cells as the values Fluss rows hold. An Arrow field fits a column when its Fluss
 * type (by {@link ArrowTypeMapping}) has the same kind: any string for CHAR and STRING, any binary
 * for BINARY and BYTES, any time unit for TIME and TIMESTAMP, a decimal of the same scale; nested
 * types element by element.
 */
final class ArrowValues {
    private ArrowValues() {}

    /** Fails with what is wrong when values of {@code field} cannot be written to a column of {@code column}. */
    static void checkFits(Field field, DataType column) {
        DataType given;
        try {
            given = ArrowTypeMapping.toFlussType(field);
        } catch (IllegalArgumentException e) {
            throw new BadValueException(e.getMessage());
        }
        if (!fits(given, column)) {
            throw new BadValueException("Arrow type " + field.getType() + " (Fluss " + given.copy(true)
                    + ") cannot be written to a column of type " + column);
        }
    }

    private static boolean fits(DataType given, DataType column) {
        DataTypeRoot g = given.getTypeRoot();
        DataTypeRoot c = column.getTypeRoot();
        switch (c) {
            case CHAR:
            case STRING:
                return g == DataTypeRoot.CHAR || g == DataTypeRoot.STRING;
            case BINARY:
            case BYTES:
                return g == DataTypeRoot.BINARY || g == DataTypeRoot.BYTES;
            case DECIMAL:
                return g == c && ((DecimalType) given).getScale() == ((DecimalType) column).getScale();
            case ARRAY:
                return g == c && fits(((ArrayType) given).getElementType(), ((ArrayType) column).getElementType());
            case MAP:
                return g == c && fits(((MapType) given).getKeyType(), ((MapType) column).getKeyType())
                        && fits(((MapType) given).getValueType(), ((MapType) column).getValueType());
            case ROW:
                if (g != c) {
                    return false;
                }
                RowType givenRow = (RowType) given;
                RowType columnRow = (RowType) column;
                if (!givenRow.getFieldNames().equals(columnRow.getFieldNames())) {
                    return false;
                }
                for (int i = 0; i < columnRow.getFieldCount(); i++) {
                    if (!fits(givenRow.getTypeAt(i), columnRow.getTypeAt(i))) {
                        return false;
                    }
                }
                return true;
            default:
                return g == c;
        }
    }

    /** The Fluss value of cell {@code index}, for a column of {@code type}; null for a null cell. */
    static Object toFluss(FieldVector vector, int index, DataType type) {
        if (vector.isNull(index)) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ((BitVector) vector).get(index) != 0;
            case TINYINT:
                return (byte) ((BaseIntVector) vector).getValueAsLong(index);
            case SMALLINT:
                return (short) ((BaseIntVector) vector).getValueAsLong(index);
            case INTEGER:
                return (int) ((BaseIntVector) vector).getValueAsLong(index);
            case BIGINT:
                return ((BaseIntVector) vector).getValueAsLong(index);
            case FLOAT:
                return ((Float4Vector) vector).get(index);
            case DOUBLE:
                return ((Float8Vector) vector).get(index);
            case DECIMAL:
                BigDecimal decimal = ((DecimalVector) vector).getObject(index);
                return JsonValues.decimal(decimal, (DecimalType) type);
            case CHAR:
            case STRING:
                return BinaryString.fromBytes(stringBytes(vector, index));
            case BINARY:
            case BYTES:
                return JsonValues.checkBinaryLength(binaryBytes(vector, index), type);
            case DATE:
                return ((DateDayVector) vector).get(index);
            case TIME_WITHOUT_TIME_ZONE:
                return timeMillis(vector, index);
            case TIMESTAMP_WITHOUT_TIME_ZONE: {
                long[] parts = timestampParts((TimeStampVector) vector, index);
                return TimestampNtz.fromMillis(parts[0], (int) parts[1]);
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                long[] parts = timestampParts((TimeStampVector) vector, index);
                return TimestampLtz.fromEpochMillis(parts[0], (int) parts[1]);
            }
            case ARRAY:
                return array((ListVector) vector, index, ((ArrayType) type).getElementType());
            case MAP:
                return map((MapVector) vector, index, (MapType) type);
            case ROW:
                return row((StructVector) vector, index, (RowType) type);
            default:
                throw new BadValueException("the gateway cannot write columns of type " + type);
        }
    }

    private static byte[] stringBytes(FieldVector vector, int index) {
        if (vector instanceof VarCharVector strings) {
            return strings.get(index);
        }
        return ((LargeVarCharVector) vector).get(index);
    }

    private static byte[] binaryBytes(FieldVector vector, int index) {
        if (vector instanceof VarBinaryVector binary) {
            return binary.get(index);
        }
        if (vector instanceof LargeVarBinaryVector large) {
            return large.get(index);
        }
        return ((FixedSizeBinaryVector) vector).get(index);
    }

    private static int timeMillis(FieldVector vector, int index) {
        if (vector instanceof TimeSecVector seconds) {
            return seconds.get(index) * 1000;
        }
        if (vector instanceof TimeMilliVector millis) {
            return millis.get(index);
        }
        if (vector instanceof TimeMicroVector micros) {
            return (int) (micros.get(index) / 1000);
        }
        return (int) (((TimeNanoVector) vector).get(index) / 1_000_000);
    }

    /** Epoch milliseconds and the nanoseconds within that millisecond. */
    private static long[] timestampParts(TimeStampVector vector, int index) {
        long value = vector.get(index);
        TimeUnit unit = ((ArrowType.Timestamp) vector.getField().getType()).getUnit();
        switch (unit) {
            case SECOND:
                return new long[] {value * 1000, 0};
            case MILLISECOND:
                return new long[] {value, 0};
            case MICROSECOND:
                return new long[] {Math.floorDiv(value, 1000), Math.floorMod(value, 1000) * 1000};
            default:
                return new long[] {Math.floorDiv(value, 1_000_000), Math.floorMod(value, 1_000_000)};
        }
    }

    private static GenericArray array(ListVector list, int index, DataType elementType) {
        FieldVector elements = list.getDataVector();
        int start = list.getElementStartIndex(index);
        Object[] values = new Object[list.getElementEndIndex(index) - start];
        for (int i = 0; i < values.length; i++) {
            values[i] = nested(elements, start + i, elementType, "[" + i + "]");
        }
        return new GenericArray(values);
    }

    private static GenericMap map(MapVector map, int index, MapType type) {
        List<FieldVector> entry = ((StructVector) map.getDataVector()).getChildrenFromFields();
        Map<Object, Object> values = new LinkedHashMap<>();
        for (int i = map.getElementStartIndex(index); i < map.getElementEndIndex(index); i++) {
            values.put(nested(entry.get(0), i, type.getKeyType(), "{key}"),
                    nested(entry.get(1), i, type.getValueType(), "{value}"));
        }
        return new GenericMap(values);
    }

    private static GenericRow row(StructVector struct, int index, RowType type) {
        GenericRow row = new GenericRow(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            String name = type.getFieldNames().get(i);
            row.setField(i, nested(struct.getChild(name), index, type.getTypeAt(i), "." + name));
        }
        return row;
    }

    private static Object nested(FieldVector vector, int index, DataType type, String path) {
        try {
            Object value = toFluss(vector, index, type);
            if (value == null && !type.isNullable()) {
                throw new BadValueException("null where " + type + " is required");
            }
            return value;
        } catch (BadValueException e) {
            throw new BadValueException("at " + path + ": " + e.getMessage());
        }
    }
}
