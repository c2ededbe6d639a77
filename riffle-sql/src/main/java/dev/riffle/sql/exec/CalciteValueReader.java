package dev.riffle.sql.exec;

import dev.riffle.core.values.ValueSink;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimestampType;

/**
 * Reads Calcite's Java values into the value layer ({@link ValueSink}): the other direction of
 * {@link CalciteValueSink}. A value is a literal's or a bound parameter's, so a number may come as
 * any number class or as its text, a timestamp as anything {@link ExactTimestamp#of} takes, DATE
 * and TIME as Calcite's days and milliseconds, binary as a {@link ByteString} or bytes, ARRAY, MAP
 * and ROW as a {@code List}, a {@code Map} and a {@code List} or {@code Object[]}.
 *
 * <p>SQL's own rules are kept here, as a cast to the column's type has them: whole numbers exact
 * and within the column's range, decimals rounded half up to the column's scale, timestamps cut
 * to the column's precision (unless compared rather than written). A value that breaks them fails
 * with the {@link ArithmeticException}, {@link NumberFormatException} or
 * {@link ClassCastException} that says why (PostgreSQL's port answers each with its own SQLSTATE);
 * the sink ({@code FlussValueSink}) makes Fluss's values and checks the rest.
 *
 * <pre>{@code
 * FlussValueSink sink = new FlussValueSink(DataTypes.DECIMAL(5, 2));
 * CalciteValueReader.read(new BigDecimal("1.235"), DataTypes.DECIMAL(5, 2), true, sink);
 * Object value = sink.take();   // the Decimal 1.24
 * }</pre>
 */
final class CalciteValueReader {
    private CalciteValueReader() {}

    /**
     * Reads {@code value}, for a column of {@code type}, into {@code sink}; null as NULL.
     *
     * @param toColumn the value is written to the column: a timestamp keeps the digits the
     *     column's precision holds (compared with the column, it keeps them all)
     */
    static void read(Object value, DataType type, boolean toColumn, ValueSink sink) {
        if (value == null) {
            sink.nullValue();
            return;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN -> sink.booleanValue(value instanceof Boolean b ? b : Boolean.parseBoolean(value.toString()));
            case TINYINT -> sink.integerValue(inRange(exactLong(value), Byte.MIN_VALUE, Byte.MAX_VALUE));
            case SMALLINT -> sink.integerValue(inRange(exactLong(value), Short.MIN_VALUE, Short.MAX_VALUE));
            case INTEGER -> sink.integerValue(Math.toIntExact(exactLong(value)));
            case BIGINT -> sink.integerValue(exactLong(value));
            case FLOAT -> sink.floatValue(value instanceof Number n ? n.floatValue() : Float.parseFloat(value.toString()));
            case DOUBLE -> sink.doubleValue(value instanceof Number n ? n.doubleValue()
                    : Double.parseDouble(value.toString()));
            case CHAR, STRING -> sink.stringValue(value.toString());
            case BINARY, BYTES -> sink.binaryValue(value instanceof ByteString bytes ? bytes.getBytes() : (byte[]) value);
            case DECIMAL -> sink.decimalValue(atScale(value, (DecimalType) type));
            case DATE -> sink.dateValue(Math.toIntExact(temporal(value)));
            // Calcite keeps TIME in milliseconds of the day
            case TIME_WITHOUT_TIME_ZONE -> sink.timeValue(Math.toIntExact(temporal(value)) * 1_000_000L);
            case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                ExactTimestamp exact = timestamp(value, ((TimestampType) type).getPrecision(), toColumn);
                sink.timestampValue(exact.epochSecond(), exact.nanoOfSecond());
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                ExactTimestamp exact = timestamp(value, ((LocalZonedTimestampType) type).getPrecision(), toColumn);
                sink.instantValue(exact.epochSecond(), exact.nanoOfSecond());
            }
            case ARRAY -> {
                List<?> list = (List<?>) value;
                sink.startArray(list.size());
                for (Object element : list) {
                    read(element, ((ArrayType) type).getElementType(), toColumn, sink);
                }
                sink.endArray();
            }
            case MAP -> {
                MapType mapType = (MapType) type;
                Map<?, ?> map = (Map<?, ?>) value;
                sink.startMap(map.size());
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    read(entry.getKey(), mapType.getKeyType(), toColumn, sink);
                    read(entry.getValue(), mapType.getValueType(), toColumn, sink);
                }
                sink.endMap();
            }
            case ROW -> {
                RowType rowType = (RowType) type;
                Object[] fields = value instanceof List<?> list ? list.toArray() : (Object[]) value;
                sink.startRow(fields.length);
                for (int i = 0; i < fields.length; i++) {
                    sink.fieldName(rowType.getFieldNames().get(i));
                    read(fields[i], rowType.getTypeAt(i), toColumn, sink);
                }
                sink.endRow();
            }
            default -> throw new IllegalArgumentException("values of type " + type + " are not supported in SQL yet");
        }
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
     * The value at the column's scale, rounded half up as a SQL cast to the column's type rounds
     * it; more digits before the point than the type keeps fail here (Fluss would answer such a
     * value with null, which would be written as NULL).
     */
    private static BigDecimal atScale(Object value, DecimalType type) {
        BigDecimal decimal = value instanceof BigDecimal d ? d : new BigDecimal(value.toString().trim());
        BigDecimal scaled = decimal.setScale(type.getScale(), RoundingMode.HALF_UP);
        if (scaled.precision() - scaled.scale() > type.getPrecision() - type.getScale()) {
            throw new ArithmeticException("more than " + (type.getPrecision() - type.getScale())
                    + " digits before the decimal point");
        }
        return scaled;
    }

    private static ExactTimestamp timestamp(Object value, int precision, boolean toColumn) {
        ExactTimestamp exact = ExactTimestamp.of(value).orElseThrow(() -> new ClassCastException("not a timestamp"));
        return toColumn ? exact.truncatedTo(precision) : exact;
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
