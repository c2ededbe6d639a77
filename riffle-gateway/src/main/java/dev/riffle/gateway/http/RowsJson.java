package dev.riffle.gateway.http;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
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
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.fluss.row.DataGetters;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.BinaryType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimeType;
import org.apache.fluss.types.TimestampType;

/**
 * How rows look in JSON responses, decided in this one place: a row is an object of column
 * values; numbers and booleans stay JSON numbers and booleans (decimals exact, without exponent);
 * strings are strings; binary is base64; DATE is {@code "2024-06-01"}, TIME {@code "12:30:00.25"},
 * TIMESTAMP a local date-time {@code "2024-06-01T12:30:00.25"} and TIMESTAMP_LTZ an instant
 * {@code "2024-06-01T12:30:00.25Z"}; arrays are arrays, rows objects, and maps objects keyed by
 * the key's text. These are exactly the forms the write endpoints accept.
 */
public final class RowsJson {
    private RowsJson() {}

    /** Writes row {@code row} of {@code columns} as one JSON object. */
    public static void writeRow(JsonGenerator json, List<FieldVector> columns, int row) throws IOException {
        json.writeStartObject();
        for (FieldVector column : columns) {
            json.writeFieldName(column.getName());
            writeValue(json, column, row);
        }
        json.writeEndObject();
    }

    public static void writeValue(JsonGenerator json, FieldVector vector, int row) throws IOException {
        if (vector.isNull(row)) {
            json.writeNull();
        } else if (vector instanceof BitVector bits) {
            json.writeBoolean(bits.get(row) != 0);
        } else if (vector instanceof BaseIntVector ints && !(vector instanceof TimeStampVector)) {
            json.writeNumber(ints.getValueAsLong(row));
        } else if (vector instanceof Float4Vector floats) {
            writeDouble(json, floats.get(row));
        } else if (vector instanceof Float8Vector doubles) {
            writeDouble(json, doubles.get(row));
        } else if (vector instanceof DecimalVector decimals) {
            BigDecimal value = decimals.getObject(row);
            json.writeNumber(value);
        } else if (vector instanceof VarCharVector strings) {
            json.writeString(new String(strings.get(row), UTF_8));
        } else if (vector instanceof VarBinaryVector binary) {
            json.writeString(Base64.getEncoder().encodeToString(binary.get(row)));
        } else if (vector instanceof FixedSizeBinaryVector binary) {
            json.writeString(Base64.getEncoder().encodeToString(binary.get(row)));
        } else if (vector instanceof DateDayVector days) {
            json.writeString(LocalDate.ofEpochDay(days.get(row)).toString());
        } else if (vector instanceof TimeStampVector timestamps) {
            json.writeString(timestamp(timestamps, row));
        } else if (vector instanceof TimeSecVector seconds) {
            json.writeString(time(LocalTime.ofSecondOfDay(seconds.get(row))));
        } else if (vector instanceof TimeMilliVector millis) {
            json.writeString(time(LocalTime.ofNanoOfDay(millis.get(row) * 1_000_000L)));
        } else if (vector instanceof TimeMicroVector micros) {
            json.writeString(time(LocalTime.ofNanoOfDay(micros.get(row) * 1_000L)));
        } else if (vector instanceof TimeNanoVector nanos) {
            json.writeString(time(LocalTime.ofNanoOfDay(nanos.get(row))));
        } else if (vector instanceof MapVector map) { // before ListVector, which it extends
            writeMap(json, map, row);
        } else if (vector instanceof ListVector list) {
            json.writeStartArray();
            FieldVector elements = list.getDataVector();
            for (int i = list.getElementStartIndex(row); i < list.getElementEndIndex(row); i++) {
                writeValue(json, elements, i);
            }
            json.writeEndArray();
        } else if (vector instanceof StructVector struct) {
            json.writeStartObject();
            for (FieldVector child : struct.getChildrenFromFields()) {
                json.writeFieldName(child.getName());
                writeValue(json, child, row);
            }
            json.writeEndObject();
        } else {
            json.writeString(String.valueOf(vector.getObject(row)));
        }
    }

    /**
     * Writes a Fluss row of {@code type} as one JSON object: exactly what
     * {@link #writeRow(JsonGenerator, List, int)} writes for the same row converted to Arrow (with
     * {@code RowArrowWriter}), without building a batch. A point lookup answers one row, and a
     * one-row Arrow batch cost more than the rest of its rendering.
     */
    public static void writeRow(JsonGenerator json, InternalRow row, RowType type) throws IOException {
        json.writeStartObject();
        List<DataField> fields = type.getFields();
        for (int pos = 0; pos < fields.size(); pos++) {
            DataField field = fields.get(pos);
            json.writeFieldName(field.getName());
            writeValue(json, row, pos, field.getType());
        }
        json.writeEndObject();
    }

