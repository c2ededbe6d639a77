package dev.riffle.gateway.rows;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.types.TemporalRange;
import dev.riffle.core.values.FlussValueSink;
import dev.riffle.core.values.ValueText;
import dev.riffle.gateway.http.Json;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.BinaryType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimestampType;

/**
 * Turns JSON values into the values Fluss rows hold, checking each against its column type.
 *
 * <p>Accepted forms: booleans and numbers as JSON booleans and numbers (integers must fit the
 * column's width; decimals may also be strings, and may not have more fractional digits than the
 * scale); strings as strings (CHAR(n) at most n characters); binary as base64 strings; DATE as
 * {@code "2024-06-01"} or days since the epoch; TIME as {@code "12:30:00.250"}; TIMESTAMP as
 * {@code "2024-06-01T12:30:00.250"} or epoch milliseconds; TIMESTAMP_LTZ as an instant
 * ({@code "2024-06-01T12:30:00Z"}, any offset) or epoch milliseconds; ARRAY as an array; MAP as an
 * object (keys converted from their text) or an array of {@code {"key":..,"value":..}}; ROW as an
 * object. FLOAT and DOUBLE also take {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}, and in
 * streamed bodies ({@link #toFluss(JsonParser, DataType)}) the same unquoted. In text mode (values
 * from a URL) numbers and booleans may be strings too.
 */
public final class JsonValues {
    /** Longer number text than this fits no column (a DECIMAL holds 38 digits). */
    private static final int MAX_NUMBER_TEXT = 100;

    private JsonValues() {}

