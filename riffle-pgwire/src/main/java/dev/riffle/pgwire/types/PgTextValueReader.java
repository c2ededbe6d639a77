package dev.riffle.pgwire.types;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.types.TemporalRange;
import dev.riffle.core.values.FlussValueSink;
import dev.riffle.core.values.ValueSink;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.CharType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.TimestampType;

/**
 * Reads a value in PostgreSQL's text form (what COPY FROM and psql send: {@code t}, {@code 42},
 * {@code 1.5e3}, {@code \x0aff}, {@code 2024-06-01 12:00:00.5}, {@code {1,2,NULL}}) for a Fluss
 * column, into a {@link ValueSink}. Given the value layer's {@link FlussValueSink}, the value is
 * checked by the same rules as every other write (integer ranges, decimal scale and precision,
 * BINARY(n) lengths, nulls inside NOT NULL element types), plus what only text needs: its syntax,
 * CHAR(n) lengths and the range of dates and times ({@link TemporalRange}). MAP and ROW columns
 * (json on the wire) are not read from text.
 *
 * <pre>{@code
 * FlussValueSink sink = new FlussValueSink(DataTypes.INT());
 * PgTextValueReader.read("42", DataTypes.INT(), sink);
 * Object value = sink.take();   // 42
 * }</pre>
 */