    private static void writeValue(JsonGenerator json, DataGetters source, int pos, DataType type)
            throws IOException {
        if (source.isNullAt(pos)) {
            json.writeNull();
            return;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN -> json.writeBoolean(source.getBoolean(pos));
            case TINYINT -> json.writeNumber(source.getByte(pos));
            case SMALLINT -> json.writeNumber(source.getShort(pos));
            case INTEGER -> json.writeNumber(source.getInt(pos));
            case BIGINT -> json.writeNumber(source.getLong(pos));
            case FLOAT -> writeDouble(json, source.getFloat(pos));
            case DOUBLE -> writeDouble(json, source.getDouble(pos));
            case DECIMAL -> json.writeNumber(decimal(source, pos, (DecimalType) type));
            case CHAR, STRING, BINARY, BYTES, DATE, TIME_WITHOUT_TIME_ZONE, TIMESTAMP_WITHOUT_TIME_ZONE,
                    TIMESTAMP_WITH_LOCAL_TIME_ZONE -> json.writeString(text(source, pos, type));
            case ARRAY -> {
                InternalArray array = source.getArray(pos);
                DataType element = ((ArrayType) type).getElementType();
                json.writeStartArray();
                for (int i = 0; i < array.size(); i++) {
                    writeValue(json, array, i, element);
                }
                json.writeEndArray();
            }
            case MAP -> {
                InternalMap map = source.getMap(pos);
                MapType mapType = (MapType) type;
                InternalArray keys = map.keyArray();
                InternalArray values = map.valueArray();
                json.writeStartObject();
                for (int i = 0; i < map.size(); i++) {
                    json.writeFieldName(keys.isNullAt(i) ? "null" : keyText(keys, i, mapType.getKeyType()));
                    writeValue(json, values, i, mapType.getValueType());
                }
                json.writeEndObject();
            }
            case ROW -> {
                List<DataField> fields = ((RowType) type).getFields();
                InternalRow nested = source.getRow(pos, fields.size());
                json.writeStartObject();
                for (int i = 0; i < fields.size(); i++) {
                    json.writeFieldName(fields.get(i).getName());
                    writeValue(json, nested, i, fields.get(i).getType());
                }
                json.writeEndObject();
            }
            default -> throw new IllegalArgumentException("No JSON form for Fluss type " + type);
        }
    }

    /** The JSON string of a value that JSON has no type for, and the text of a map key. */
    private static String text(DataGetters source, int pos, DataType type) {
        switch (type.getTypeRoot()) {
            case CHAR:
                // getChar strips the zero padding an IndexedRow keeps CHAR(n) in.
                return source.getChar(pos, ((CharType) type).getLength()).toString();
            case STRING:
                return source.getString(pos).toString();
            case BINARY:
                return Base64.getEncoder().encodeToString(source.getBinary(pos, ((BinaryType) type).getLength()));
            case BYTES:
                return Base64.getEncoder().encodeToString(source.getBytes(pos));
            case DATE:
                return LocalDate.ofEpochDay(source.getInt(pos)).toString();
            case TIME_WITHOUT_TIME_ZONE: {
                int millisOfDay = source.getInt(pos);
                return time(((TimeType) type).getPrecision() == 0
                        ? LocalTime.ofSecondOfDay(millisOfDay / 1000)
                        : LocalTime.ofNanoOfDay(millisOfDay * 1_000_000L));
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE: {
                int precision = ((TimestampType) type).getPrecision();
                TimestampNtz value = source.getTimestampNtz(pos, precision);
                return timestamp(epochCount(value.getMillisecond(), value.getNanoOfMillisecond(), precision),
                        unitOf(precision), false);
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int precision = ((LocalZonedTimestampType) type).getPrecision();
                TimestampLtz value = source.getTimestampLtz(pos, precision);
                return timestamp(epochCount(value.getEpochMillisecond(), value.getNanoOfMillisecond(), precision),
                        unitOf(precision), true);
            }
            default:
                throw new IllegalArgumentException("No JSON text form for Fluss type " + type);
        }
    }

    private static String keyText(InternalArray keys, int i, DataType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> Boolean.toString(keys.getBoolean(i));
            case TINYINT -> Byte.toString(keys.getByte(i));
            case SMALLINT -> Short.toString(keys.getShort(i));
            case INTEGER -> Integer.toString(keys.getInt(i));
            case BIGINT -> Long.toString(keys.getLong(i));
            case FLOAT -> Float.toString(keys.getFloat(i));
            case DOUBLE -> Double.toString(keys.getDouble(i));
            case DECIMAL -> decimal(keys, i, (DecimalType) type).toPlainString();
            default -> text(keys, i, type);
        };
    }

    private static BigDecimal decimal(DataGetters source, int pos, DecimalType type) {
        return source.getDecimal(pos, type.getPrecision(), type.getScale()).toBigDecimal();
    }

    /** The Arrow unit a time or timestamp of {@code precision} is read as (as ArrowTypeMapping maps it). */
    private static TimeUnit unitOf(int precision) {
        return precision == 0 ? TimeUnit.SECOND
                : precision <= 3 ? TimeUnit.MILLISECOND
                : precision <= 6 ? TimeUnit.MICROSECOND : TimeUnit.NANOSECOND;
    }

