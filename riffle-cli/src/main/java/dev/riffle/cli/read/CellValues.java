package dev.riffle.cli.read;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Base64;
import java.util.List;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * How one Arrow cell looks in CSV and JSON output: the single place that decides it, so both
 * formats agree. Numbers and booleans stay numbers and booleans (decimals without exponent),
 * strings are text, binary is base64, dates, times and timestamps are ISO-8601 (timestamps with
 * a zone as instants, {@code 2024-06-01T00:00:00Z}; without one as local date-times), and lists,
 * maps and structs are JSON arrays and objects.
 *
 * <p>The type comes from the vector, not from {@code getObject}: Arrow's Java objects are not what
 * users should see (a date is an {@code Integer}, a zoned timestamp a {@code Long}).
 */
final class CellValues {
    /** Decimals as plain numbers: {@code 0.00000001}, not {@code 1E-8}. */
    static final JsonFactory JSON = JsonFactory.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

    private static final Base64.Encoder BASE64 = Base64.getEncoder();

    private CellValues() {}

    /** The cell as text, {@code null} for a null cell; nested values are JSON text. */
    static String text(FieldVector vector, int row) {
        if (vector.isNull(row)) {
            return null;
        }
        if (isNested(vector)) {
            StringWriter json = new StringWriter();
            try (JsonGenerator generator = JSON.createGenerator(json)) {
                writeJson(generator, vector, row);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot render " + vector.getName() + " as JSON", e); // a StringWriter does not fail
            }
            return json.toString();
        }
        return scalarText(vector, row);
    }

    /** Writes the cell as one JSON value. */
    static void writeJson(JsonGenerator json, FieldVector vector, int row) throws IOException {
        if (vector.isNull(row)) {
            json.writeNull();
        } else if (vector instanceof BitVector bits) {
            json.writeBoolean(bits.get(row) != 0);
        } else if (vector instanceof BaseIntVector ints) {
            json.writeNumber(ints.getValueAsLong(row));
        } else if (vector instanceof Float4Vector floats) {
            json.writeNumber(floats.get(row));
        } else if (vector instanceof Float8Vector doubles) {
            json.writeNumber(doubles.get(row));
        } else if (vector.getField().getType() instanceof ArrowType.Decimal) {
            json.writeNumber((BigDecimal) vector.getObject(row));
        } else if (vector instanceof MapVector map) { // before ListVector, which it extends
            writeMap(json, map, row);
        } else if (vector instanceof ListVector list) {
            json.writeStartArray();
            FieldVector elements = list.getDataVector();
            for (int i = list.getElementStartIndex(row); i < list.getElementEndIndex(row); i++) {
                writeJson(json, elements, i);
            }
            json.writeEndArray();
        } else if (vector instanceof StructVector struct) {
            json.writeStartObject();
            for (FieldVector child : struct.getChildrenFromFields()) {
                json.writeFieldName(child.getName());
                writeJson(json, child, row);
            }
            json.writeEndObject();
        } else {
            json.writeString(scalarText(vector, row));
        }
    }

    /** Maps become objects: JSON has no other map, and Fluss map keys are never null. */
    private static void writeMap(JsonGenerator json, MapVector map, int row) throws IOException {
        List<FieldVector> entry = ((StructVector) map.getDataVector()).getChildrenFromFields();
        FieldVector keys = entry.get(0);
        FieldVector values = entry.get(1);
        json.writeStartObject();
        for (int i = map.getElementStartIndex(row); i < map.getElementEndIndex(row); i++) {
            json.writeFieldName(String.valueOf(text(keys, i)));
            writeJson(json, values, i);
        }
        json.writeEndObject();
    }

    private static boolean isNested(FieldVector vector) {
        return vector instanceof ListVector || vector instanceof StructVector;
    }

    private static String scalarText(FieldVector vector, int row) {
        if (vector instanceof VarCharVector strings) {
            return new String(strings.get(row), UTF_8);
        }
        if (vector instanceof BitVector bits) {
            return bits.get(row) != 0 ? "true" : "false";
        }
        if (vector instanceof BaseIntVector ints) {
            return Long.toString(ints.getValueAsLong(row));
        }
        if (vector instanceof TimeStampVector timestamps) {
            return timestamp(timestamps, row);
        }
        if (vector instanceof DateDayVector days) {
            return LocalDate.ofEpochDay(days.get(row)).toString();
        }
        if (vector instanceof DateMilliVector millis) {
            return LocalDate.ofEpochDay(Math.floorDiv(millis.get(row), 86_400_000L)).toString();
        }
        if (vector instanceof TimeSecVector seconds) {
            return time(seconds.get(row) * 1_000_000_000L);
        }
        if (vector instanceof TimeMilliVector millis) {
            return time(millis.get(row) * 1_000_000L);
        }
        if (vector instanceof TimeMicroVector micros) {
            return time(micros.get(row) * 1_000L);
        }
        if (vector instanceof TimeNanoVector nanos) {
            return time(nanos.get(row));
        }
        ArrowType type = vector.getField().getType();
        if (type instanceof ArrowType.Decimal) {
            return ((BigDecimal) vector.getObject(row)).toPlainString();
        }
        if (type instanceof ArrowType.Binary || type instanceof ArrowType.FixedSizeBinary
                || type instanceof ArrowType.LargeBinary) {
            return BASE64.encodeToString((byte[]) vector.getObject(row));
        }
        return String.valueOf(vector.getObject(row));
    }

    private static String timestamp(TimeStampVector vector, int row) {
        ArrowType.Timestamp type = (ArrowType.Timestamp) vector.getField().getType();
        long value = vector.get(row);
        long perSecond = switch (type.getUnit()) {
            case SECOND -> 1L;
            case MILLISECOND -> 1_000L;
            case MICROSECOND -> 1_000_000L;
            case NANOSECOND -> 1_000_000_000L;
        };
        long seconds = Math.floorDiv(value, perSecond);
        int nanos = (int) (Math.floorMod(value, perSecond) * (1_000_000_000L / perSecond));
        String instant = Instant.ofEpochSecond(seconds, nanos).toString();
        // A zone makes the value an instant (Fluss TIMESTAMP_LTZ, _commit_timestamp); without one it is
        // a wall-clock time, shown without the Z. Instant.toString always has the seconds and gives the
        // fraction in groups of three digits, so both kinds look alike (LocalDateTime.toString drops ":00").
        return type.getTimezone() != null ? instant : instant.substring(0, instant.length() - 1);
    }

    private static String time(long nanoOfDay) {
        String time = LocalTime.ofNanoOfDay(nanoOfDay).toString();
        // LocalTime.toString drops zero seconds ("10:15"); keep them, like the timestamps.
        return time.length() == "10:15".length() ? time + ":00" : time;
    }
}
