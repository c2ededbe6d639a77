package dev.riffle.gateway.rows;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.types.TemporalRange;
import dev.riffle.core.values.FlussValueSink;
import dev.riffle.core.values.ValueSink;
import dev.riffle.core.values.ValueText;
import dev.riffle.gateway.http.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimestampType;

/**
 * Reads the JSON value of a column of a given type into the value layer ({@link ValueSink}), as the
 * PostgreSQL port's {@code PgTextValueReader} reads PostgreSQL's text and {@code ArrowValueReader}
 * Arrow vectors: given a {@link FlussValueSink}, the value comes out as a Fluss row holds it, checked
 * against the column's type there (integer ranges, decimal digits, binary lengths, nulls in
 * {@code NOT NULL} places). What is JSON's own is decided here: which JSON forms a type takes, the
 * parsing of text, CHAR(n) lengths and the range of dates and times ({@link TemporalRange}).
 *
 * <p>Accepted forms: booleans and numbers as JSON booleans and numbers (decimals may also be
 * strings); strings as strings (CHAR(n) at most n characters); binary as base64 strings; DATE as
 * {@code "2024-06-01"} or days since the epoch; TIME as {@code "12:30:00.250"}; TIMESTAMP as
 * {@code "2024-06-01T12:30:00.250"} or epoch milliseconds; TIMESTAMP_LTZ as an instant
 * ({@code "2024-06-01T12:30:00Z"}, any offset) or epoch milliseconds; ARRAY as an array; MAP as an
 * object (keys read from their text) or an array of {@code {"key":..,"value":..}}; ROW as an
 * object. FLOAT and DOUBLE also take {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}, and
 * in streamed bodies ({@link #read(JsonParser, DataType, ValueSink)}) the same unquoted. In text
 * mode (values from a URL) numbers and booleans may be strings too.
 *
 * <pre>{@code
 * FlussValueSink sink = new FlussValueSink(DataTypes.DATE());
 * JsonValueReader.read(Json.MAPPER.readTree("\"2024-06-01\""), DataTypes.DATE(), false, sink);
 * Object day = sink.take();   // 19875
 * }</pre>
 */
public final class JsonValueReader {
    /** Longer number text than this fits no column (a DECIMAL holds 38 digits). */
    private static final int MAX_NUMBER_TEXT = 100;

    private JsonValueReader() {}

    /** The Fluss value of {@code node} for a column of {@code type} ({@link FlussValueSink}); null for JSON null. */
    public static Object toFluss(JsonNode node, DataType type, boolean textMode) {
        FlussValueSink sink = new FlussValueSink(type);
        read(node, type, textMode, sink);
        return sink.take();
    }

    /**
     * Reads {@code node}, a value of a column of {@code type}, into {@code sink}; JSON null (or no
     * node) as NULL. In {@code textMode} a string stands for a number or boolean too (a URL's text).
     *
     * @throws InvalidValueException naming the value and, in a nested one, where it stands
     */
    public static void read(JsonNode node, DataType type, boolean textMode, ValueSink sink) {
        read(node, type, textMode, sink, "");
    }

