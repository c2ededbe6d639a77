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
        Object value = keys.getObject(i);
        return value instanceof BigDecimal decimal ? decimal.toPlainString() : String.valueOf(value);
    }

    private static String timestamp(TimeStampVector vector, int row) {
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        long value = vector.get(row);
        long seconds;
        long nanos;
        TimeUnit unit = type.getUnit();
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
        return type.getTimezone() == null
                ? dateTime(LocalDateTime.ofInstant(instant, ZoneOffset.UTC))
                : instant.toString();
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