public final class PgTextValueReader {
    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?"
            + "|[+-]?(?i:infinity|inf)|(?i:nan)");

    private PgTextValueReader() {}

    /** Whether values of {@code type} can be read from text (all but MAP and ROW, at any depth). */
    public static boolean readable(DataType type) {
        return switch (type.getTypeRoot()) {
            case MAP, ROW -> false;
            case ARRAY -> readable(((ArrayType) type).getElementType());
            default -> true;
        };
    }

    /**
     * Reads {@code text}, a non-null value of {@code type}, into {@code sink}.
     *
     * @throws InvalidValueException naming the type and the text when it is not a value of the type
     */
    public static void read(String text, DataType type, ValueSink sink) {
        requireNonNull(text, "text is null");
        requireNonNull(type, "type is null");
        requireNonNull(sink, "sink is null");
        String trimmed = text.strip();
        try {
            switch (type.getTypeRoot()) {
                case BOOLEAN -> sink.booleanValue(ParameterDecoder.bool(trimmed));
                case TINYINT, SMALLINT, INTEGER, BIGINT -> {
                    if (!INTEGER.matcher(trimmed).matches()) {
                        throw syntax(type, text);
                    }
                    long value;
                    try {
                        value = Long.parseLong(trimmed);
                    } catch (NumberFormatException e) {
                        throw new InvalidValueException("value \"" + shown(text) + "\" is out of range for type "
                                + typeName(type));
                    }
                    sink.integerValue(value);
                }
                case FLOAT -> sink.floatValue(Float.parseFloat(floatText(type, trimmed, text)));
                case DOUBLE -> sink.doubleValue(Double.parseDouble(floatText(type, trimmed, text)));
                case DECIMAL -> sink.decimalValue(new BigDecimal(trimmed));
                case CHAR -> {
                    int length = ((CharType) type).getLength();
                    if (text.codePointCount(0, text.length()) > length) {
                        throw new InvalidValueException("value too long for type character(" + length + "): \""
                                + shown(text) + "\"");
                    }
                    sink.stringValue(text);
                }
                case STRING -> sink.stringValue(text);
                case BINARY, BYTES -> sink.binaryValue(ParameterDecoder.bytea(text));
                case DATE -> {
                    LocalDate date = LocalDate.parse(trimmed);
                    check(TemporalRange.date(date));
                    sink.dateValue((int) date.toEpochDay());
                }
                case TIME_WITHOUT_TIME_ZONE -> sink.timeValue(LocalTime.parse(trimmed).toNanoOfDay());
                case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                    LocalDateTime value = ParameterDecoder.localDateTime(trimmed, false);
                    check(TemporalRange.timestamp(value, ((TimestampType) type).getPrecision()));
                    sink.timestampValue(value.toEpochSecond(ZoneOffset.UTC), value.getNano());
                }
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                    // Without an offset the value is in the session's time zone, which is UTC.
                    LocalDateTime value = ParameterDecoder.localDateTime(trimmed, true);
                    check(TemporalRange.instant(value.toInstant(ZoneOffset.UTC),
                            ((LocalZonedTimestampType) type).getPrecision()));
                    sink.instantValue(value.toEpochSecond(ZoneOffset.UTC), value.getNano());
                }
                case ARRAY -> array(text, (ArrayType) type, sink);
                default -> throw new InvalidValueException("values of type " + typeName(type)
                        + " are not read from text");
            }
        } catch (InvalidValueException e) {
            throw e;
        } catch (NumberFormatException | DateTimeException | ArithmeticException e) {
            throw syntax(type, text);
        } catch (IllegalArgumentException e) {
            // A bad boolean or bytea: the parsers' own messages do not name the value.
            throw syntax(type, text);
        }
    }

    /** The type's name as PostgreSQL prints it ({@code integer}, {@code numeric(10,2)}, {@code text[]}). */
    public static String typeName(DataType type) {
        return PgTypeNames.format(type);
    }

    private static String floatText(DataType type, String trimmed, String text) {
        if (!FLOAT.matcher(trimmed).matches()) {
            throw syntax(type, text);
        }
        return ParameterDecoder.floatText(trimmed);
    }

    private static void check(Optional<String> problem) {
        if (problem.isPresent()) {
            throw new InvalidValueException(problem.get());
        }
    }

    private static InvalidValueException syntax(DataType type, String text) {
        return new InvalidValueException("invalid input syntax for type " + typeName(type) + ": \"" + shown(text)
                + "\"");
    }

    private static String shown(String text) {
        return text.length() > 60 ? text.substring(0, 60) + "..." : text;
    }

    /** A one-dimensional (or nested) array literal: {@code {1,2,NULL}}, {@code {"a b",c}}, {@code {{1},{2}}}. */
    private static void array(String text, ArrayType type, ValueSink sink) {
        String trimmed = text.strip();
        int[] position = {0};
        List<Object> elements = elements(trimmed, position, type, text);
        if (position[0] != trimmed.length()) {
            throw syntax(type, text);
        }
        emit(elements, type, sink);
    }

    /** The elements of the array literal starting at {@code position}: a String, null (NULL) or a nested List. */
    private static List<Object> elements(String literal, int[] position, DataType type, String text) {
        int i = position[0];
        if (i >= literal.length() || literal.charAt(i) != '{') {
            throw syntax(type, text);
        }
        i++;
        List<Object> elements = new ArrayList<>();
        if (i < literal.length() && literal.charAt(i) == '}') {
            position[0] = i + 1;
            return elements;
        }
        while (true) {
            while (i < literal.length() && Character.isWhitespace(literal.charAt(i))) {
                i++;
            }
            if (i >= literal.length()) {
                throw syntax(type, text);
            }
            char c = literal.charAt(i);
            if (c == '{') {
                position[0] = i;
                elements.add(elements(literal, position, type, text));
                i = position[0];
            } else if (c == '"') {
                StringBuilder value = new StringBuilder();
                i++;
                while (i < literal.length() && literal.charAt(i) != '"') {
                    if (literal.charAt(i) == '\\' && i + 1 < literal.length()) {
                        i++;
                    }
                    value.append(literal.charAt(i++));
                }
                if (i >= literal.length()) {
                    throw syntax(type, text);
                }
                i++;
                elements.add(value.toString());
            } else {
                StringBuilder value = new StringBuilder();
                while (i < literal.length() && literal.charAt(i) != ',' && literal.charAt(i) != '}') {
                    if (literal.charAt(i) == '\\' && i + 1 < literal.length()) {
                        i++;
                    }
                    value.append(literal.charAt(i++));
                }
                String element = value.toString().strip();
                elements.add(element.equalsIgnoreCase("NULL") ? null : element);
            }
            while (i < literal.length() && Character.isWhitespace(literal.charAt(i))) {
                i++;
            }
            if (i >= literal.length()) {
                throw syntax(type, text);
            }
            if (literal.charAt(i) == '}') {
                position[0] = i + 1;
                return elements;
            }
            if (literal.charAt(i) != ',') {
                throw syntax(type, text);
            }
            i++;
        }
    }

    private static void emit(List<Object> elements, ArrayType type, ValueSink sink) {
        DataType element = type.getElementType();
        sink.startArray(elements.size());
        for (Object value : elements) {
            if (value == null) {
                sink.nullValue();
            } else if (value instanceof List<?> nested) {
                if (!(element instanceof ArrayType inner)) {
                    throw new InvalidValueException("a nested array where " + typeName(element) + " is expected");
                }
                @SuppressWarnings("unchecked")
                List<Object> values = (List<Object>) nested;
                emit(values, inner, sink);
            } else {
                read((String) value, element, sink);
            }
        }
        sink.endArray();
    }
}