    /**
     * Reads the JSON value at {@code parser}'s current token into {@code sink}, as
     * {@link #read(JsonNode, DataType, boolean, ValueSink)} reads it (not in text mode); the parser
     * is left on the value's last token. A body streamed this way holds no tree of its rows: the
     * common scalars (a string for a STRING or CHAR column, a whole number for an integer, FLOAT or
     * DOUBLE column, a finite number for a FLOAT or DOUBLE one, true or false for a BOOLEAN one) are
     * read straight off the token, every other value as a tree of its own, so the values taken and
     * the errors are the same either way.
     */
    public static void read(JsonParser parser, DataType type, ValueSink sink) throws IOException {
        DataTypeRoot root = type.getTypeRoot();
        switch (parser.currentToken()) {
            case VALUE_NULL -> {
                sink.nullValue();
                return;
            }
            case VALUE_STRING -> {
                if (root == DataTypeRoot.STRING) {
                    sink.stringValue(parser.getText());
                    return;
                }
                if (root == DataTypeRoot.CHAR) {
                    String text = parser.getText();
                    if (text.codePointCount(0, text.length()) <= ((CharType) type).getLength()) {
                        sink.stringValue(text);
                        return;
                    }
                }
            }
            case VALUE_NUMBER_INT -> {
                JsonParser.NumberType size = parser.getNumberType();
                if (size == JsonParser.NumberType.INT || size == JsonParser.NumberType.LONG) {
                    long value = parser.getLongValue();
                    switch (root) {
                        case TINYINT, SMALLINT, INTEGER, BIGINT -> {
                            sink.integerValue(value);
                            return;
                        }
                        case DOUBLE -> {
                            sink.doubleValue(value);
                            return;
                        }
                        case FLOAT -> {
                            sink.floatValue((float) (double) value);
                            return;
                        }
                        default -> { }
                    }
                }
            }
            case VALUE_NUMBER_FLOAT -> {
                // Asked before the text is parsed: a number too large for a double (1e999) is not
                // a bare NaN or Infinity, which the gateway's parser allows and which name a double.
                boolean nonNumeric = parser.isNaN();
                if (root == DataTypeRoot.DOUBLE || root == DataTypeRoot.FLOAT) {
                    // Parsing the text as a double rounds as the tree's exact decimal does when turned into one.
                    double value = parser.getDoubleValue();
                    if (nonNumeric || Double.isFinite(value) && (root == DataTypeRoot.DOUBLE
                            || !Float.isInfinite((float) value))) {
                        sink.doubleValue(value);
                        return;
                    }
                }
                if (nonNumeric) {
                    throw mismatch(Json.MAPPER.getNodeFactory().numberNode(parser.getDoubleValue()), type, "");
                }
            }
            case VALUE_TRUE, VALUE_FALSE -> {
                if (root == DataTypeRoot.BOOLEAN) {
                    sink.booleanValue(parser.getBooleanValue());
                    return;
                }
            }
            default -> { }
        }
        read(Json.valueAt(parser), type, false, sink, "");
    }