    /** The Fluss value of {@code node} for {@code type}; null for JSON null (nullability is checked here for nested values). */
    public static Object toFluss(JsonNode node, DataType type, boolean textMode) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (textMode && node.isTextual()) {
            node = fromText(node.asText(), type);
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                expect(node.isBoolean(), node, type);
                return node.asBoolean();
            case TINYINT:
                return (byte) integral(node, type, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT:
                return (short) integral(node, type, Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER:
                return (int) integral(node, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT:
                return integral(node, type, Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT:
                return narrow(floating(node, type), node, type);
            case DOUBLE:
                return floating(node, type);
            case DECIMAL:
                return decimal(node, (DecimalType) type);
            case CHAR:
                expect(node.isTextual(), node, type);
                int length = ((CharType) type).getLength();
                if (node.asText().codePointCount(0, node.asText().length()) > length) {
                    throw new InvalidValueException("'" + clip(node.asText()) + "' is longer than " + type + " allows");
                }
                return BinaryString.fromString(node.asText());
            case STRING:
                expect(node.isTextual(), node, type);
                return BinaryString.fromString(node.asText());
            case BINARY:
            case BYTES:
                return binary(node, type);
            case DATE:
                return date(node, type);
            case TIME_WITHOUT_TIME_ZONE:
                expect(node.isTextual(), node, type);
                try {
                    return (int) (LocalTime.parse(node.asText()).toNanoOfDay() / 1_000_000L);
                } catch (DateTimeException e) {
                    throw new InvalidValueException("'" + clip(node.asText()) + "' is not a TIME like 12:30:00.250");
                }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return timestampNtz(node, type);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestampLtz(node, type);
            case ARRAY:
                return array(node, (ArrayType) type, textMode);
            case MAP:
                return map(node, (MapType) type, textMode);
            case ROW:
                return row(node, (RowType) type, textMode);
            default:
                throw new InvalidValueException("the gateway cannot write columns of type " + type);
        }
    }

    /**
     * The Fluss value of the JSON value at {@code parser}'s current token, for {@code type}, as
     * {@link #toFluss(JsonNode, DataType, boolean)} gives it (not in text mode); the parser is left
     * on the value's last token. A body streamed this way holds no tree of its rows: the common
     * scalars (a string for a STRING or CHAR column, a whole number that fits an integer column, a
     * finite number for a FLOAT or DOUBLE one, true or false for a BOOLEAN one) are read straight off the
     * token, every other value (and every one those checks refuse) as a tree of its own, so the
     * values taken and the errors are the same either way.
     */
    static Object toFluss(JsonParser parser, DataType type) throws IOException {
        switch (parser.currentToken()) {
            case VALUE_NULL:
                return null;
            case VALUE_STRING:
                if (type.getTypeRoot() == DataTypeRoot.STRING) {
                    return BinaryString.fromString(parser.getText());
                }
                if (type.getTypeRoot() == DataTypeRoot.CHAR) {
                    String text = parser.getText();
                    if (text.codePointCount(0, text.length()) <= ((CharType) type).getLength()) {
                        return BinaryString.fromString(text);
                    }
                }
                break;
            case VALUE_NUMBER_INT:
                Object whole = wholeNumber(parser, type);
                if (whole != null) {
                    return whole;
                }
                break;
            case VALUE_NUMBER_FLOAT:
                if (parser.isNaN()) {
                    return nonNumeric(parser.getDoubleValue(), type);
                }
                Object fraction = floatingNumber(parser, type);
                if (fraction != null) {
                    return fraction;
                }
                break;
            case VALUE_TRUE:
            case VALUE_FALSE:
                if (type.getTypeRoot() == DataTypeRoot.BOOLEAN) {
                    return parser.currentToken() == JsonToken.VALUE_TRUE;
                }
                break;
            default:
                break;
        }
        return toFluss(Json.valueAt(parser), type, false);
    }

    /**
     * A bare {@code NaN}, {@code Infinity} or {@code -Infinity} (which the gateway's parser allows):
     * the double it names, as its quoted form is, for a FLOAT or DOUBLE column; refused for others.
     * (A whole document's tree cannot hold it as an exact decimal.)
     */
    private static Object nonNumeric(double value, DataType type) {
        return switch (type.getTypeRoot()) {
            case DOUBLE -> value;
            case FLOAT -> (float) value;
            default -> throw mismatch(Json.MAPPER.getNodeFactory().numberNode(value), type);
        };
    }

    /** A whole-number token for an integer or floating column when it fits without doubt; null otherwise. */
    private static Object wholeNumber(JsonParser parser, DataType type) throws IOException {
        JsonParser.NumberType size = parser.getNumberType();
        if (size != JsonParser.NumberType.INT && size != JsonParser.NumberType.LONG) {
            return null;
        }
        long value = parser.getLongValue();
        switch (type.getTypeRoot()) {
            case TINYINT:
                return value >= Byte.MIN_VALUE && value <= Byte.MAX_VALUE ? (Object) (byte) value : null;
            case SMALLINT:
                return value >= Short.MIN_VALUE && value <= Short.MAX_VALUE ? (Object) (short) value : null;
            case INTEGER:
                return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? (Object) (int) value : null;
            case BIGINT:
                return value;
            case DOUBLE:
                return (double) value;
            case FLOAT:
                return (float) (double) value;
            default:
                return null;
        }
    }

    /**
     * A fractional number token for a FLOAT or DOUBLE column when it is finite there; null otherwise.
     * Parsing the text as a double rounds as the tree's exact decimal does when it is turned into one.
     */
    private static Object floatingNumber(JsonParser parser, DataType type) throws IOException {
        if (type.getTypeRoot() != DataTypeRoot.DOUBLE && type.getTypeRoot() != DataTypeRoot.FLOAT) {
            return null;
        }
        double value = parser.getDoubleValue();
        if (!Double.isFinite(value)) {
            return null;
        }
        if (type.getTypeRoot() == DataTypeRoot.DOUBLE) {
            return value;
        }
        float narrowed = (float) value;
        return Float.isInfinite(narrowed) ? null : (Object) narrowed;
    }

    /** A URL's text as the JSON value it stands for, so {@code ?id=42} fits an INT column. */
    private static JsonNode fromText(String text, DataType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                if (text.equals("true") || text.equals("false")) {
                    return Json.MAPPER.getNodeFactory().booleanNode(Boolean.parseBoolean(text));
                }
                throw new InvalidValueException("'" + clip(text) + "' is not a BOOLEAN (true or false)");
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
                try {
                    return Json.MAPPER.getNodeFactory().numberNode(new BigInteger(text));
                } catch (NumberFormatException e) {
                    throw new InvalidValueException("'" + clip(text) + "' is not a whole number for " + type);
                }
            case FLOAT:
            case DOUBLE:
                try {
                    return Json.MAPPER.getNodeFactory().numberNode(Double.parseDouble(text));
                } catch (NumberFormatException e) {
                    throw new InvalidValueException("'" + clip(text) + "' is not a number for " + type);
                }
            default:
                return TextNode.valueOf(text);
        }
    }

    private static long integral(JsonNode node, DataType type, long min, long max) {
        if (!node.isIntegralNumber()) {
            throw mismatch(node, type);
        }
        if (!node.canConvertToLong() || node.asLong() < min || node.asLong() > max) {
            throw new InvalidValueException(node + " is out of range for " + type + " [" + min + ", " + max + "]");
        }
        return node.asLong();
    }

    private static double floating(JsonNode node, DataType type) {
        if (node.isNumber()) {
            double value = node.doubleValue();
            // A written number too large for the type is refused, not stored as infinity; the
            // infinities themselves are written as "Infinity" and "-Infinity".
            if (Double.isInfinite(value)) {
                throw new InvalidValueException(clip(node.asText()) + " is out of range for " + type);
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
        throw mismatch(node, type);
    }

    /** {@code value} as a FLOAT, refused when a finite double is beyond the float range. */
    private static float narrow(double value, JsonNode node, DataType type) {
        float narrowed = (float) value;
        if (Float.isInfinite(narrowed) && !Double.isInfinite(value)) {
            throw new InvalidValueException(clip(node.asText()) + " is out of range for " + type);
        }
        return narrowed;
    }

    private static Decimal decimal(JsonNode node, DecimalType type) {
        BigDecimal value;
        if (node.isNumber()) {
            value = node.decimalValue();
        } else if (node.isTextual()) {
            if (node.asText().length() > MAX_NUMBER_TEXT) {
                throw new InvalidValueException("a number of " + node.asText().length() + " characters does not fit "
                        + type);
            }
            try {
                value = new BigDecimal(node.asText().trim());
            } catch (NumberFormatException e) {
                throw new InvalidValueException("'" + clip(node.asText()) + "' is not a number for " + type);
            }
        } else {
            throw mismatch(node, type);
        }
        return decimal(value, type);
    }

    static Decimal decimal(BigDecimal value, DecimalType type) {
        return FlussValueSink.decimal(value, type);
    }

    private static byte[] binary(JsonNode node, DataType type) {
        expect(node.isTextual(), node, type);
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(node.asText());
        } catch (IllegalArgumentException e) {
            throw new InvalidValueException("'" + clip(node.asText()) + "' is not base64, which " + type + " values must be");
        }
        return FlussValueSink.binary(bytes, type);
    }

    private static int date(JsonNode node, DataType type) {
        if (node.isIntegralNumber() && node.canConvertToInt()) {
            inRange(TemporalRange.epochDay(node.asInt()));
            return node.asInt();
        }
        expect(node.isTextual(), node, type);
        LocalDate date;
        try {
            date = LocalDate.parse(node.asText());
        } catch (DateTimeException e) {
            throw new InvalidValueException("'" + clip(node.asText()) + "' is not a DATE like 2024-06-01");
        }
        inRange(TemporalRange.date(date));
        return (int) date.toEpochDay();
    }

    private static TimestampNtz timestampNtz(JsonNode node, DataType type) {
        int precision = ((TimestampType) type).getPrecision();
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            inRange(TemporalRange.epochMillis(node.asLong(), precision));
            return TimestampNtz.fromMillis(node.asLong());
        }
        expect(node.isTextual(), node, type);
        LocalDateTime value;
        try {
            value = ValueText.parseTimestamp(node.asText());
        } catch (DateTimeException e) {
            throw new InvalidValueException("'" + clip(node.asText()) + "' is not a " + type
                    + " like 2024-06-01T12:30:00.250 (or epoch milliseconds)");
        }
        inRange(TemporalRange.timestamp(value, precision));
        return TimestampNtz.fromLocalDateTime(value);
    }

    private static TimestampLtz timestampLtz(JsonNode node, DataType type) {
        int precision = ((LocalZonedTimestampType) type).getPrecision();
        if (node.isIntegralNumber() && node.canConvertToLong()) {
            inRange(TemporalRange.epochMillis(node.asLong(), precision));
            return TimestampLtz.fromEpochMillis(node.asLong());
        }
        expect(node.isTextual(), node, type);
        Instant value;
        try {
            value = ValueText.parseInstant(node.asText());
        } catch (DateTimeException e) {
            throw new InvalidValueException("'" + clip(node.asText()) + "' is not a " + type
                    + " like 2024-06-01T12:30:00Z (an instant with Z or an offset, or epoch milliseconds)");
        }
        inRange(TemporalRange.instant(value, precision));
        return TimestampLtz.fromInstant(value);
    }

    private static void inRange(Optional<String> problem) {
        if (problem.isPresent()) {
            throw new InvalidValueException(problem.get());
        }
    }

    private static GenericArray array(JsonNode node, ArrayType type, boolean textMode) {
        expect(node.isArray(), node, type);
        Object[] elements = new Object[node.size()];
        for (int i = 0; i < elements.length; i++) {
            elements[i] = nested(node.get(i), type.getElementType(), "[" + i + "]", textMode);
        }
        return new GenericArray(elements);
    }

    private static GenericMap map(JsonNode node, MapType type, boolean textMode) {
        Map<Object, Object> entries = new LinkedHashMap<>();
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                Object key = nested(TextNode.valueOf(field.getKey()), type.getKeyType(), "{key " + field.getKey() + "}", true);
                entries.put(key, nested(field.getValue(), type.getValueType(), "{" + field.getKey() + "}", textMode));
            }
        } else if (node.isArray()) {
            int i = 0;
            for (JsonNode entry : node) {
                if (!entry.isObject() || !entry.has("key")) {
                    throw new InvalidValueException("map entry [" + i + "] must be an object with \"key\" and \"value\"");
                }
                Object key = nested(entry.get("key"), type.getKeyType(), "[" + i + "].key", textMode);
                entries.put(key, nested(entry.get("value"), type.getValueType(), "[" + i + "].value", textMode));
                i++;
            }
        } else {
            throw mismatch(node, type);
        }
        return new GenericMap(entries);
    }

