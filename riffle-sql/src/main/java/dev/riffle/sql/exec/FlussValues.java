package dev.riffle.sql.exec;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.values.FlussValueSink;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimestampType;

/**
 * Fluss's internal values for Calcite's Java values: key values and filter constants (literals or
 * bound parameters) on their way to Fluss, and the rows SQL writes. The other direction is the
 * value layer's ({@code CalciteValueSink}).
 *
 * <p>Timestamps come as Calcite's milliseconds, or with every digit ({@link ExactTimestamp#of}: a
 * literal's {@code TimestampString}, a parameter's {@code LocalDateTime}). A value written to a
 * column keeps the digits the column's precision holds and loses the others, as a SQL cast to the
 * column's type does ({@link #toFluss}); a value compared with a column keeps them all
 * ({@link #comparand}), so that {@code ts = TIMESTAMP '... .1234567'} holds for no
 * {@code TIMESTAMP(6)} value.
 */
public final class FlussValues {
    private FlussValues() {}

    /**
     * Fluss's internal value for a Calcite value (a literal or a JDBC parameter, which may come as
     * another number class or as a string); null stays null.
     *
     * @throws IllegalArgumentException when the value does not fit the column's type
     */
    public static Object toFluss(Object value, DataType type, String column) {
        return convert(value, type, column, true);
    }

    /**
     * Fluss's internal value for a constant compared with a column of {@code type}: as
     * {@link #toFluss}, but a timestamp keeps every fractional digit, even those the column cannot
     * hold (Fluss compares timestamps to the nanosecond).
     */
    static Object comparand(Object value, DataType type, String column) {
        return convert(value, type, column, false);
    }

    /**
     * Whether a column of {@code type} can hold the constant exactly: false for a timestamp with
     * more fractional digits than the column's precision, which equals none of its values.
     */
    static boolean holds(Object value, DataType type) {
        if (value == null || !isTimestamp(type)) {
            return true;
        }
        return ExactTimestamp.of(value).map(ts -> ts.digits() <= precision(type)).orElse(true);
    }

    private static Object convert(Object value, DataType type, String column, boolean toColumn) {
        if (value == null) {
            return null;
        }
        try {
            return switch (type.getTypeRoot()) {
                case BOOLEAN -> value instanceof Boolean b ? b : Boolean.parseBoolean(value.toString());
                case TINYINT -> (byte) inRange(exactLong(value), Byte.MIN_VALUE, Byte.MAX_VALUE);
                case SMALLINT -> (short) inRange(exactLong(value), Short.MIN_VALUE, Short.MAX_VALUE);
                case INTEGER -> Math.toIntExact(exactLong(value));
                case BIGINT -> exactLong(value);
                case FLOAT -> value instanceof Number n ? n.floatValue() : Float.parseFloat(value.toString());
                case DOUBLE -> value instanceof Number n ? n.doubleValue() : Double.parseDouble(value.toString());
                case CHAR, STRING -> BinaryString.fromString(value.toString());
                case BINARY, BYTES -> value instanceof ByteString bytes ? bytes.getBytes() : (byte[]) value;
                case DECIMAL -> decimalOf(decimal(value), (DecimalType) type);
                case DATE, TIME_WITHOUT_TIME_ZONE -> Math.toIntExact(temporal(value));
                case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> timestamp(value, type, toColumn);
                case ARRAY -> {
                    DataType elementType = ((ArrayType) type).getElementType();
                    List<?> list = (List<?>) value;
                    Object[] elements = new Object[list.size()];
                    for (int i = 0; i < elements.length; i++) {
                        elements[i] = element(list.get(i), elementType, column);
                    }
                    yield new GenericArray(elements);
                }
                case MAP -> {
                    MapType mapType = (MapType) type;
                    Map<Object, Object> map = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                        map.put(element(entry.getKey(), mapType.getKeyType(), column),
                                element(entry.getValue(), mapType.getValueType(), column));
                    }
                    yield new GenericMap(map);
                }
                case ROW -> {
                    RowType rowType = (RowType) type;
                    Object[] fields = value instanceof List<?> list ? list.toArray() : (Object[]) value;
                    GenericRow nested = new GenericRow(rowType.getFieldCount());
                    for (int i = 0; i < fields.length; i++) {
                        nested.setField(i, element(fields[i], rowType.getTypeAt(i), column));
                    }
                    yield nested;
                }
                default -> throw new IllegalArgumentException("values of type " + type + " are not supported in SQL yet");
            };
        } catch (ArithmeticException | ClassCastException | NumberFormatException e) {
            throw new IllegalArgumentException("Value " + value + " (" + value.getClass().getSimpleName()
                    + ") does not fit column " + column + " of type " + type, e);
        }
    }

    private static Object element(Object value, DataType type, String column) {
        Object fluss = toFluss(value, type, column);
        if (fluss == null && !type.isNullable()) {
            throw new InvalidValueException("column " + column + " holds " + type + ", which has no room for NULL");
        }
        return fluss;
    }

    private static long inRange(long value, long min, long max) {
        if (value < min || value > max) {
            throw new ArithmeticException("out of range [" + min + ", " + max + "]");
        }
        return value;
    }

    private static long exactLong(Object value) {
        if (value instanceof BigDecimal d) {
            return d.longValueExact();
        }
        if (value instanceof Double || value instanceof Float) {
            return new BigDecimal(value.toString()).longValueExact();
        }
        if (value instanceof Number n) {
            return n.longValue();
        }
        return Long.parseLong(value.toString().trim());
    }

    /**
     * The value at the column's scale (rounded half up, as a SQL cast to the column's type does);
     * Fluss answers a value with more digits than the precision with null, which would be written
     * as NULL, so that is an error here.
     */
    private static Decimal decimalOf(BigDecimal value, DecimalType type) {
        Decimal decimal = Decimal.fromBigDecimal(value, type.getPrecision(), type.getScale());
        if (decimal == null) {
            throw new ArithmeticException("more than " + (type.getPrecision() - type.getScale())
                    + " digits before the decimal point");
        }
        return decimal;
    }

    private static BigDecimal decimal(Object value) {
        return value instanceof BigDecimal d ? d : new BigDecimal(value.toString().trim());
    }

    /** Through the value layer's sink, the one place Fluss timestamps are made. */
    private static Object timestamp(Object value, DataType type, boolean toColumn) {
        ExactTimestamp exact = ExactTimestamp.of(value).orElseThrow(() -> new ClassCastException(
                "not a timestamp"));
        if (toColumn) {
            exact = exact.truncatedTo(precision(type));
        }
        FlussValueSink sink = new FlussValueSink(type);
        if (type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
            sink.timestampValue(exact.epochSecond(), exact.nanoOfSecond());
        } else {
            sink.instantValue(exact.epochSecond(), exact.nanoOfSecond());
        }
        return sink.take();
    }

    private static boolean isTimestamp(DataType type) {
        return type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                || type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static int precision(DataType type) {
        return type instanceof TimestampType ntz ? ntz.getPrecision() : ((LocalZonedTimestampType) type).getPrecision();
    }

    private static long temporal(Object value) {
        if (value instanceof java.sql.Date date) {
            return Math.floorDiv(date.getTime(), 86_400_000L);
        }
        if (value instanceof java.util.Calendar cal) {
            return cal.getTimeInMillis();
        }
        return ((Number) value).longValue();
    }
}