    /** Fluss's (epoch millisecond, nano of millisecond) as a count of {@link #unitOf}, as RowArrowWriter counts. */
    private static long epochCount(long epochMillisecond, int nanoOfMillisecond, int precision) {
        return switch (unitOf(precision)) {
            case SECOND -> epochMillisecond / 1_000;
            case MILLISECOND -> epochMillisecond;
            case MICROSECOND -> epochMillisecond * 1_000 + nanoOfMillisecond / 1_000;
            default -> epochMillisecond * 1_000_000 + nanoOfMillisecond;
        };
    }

    /** JSON has no NaN or infinities: they are written as the strings the write endpoints accept. */
    private static void writeDouble(JsonGenerator json, double value) throws IOException {
        if (Double.isFinite(value)) {
            json.writeNumber(value);
        } else {
            json.writeString(Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
        }
    }

    private static void writeMap(JsonGenerator json, MapVector map, int row) throws IOException {
        List<FieldVector> entry = ((StructVector) map.getDataVector()).getChildrenFromFields();
        FieldVector keys = entry.get(0);
        FieldVector values = entry.get(1);
        json.writeStartObject();
        for (int i = map.getElementStartIndex(row); i < map.getElementEndIndex(row); i++) {
            json.writeFieldName(keyText(keys, i));
            writeValue(json, values, i);
        }
        json.writeEndObject();
    }

    private static String keyText(FieldVector keys, int i) {
        if (keys instanceof VarCharVector strings) {
            return new String(strings.get(i), UTF_8);
        }
        if (keys instanceof BaseIntVector ints && !(keys instanceof TimeStampVector)) {
            return Long.toString(ints.getValueAsLong(i));
        }
        if (keys instanceof TimeStampVector timestamps) {
            return timestamp(timestamps, i);
        }
        if (keys instanceof DateDayVector days) {
            return LocalDate.ofEpochDay(days.get(i)).toString();
        }
        if (keys instanceof VarBinaryVector binary) {
            return Base64.getEncoder().encodeToString(binary.get(i));
        }
        if (keys instanceof FixedSizeBinaryVector binary) {
            return Base64.getEncoder().encodeToString(binary.get(i));
        }
        if (keys instanceof TimeSecVector seconds) {
            return time(LocalTime.ofSecondOfDay(seconds.get(i)));
        }
        if (keys instanceof TimeMilliVector millis) {
            return time(LocalTime.ofNanoOfDay(millis.get(i) * 1_000_000L));
        }
        if (keys instanceof TimeMicroVector micros) {
            return time(LocalTime.ofNanoOfDay(micros.get(i) * 1_000L));
        }
        if (keys instanceof TimeNanoVector nanos) {
            return time(LocalTime.ofNanoOfDay(nanos.get(i)));
        }
        Object value = keys.getObject(i);
        return value instanceof BigDecimal decimal ? decimal.toPlainString() : String.valueOf(value);
    }

    private static String timestamp(TimeStampVector vector, int row) {
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        return timestamp(vector.get(row), type.getUnit(), type.getTimezone() != null);
    }

    /** A count of {@code unit} since the epoch: a local date-time, or with {@code zoned} an instant. */
    private static String timestamp(long value, TimeUnit unit, boolean zoned) {
        long seconds;
        long nanos;
        switch (unit) {
            case SECOND:
                seconds = value;
                nanos = 0;
                break;
            case MILLISECOND:
                seconds = Math.floorDiv(value, 1000L);
                nanos = Math.floorMod(value, 1000L) * 1_000_000L;
                break;
            case MICROSECOND:
                seconds = Math.floorDiv(value, 1_000_000L);
                nanos = Math.floorMod(value, 1_000_000L) * 1000L;
                break;
            default:
                seconds = Math.floorDiv(value, 1_000_000_000L);
                nanos = Math.floorMod(value, 1_000_000_000L);
                break;
        }
        Instant instant = Instant.ofEpochSecond(seconds, nanos);
        return zoned ? instant.toString() : dateTime(LocalDateTime.ofInstant(instant, ZoneOffset.UTC));
    }

    /**
     * A time as {@code java.time} prints instants: seconds always ({@code 12:30:00}, not
     * {@code 12:30}), a fraction in groups of three digits when there is one ({@code 12:30:00.250}).
     */
    private static String time(LocalTime time) {
        StringBuilder text = new StringBuilder(18);
        text.append(two(time.getHour())).append(':').append(two(time.getMinute())).append(':')
                .append(two(time.getSecond()));
        int nanos = time.getNano();
        if (nanos != 0) {
            String digits = Integer.toString(1_000_000_000 + nanos).substring(1);
            int keep = nanos % 1_000_000 == 0 ? 3 : nanos % 1_000 == 0 ? 6 : 9;
            text.append('.').append(digits, 0, keep);
        }
        return text.toString();
    }

    private static String dateTime(LocalDateTime dateTime) {
        return dateTime.toLocalDate() + "T" + time(dateTime.toLocalTime());
    }

    private static String two(int value) {
        return value < 10 ? "0" + value : Integer.toString(value);
    }
}
