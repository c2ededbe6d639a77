package dev.riffle.gateway.scan;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Json;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A scan's row filter, applied by the gateway to the rows it reads (Fluss 0.9 has no server-side
 * filter). The JSON form:
 *
 * <pre>
 * {"column": "amount", "op": ">=", "value": 100}
 * {"and": [f, ...]}   {"or": [f, ...]}   {"not": f}
 * </pre>
 *
 * <p>Operators: {@code = != < <= > >=}, {@code in} (value is an array), {@code is_null},
 * {@code is_not_null}. Comparisons with a null cell are false, as in SQL. Values are written as the
 * write endpoints take them (numbers, strings, ISO dates and timestamps or epoch milliseconds).
 * Columns of boolean, numeric, decimal, string, date, time and timestamp type can be filtered.
 */
final class RowFilter {
    private static final Set<String> OPERATORS = Set.of("=", "!=", "<", "<=", ">", ">=", "in", "is_null", "is_not_null");

    private final Node root;

    private RowFilter(Node root) {
        this.root = root;
    }

    /** Parses and checks a filter against the columns it will see. */
    static RowFilter parse(JsonNode json, Schema schema) {
        return new RowFilter(node(json, schema, "filter"));
    }

    /** The columns a filter names, for reading them even when they are not returned. */
    static Set<String> columns(JsonNode json) {
        Set<String> columns = new LinkedHashSet<>();
        collectColumns(json, columns);
        return columns;
    }

    /** A test of the rows of one batch. */
    IntPredicate bind(VectorSchemaRoot batch) {
        return root.bind(batch);
    }

    private interface Node {
        IntPredicate bind(VectorSchemaRoot batch);
    }

    private static void collectColumns(JsonNode json, Set<String> columns) {
        if (json == null || !json.isObject()) {
            return;
        }
        if (json.has("column") && json.get("column").isTextual()) {
            columns.add(json.get("column").asText());
        }
        for (String group : List.of("and", "or")) {
            if (json.has(group) && json.get(group).isArray()) {
                json.get(group).forEach(child -> collectColumns(child, columns));
            }
        }
        collectColumns(json.get("not"), columns);
    }

    private static Node node(JsonNode json, Schema schema, String path) {
        if (json == null || !json.isObject()) {
            throw invalid(path, "must be an object like {\"column\": \"x\", \"op\": \"=\", \"value\": 1}, "
                    + "{\"and\": [..]}, {\"or\": [..]} or {\"not\": {..}}; got " + Json.describe(json));
        }
        if (json.has("and") || json.has("or")) {
            String kind = json.has("and") ? "and" : "or";
            Json.onlyFields(json, path, Set.of(kind));
            JsonNode children = json.get(kind);
            if (!children.isArray() || children.isEmpty()) {
                throw invalid(path, "\"" + kind + "\" must be a non-empty array of filters");
            }
            List<Node> nodes = new ArrayList<>();
            for (int i = 0; i < children.size(); i++) {
                nodes.add(node(children.get(i), schema, path + "." + kind + "[" + i + "]"));
            }
            boolean and = kind.equals("and");
            return batch -> {
                List<IntPredicate> bound = nodes.stream().map(n -> n.bind(batch)).toList();
                return row -> {
                    for (IntPredicate test : bound) {
                        if (test.test(row) != and) {
                            return !and;
                        }
                    }
                    return and;
                };
            };
        }
        if (json.has("not")) {
            Json.onlyFields(json, path, Set.of("not"));
            Node inner = node(json.get("not"), schema, path + ".not");
            return batch -> inner.bind(batch).negate();
        }
        return comparison(json, schema, path);
    }