    private static GenericRow row(JsonNode node, RowType type, boolean textMode) {
        expect(node.isObject(), node, type);
        List<String> names = new ArrayList<>(type.getFieldNames());
        node.fieldNames().forEachRemaining(name -> {
            if (!names.contains(name)) {
                throw new InvalidValueException("unknown field '" + name + "'; fields: " + names);
            }
        });
        GenericRow row = new GenericRow(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            DataField field = type.getFields().get(i);
            row.setField(i, nested(node.get(field.getName()), field.getType(), "." + field.getName(), textMode));
        }
        return row;
    }

    private static Object nested(JsonNode node, DataType type, String path, boolean textMode) {
        try {
            Object value = toFluss(node, type, textMode);
            if (value == null && !type.isNullable()) {
                throw new InvalidValueException("null where " + type + " is required");
            }
            return value;
        } catch (InvalidValueException e) {
            throw new InvalidValueException("at " + path + ": " + e.getMessage());
        }
    }

    private static void expect(boolean ok, JsonNode node, DataType type) {
        if (!ok) {
            throw mismatch(node, type);
        }
    }

    private static InvalidValueException mismatch(JsonNode node, DataType type) {
        return new InvalidValueException("expected " + type + " (" + expectation(type) + "), got "
                + Json.describe(node));
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

    static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