    private static void read(JsonNode node, DataType type, boolean textMode, ValueSink sink, String path) {
        if (node == null || node.isNull()) {
            sink.nullValue();
            return;
        }
        if (textMode && node.isTextual()) {
            node = fromText(node.asText(), type, path);
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN -> {
                expect(node.isBoolean(), node, type, path);
                sink.booleanValue(node.asBoolean());
            }
            case TINYINT, SMALLINT, INTEGER, BIGINT -> {
                expect(node.isIntegralNumber(), node, type, path);
                if (!node.canConvertToLong()) {
                    throw invalid(path, node + " is out of range for " + type);
                }
                sink.integerValue(node.asLong());
            }
            case FLOAT -> {
                double value = floating(node, type, path);
                if (Float.isInfinite((float) value) && !Double.isInfinite(value)) {
                    throw invalid(path, clip(node.asText()) + " is out of range for " + type);
                }
                sink.floatValue((float) value);
            }
            case DOUBLE -> sink.doubleValue(floating(node, type, path));
            case DECIMAL -> sink.decimalValue(decimal(node, type, path));
            case CHAR -> {
                expect(node.isTextual(), node, type, path);
                String text = node.asText();
                if (text.codePointCount(0, text.length()) > ((CharType) type).getLength()) {
                    throw invalid(path, "'" + clip(text) + "' is longer than " + type + " allows");
                }
                sink.stringValue(text);
            }
            case STRING -> {
                expect(node.isTextual(), node, type, path);
                sink.stringValue(node.asText());
            }
            case BINARY, BYTES -> sink.binaryValue(base64(node, type, path));
            case DATE -> sink.dateValue(date(node, type, path));
            case TIME_WITHOUT_TIME_ZONE -> {
                expect(node.isTextual(), node, type, path);
                try {
                    sink.timeValue(LocalTime.parse(node.asText()).toNanoOfDay());
                } catch (DateTimeException e) {
                    throw invalid(path, "'" + clip(node.asText()) + "' is not a TIME like 12:30:00.250");
                }
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(node, (TimestampType) type, sink, path);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> instant(node, (LocalZonedTimestampType) type, sink, path);
            case ARRAY -> array(node, (ArrayType) type, textMode, sink, path);
            case MAP -> map(node, (MapType) type, textMode, sink, path);
            case ROW -> row(node, (RowType) type, textMode, sink, path);
            default -> throw invalid(path, "the gateway cannot write columns of type " + type);
        }
    }

    /** A URL's text as the JSON value it stands for, so {@code ?id=42} fits an INT column. */
    private static JsonNode fromText(String text, DataType type, String path) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                if (text.equals("true") || text.equals("false")) {
                    return Json.MAPPER.getNodeFactory().booleanNode(Boolean.parseBoolean(text));
                }
                throw invalid(path, "'" + clip(text) + "' is not a BOOLEAN (true or false)");
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                try {
                    return Json.MAPPER.getNodeFactory().numberNode(new BigInteger(text));
                } catch (NumberFormatException e) {
                    throw invalid(path, "'" + clip(text) + "' is not a whole number for " + type);
                }
            case FLOAT:
            case DOUBLE:
                try {
                    return Json.MAPPER.getNodeFactory().numberNode(Double.parseDouble(text));
                } catch (NumberFormatException e) {
                    throw invalid(path, "'" + clip(text) + "' is not a number for " + type);
                }
            default:
                return TextNode.valueOf(text);
        }
    }

    private static double floating(JsonNode node, DataType type, String path) {
        if (node.isNumber()) {
            double value = node.doubleValue();
            // A written number too large for the type is refused, not stored as infinity; the
            // infinities themselves are written as "Infinity" and "-Infinity".
            if (Double.isInfinite(value)) {
                throw invalid(path, clip(node.asText()) + " is out of range for " + type);
            }
            return value;
        }
        if (node.isTextual()) {
            switch (node.asText()) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        throw mismatch(node, type, path);
    }

    private static BigDecimal decimal(JsonNode node, DataType type, String path) {
        if (node.isNumber()) {
            return node.decimalValue();
        }
        expect(node.isTextual(), node, type, path);
        if (node.asText().length() > MAX_NUMBER_TEXT) {
            throw invalid(path, "a number of " + node.asText().length() + " characters does not fit " + type);
        }
        try {
            return new BigDecimal(node.asText().trim());
        } catch (NumberFormatException e) {
            throw invalid(path, "'" + clip(node.asText()) + "' is not a number for " + type);
        }
    }

    private static byte[] base64(JsonNode node, DataType type, String path) {
        expect(node.isTextual(), node, type, path);
        try {
            return Base64.getDecoder().decode(node.asText());
        } catch (IllegalArgumentException e) {
            throw invalid(path, "'" + clip(node.asText()) + "' is not base64, which " + type + " values must be");
        }
    }

    private static int date(JsonNode node, DataType type, String path) {
        if (node.isIntegralNumber() && node.canConvertToInt()) {
            inRange(TemporalRange.epochDay(node.asInt()), path);
            return node.asInt();
        }
        expect(node.isTextual(), node, type, path);
        LocalDate date;
        try {
            date = LocalDate.parse(node.asText());
        } catch (DateTimeException e) {
            throw invalid(path, "'" + clip(node.asText()) + "' is not a DATE like 2024-06-01");
        }
        inRange(TemporalRange.date(date), path);
        return (int) date.toEpochDay();
    }

    private static void timestamp(JsonNode node, TimestampType type, ValueSink sink, String path) {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            inRange(TemporalRange.epochMillis(node.asLong(), type.getPrecision()), path);
            epochMillis(node.asLong(), sink::timestampValue);
            return;
        }
        expect(node.isTextual(), node, type, path);
        LocalDateTime value;
        try {
            value = ValueText.parseTimestamp(node.asText());
        } catch (DateTimeException e) {
            throw invalid(path, "'" + clip(node.asText()) + "' is not a " + type
                    + " like 2024-06-01T12:30:00.250 (or epoch milliseconds)");
        }
        inRange(TemporalRange.timestamp(value, type.getPrecision()), path);
        sink.timestampValue(value.toEpochSecond(ZoneOffset.UTC), value.getNano());
    }

    private static void instant(JsonNode node, LocalZonedTimestampType type, ValueSink sink, String path) {
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            inRange(TemporalRange.epochMillis(node.asLong(), type.getPrecision()), path);
            epochMillis(node.asLong(), sink::instantValue);
            return;
        }
        expect(node.isTextual(), node, type, path);
        Instant value;
        try {
            value = ValueText.parseInstant(node.asText());
        } catch (DateTimeException e) {
            throw invalid(path, "'" + clip(node.asText()) + "' is not a " + type
                    + " like 2024-06-01T12:30:00Z (an instant with Z or an offset, or epoch milliseconds)");
        }
        inRange(TemporalRange.instant(value, type.getPrecision()), path);
        sink.instantValue(value.getEpochSecond(), value.getNano());
    }

    /** What a sink's timestamp and instant methods take: seconds, and nanoseconds within the second. */
    private interface SecondsAndNanos {
        void accept(long epochSecond, int nanoOfSecond);
    }

    private static void epochMillis(long millis, SecondsAndNanos sink) {
        sink.accept(Math.floorDiv(millis, 1_000L), (int) Math.floorMod(millis, 1_000L) * 1_000_000);
    }

    private static void inRange(Optional<String> problem, String path) {
        if (problem.isPresent()) {
            throw invalid(path, problem.get());
        }
    }

    private static void array(JsonNode node, ArrayType type, boolean textMode, ValueSink sink, String path) {
        expect(node.isArray(), node, type, path);
        sink.startArray(node.size());
        for (int i = 0; i < node.size(); i++) {
            read(node.get(i), type.getElementType(), textMode, sink, path + "[" + i + "]");
        }
        sink.endArray();
    }

    private static void map(JsonNode node, MapType type, boolean textMode, ValueSink sink, String path) {
        if (node.isObject()) {
            sink.startMap(node.size());
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                // An object's keys are text: read as a URL's text is, so {"1": ...} fits an INT key.
                read(TextNode.valueOf(field.getKey()), type.getKeyType(), true, sink,
                        path + "{key " + field.getKey() + "}");
                read(field.getValue(), type.getValueType(), textMode, sink, path + "{" + field.getKey() + "}");
            }
            sink.endMap();
            return;
        }
        expect(node.isArray(), node, type, path);
        sink.startMap(node.size());
        for (int i = 0; i < node.size(); i++) {
            JsonNode entry = node.get(i);
            if (!entry.isObject() || !entry.has("key")) {
                throw invalid(path, "map entry [" + i + "] must be an object with \"key\" and \"value\"");
            }
            read(entry.get("key"), type.getKeyType(), textMode, sink, path + "[" + i + "].key");
            read(entry.get("value"), type.getValueType(), textMode, sink, path + "[" + i + "].value");
        }
        sink.endMap();
    }

    private static void row(JsonNode node, RowType type, boolean textMode, ValueSink sink, String path) {
        expect(node.isObject(), node, type, path);
        List<String> names = new ArrayList<>(type.getFieldNames());
        Iterator<String> given = node.fieldNames();
        while (given.hasNext()) {
            String name = given.next();
            if (!names.contains(name)) {
                throw invalid(path, "unknown field '" + name + "'; fields: " + names);
            }
        }
        sink.startRow(type.getFieldCount());
        for (DataField field : type.getFields()) {
            sink.fieldName(field.getName());
            read(node.get(field.getName()), field.getType(), textMode, sink, path + "." + field.getName());
        }
        sink.endRow();
    }

    private static void expect(boolean ok, JsonNode node, DataType type, String path) {
        if (!ok) {
            throw mismatch(node, type, path);
        }
    }

    private static InvalidValueException mismatch(JsonNode node, DataType type, String path) {
        return invalid(path, "expected " + type + " (" + expectation(type) + "), got " + Json.describe(node));
    }

    /** A value refused here, at {@code path} within a nested value ("at [2].x: ..."), as the sink names where. */
    private static InvalidValueException invalid(String path, String message) {
        return new InvalidValueException(path.isEmpty() ? message : "at " + path + ": " + message);
    }

    /** What a JSON value of {@code type} looks like, in words. */
    private static String expectation(DataType type) {
        return switch (type.getTypeRoot()) {
            case BOOLEAN -> "true or false";
            case TINYINT, SMALLINT, INTEGER, BIGINT -> "a whole number";
            case FLOAT, DOUBLE -> "a number, or \"NaN\", \"Infinity\", \"-Infinity\"";
            case DECIMAL -> "a number";
            case CHAR, STRING -> "a string";
            case BINARY, BYTES -> "a base64 string";
            case DATE -> "a date like \"2024-06-01\"";
            case TIME_WITHOUT_TIME_ZONE -> "a time like \"12:30:00.250\"";
            case TIMESTAMP_WITHOUT_TIME_ZONE -> "a timestamp like \"2024-06-01T12:30:00\"";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> "an instant like \"2024-06-01T12:30:00Z\"";
            case ARRAY -> "an array";
            case MAP -> "an object";
            case ROW -> "an object with the row's fields";
            default -> "a value of that type";
        };
    }

    private static String clip(String text) {
        return text.length() > 40 ? text.substring(0, 37) + "..." : text;
    }
}