    private static Node comparison(JsonNode json, Schema schema, String path) {
        Json.onlyFields(json, path, Set.of("column", "op", "value"));
        String column = Json.requiredText(json, "column", path);
        String op = Json.requiredText(json, "op", path);
        if (!OPERATORS.contains(op)) {
            throw invalid(path, "unknown op '" + op + "'; ops: " + OPERATORS.stream().sorted().toList());
        }
        Field field = schema.getFields().stream().filter(f -> f.getName().equals(column)).findFirst()
                .orElseThrow(() -> ApiException.badRequest("column_not_found", "Column '" + column + "' in " + path
                        + " does not exist; columns: " + schema.getFields().stream().map(Field::getName).toList()));
        Kind kind = Kind.of(field).orElseThrow(() -> invalid(path, "column '" + column + "' has type "
                + field.getType() + ", which filters cannot compare"));
        if (op.equals("is_null") || op.equals("is_not_null")) {
            if (json.has("value")) {
                throw invalid(path, "op '" + op + "' takes no value");
            }
            boolean wantNull = op.equals("is_null");
            return batch -> {
                FieldVector vector = batch.getVector(column);
                return row -> vector.isNull(row) == wantNull;
            };
        }
        JsonNode value = json.get("value");
        if (value == null || value.isNull()) {
            throw invalid(path, "op '" + op + "' needs a non-null \"value\" (use is_null for nulls)");
        }
        if (op.equals("in")) {
            if (!value.isArray() || value.isEmpty()) {
                throw invalid(path, "op 'in' needs \"value\": a non-empty array");
            }
            List<Comparable<Object>> candidates = new ArrayList<>();
            for (JsonNode element : value) {
                candidates.add(kind.literal(element, field, path));
            }
            return batch -> {
                FieldVector vector = batch.getVector(column);
                return row -> {
                    if (vector.isNull(row)) {
                        return false;
                    }
                    Object cell = kind.cell(vector, row);
                    for (Comparable<Object> candidate : candidates) {
                        if (candidate.compareTo(cell) == 0) {
                            return true;
                        }
                    }
                    return false;
                };
            };
        }
        Comparable<Object> literal = kind.literal(value, field, path);
        return batch -> {
            FieldVector vector = batch.getVector(column);
            return row -> {
                if (vector.isNull(row)) {
                    return false;
                }
                int c = -literal.compareTo(kind.cell(vector, row)); // cell compared to literal
                return switch (op) {
                    case "=" -> c == 0;
                    case "!=" -> c != 0;
                    case "<" -> c < 0;
                    case "<=" -> c <= 0;
                    case ">" -> c > 0;
                    default -> c >= 0;
                };
            };
        };
    }

    private static ApiException invalid(String path, String problem) {
        return ApiException.badRequest("invalid_filter", "Invalid " + path + ": " + problem);
    }

    /** How the cells of one column are compared: as Boolean, Long, Double, BigDecimal or String. */
    private enum Kind {
        BOOLEAN,
        INTEGER,
        FLOATING,
        DECIMAL,
        STRING,
        DATE,
        TIME,
        TIMESTAMP;

        static java.util.Optional<Kind> of(Field field) {
            ArrowType type = field.getType();
            Kind kind = switch (type.getTypeID()) {
                case Bool -> BOOLEAN;
                case Int -> INTEGER;
                case FloatingPoint -> FLOATING;
                case Decimal -> DECIMAL;
                case Utf8 -> STRING;
                case Date -> DATE;
                case Time -> TIME;
                case Timestamp -> TIMESTAMP;
                default -> null;
            };
            return java.util.Optional.ofNullable(kind);
        }

        Object cell(FieldVector vector, int row) {
            return switch (this) {
                case BOOLEAN -> ((BitVector) vector).get(row) != 0;
                case INTEGER -> ((BaseIntVector) vector).getValueAsLong(row);
                case FLOATING -> vector instanceof Float4Vector f ? (double) f.get(row) : ((Float8Vector) vector).get(row);
                case DECIMAL -> ((DecimalVector) vector).getObject(row);
                case STRING -> new String(((VarCharVector) vector).get(row), UTF_8);
                case DATE -> (long) ((DateDayVector) vector).get(row);
                case TIME -> time(vector, row);
                case TIMESTAMP -> ((TimeStampVector) vector).get(row);
            };
        }

        private static long time(FieldVector vector, int row) {
            if (vector instanceof TimeSecVector v) {
                return v.get(row);
            }
            if (vector instanceof TimeMilliVector v) {
                return v.get(row);
            }
            if (vector instanceof TimeMicroVector v) {
                return v.get(row);
            }
            return ((TimeNanoVector) vector).get(row);
        }

        @SuppressWarnings("unchecked")
        Comparable<Object> literal(JsonNode value, Field field, String path) {
            Object literal = parseLiteral(value, field);
            if (literal == null) {
                throw invalid(path, "value " + Json.describe(value) + " does not fit column '" + field.getName()
                        + "' of type " + field.getType() + " (" + expected() + ")");
            }
            return (Comparable<Object>) literal;
        }

        private String expected() {
            return switch (this) {
                case BOOLEAN -> "true or false";
                case INTEGER -> "a whole number";
                case FLOATING, DECIMAL -> "a number";
                case STRING -> "a string";
                case DATE -> "a date like \"2024-06-01\"";
                case TIME -> "a time like \"12:30:00\"";
                case TIMESTAMP -> "a timestamp like \"2024-06-01T12:30:00\" or epoch milliseconds";
            };
        }

        private Object parseLiteral(JsonNode value, Field field) {
            try {
                switch (this) {
                    case BOOLEAN:
                        return value.isBoolean() ? value.asBoolean() : null;
                    case INTEGER:
                        return value.isIntegralNumber() && value.canConvertToLong() ? value.asLong() : null;
                    case FLOATING:
                        return value.isNumber() ? value.doubleValue() : null;
                    case DECIMAL:
                        BigDecimal decimal = value.isNumber() ? value.decimalValue()
                                : value.isTextual() ? new BigDecimal(value.asText()) : null;
                        return decimal == null ? null : new ComparableDecimal(decimal);
                    case STRING:
                        return value.isTextual() ? value.asText() : null;
                    case DATE:
                        return value.isTextual() ? LocalDate.parse(value.asText()).toEpochDay()
                                : value.isIntegralNumber() ? value.asLong() : null;
                    case TIME:
                        if (!value.isTextual()) {
                            return null;
                        }
                        long nanos = LocalTime.parse(value.asText()).toNanoOfDay();
                        return fromNanos(nanos, ((ArrowType.Time) field.getType()).getUnit());
                    default:
                        ArrowType.Timestamp type = (ArrowType.Timestamp) field.getType();
                        Instant instant;
                        if (value.isIntegralNumber()) {
                            instant = Instant.ofEpochMilli(value.asLong());
                        } else if (!value.isTextual()) {
                            return null;
                        } else if (type.getTimezone() == null) {
                            instant = LocalDateTime.parse(value.asText().replace(' ', 'T')).toInstant(ZoneOffset.UTC);
                        } else {
                            instant = OffsetDateTime.parse(value.asText().replace(' ', 'T')).toInstant();
                        }
                        long epochNanos = Math.addExact(Math.multiplyExact(instant.getEpochSecond(), 1_000_000_000L),
                                instant.getNano());
                        return fromNanos(epochNanos, type.getUnit());
                }
            } catch (DateTimeException | NumberFormatException | ArithmeticException e) {
                return null;
            }
        }

        private static long fromNanos(long nanos, TimeUnit unit) {
            return switch (unit) {
                case SECOND -> Math.floorDiv(nanos, 1_000_000_000L);
                case MILLISECOND -> Math.floorDiv(nanos, 1_000_000L);
                case MICROSECOND -> Math.floorDiv(nanos, 1_000L);
                case NANOSECOND -> nanos;
            };
        }
    }

    /** Decimals compare by value, whatever their scale ({@code 1.0} equals {@code 1.00}). */
    private record ComparableDecimal(BigDecimal value) implements Comparable<Object> {
        @Override
        public int compareTo(Object other) {
            return value.compareTo((BigDecimal) other);
        }
    }
}
