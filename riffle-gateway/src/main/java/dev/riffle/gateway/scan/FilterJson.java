package dev.riffle.gateway.scan;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.read.ChangelogColumns;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.rows.JsonValueReader;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateBuilder;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.RowType;

/**
 * A scan's JSON filter as a Fluss predicate, which the read façade applies like any other filter
 * (partitions it rules out are not read, the lake prunes files by it, the rows are tested on
 * their Arrow batches). The JSON form:
 *
 * <pre>
 * {"column": "amount", "op": ">=", "value": 100}
 * {"and": [f, ...]}   {"or": [f, ...]}   {"not": f}
 * </pre>
 *
 * <p>Operators: {@code = != < <= > >=}, {@code in} (value is an array), {@code is_null},
 * {@code is_not_null}. Comparisons with a null cell are false, as in SQL (so are their
 * negations). Values are written as the write endpoints take them. A changelog scan may also
 * filter on {@code _change_type}, {@code _log_offset} and {@code _commit_timestamp}. Columns of
 * boolean, numeric, decimal, string, date, time and timestamp type can be filtered.
 */
final class FilterJson {
    private static final Set<String> OPERATORS = Set.of("=", "!=", "<", "<=", ">", ">=", "in", "is_null", "is_not_null");
    private static final Set<DataTypeRoot> NOT_COMPARABLE = EnumSet.of(DataTypeRoot.BINARY, DataTypeRoot.BYTES,
            DataTypeRoot.ARRAY, DataTypeRoot.MAP, DataTypeRoot.ROW);

    private final RowType rowType;
    private final PredicateBuilder builder;
    private final String table;

    private FilterJson(RowType rowType, String table) {
        this.rowType = rowType;
        this.builder = new PredicateBuilder(rowType);
        this.table = table;
    }

    /** The filter over {@code table}'s columns (and the changelog columns, for a changelog scan). */
    static Predicate parse(JsonNode json, TableInfo table, boolean changelog) {
        RowType rowType = changelog ? ChangelogColumns.rowType(table.getRowType()) : table.getRowType();
        return new FilterJson(rowType, table.getTablePath().toString()).node(json, "filter");
    }

    private Predicate node(JsonNode json, String path) {
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
            List<Predicate> parts = new ArrayList<>();
            for (int i = 0; i < children.size(); i++) {
                parts.add(node(children.get(i), path + "." + kind + "[" + i + "]"));
            }
            return kind.equals("and") ? PredicateBuilder.and(parts) : PredicateBuilder.or(parts);
        }
        if (json.has("not")) {
            Json.onlyFields(json, path, Set.of("not"));
            Predicate inner = node(json.get("not"), path + ".not");
            return inner.negate().orElseThrow(() -> invalid(path, "this filter cannot be negated"));
        }
        return comparison(json, path);
    }

    private Predicate comparison(JsonNode json, String path) {
        Json.onlyFields(json, path, Set.of("column", "op", "value"));
        String column = Json.requiredText(json, "column", path);
        String op = Json.requiredText(json, "op", path);
        if (!OPERATORS.contains(op)) {
            throw invalid(path, "unknown op '" + op + "'; ops: " + OPERATORS.stream().sorted().toList());
        }
        int field = rowType.getFieldIndex(column);
        if (field < 0) {
            throw ApiException.badRequest("column_not_found", "Column '" + column + "' in " + path
                    + " does not exist; columns of " + table + ": " + rowType.getFieldNames());
        }
        DataType type = rowType.getTypeAt(field);
        if (NOT_COMPARABLE.contains(type.getTypeRoot())) {
            throw invalid(path, "column '" + column + "' has type " + type + ", which filters cannot compare");
        }
        if (op.equals("is_null") || op.equals("is_not_null")) {
            if (json.has("value")) {
                throw invalid(path, "op '" + op + "' takes no value");
            }
            return op.equals("is_null") ? builder.isNull(field) : builder.isNotNull(field);
        }
        JsonNode value = json.get("value");
        if (value == null || value.isNull()) {
            throw invalid(path, "op '" + op + "' needs a non-null \"value\" (use is_null for nulls)");
        }
        if (op.equals("in")) {
            if (!value.isArray() || value.isEmpty()) {
                throw invalid(path, "op 'in' needs \"value\": a non-empty array");
            }
            List<Object> candidates = new ArrayList<>();
            for (JsonNode element : value) {
                candidates.add(literal(element, column, type, path));
            }
            return builder.in(field, candidates);
        }
        Object literal = literal(value, column, type, path);
        return switch (op) {
            case "=" -> builder.equal(field, literal);
            case "!=" -> builder.notEqual(field, literal);
            case "<" -> builder.lessThan(field, literal);
            case "<=" -> builder.lessOrEqual(field, literal);
            case ">" -> builder.greaterThan(field, literal);
            default -> builder.greaterOrEqual(field, literal);
        };
    }

    /** The value as Fluss compares it with the column's cells. */
    private static Object literal(JsonNode value, String column, DataType type, String path) {
        Object fluss;
        try {
            fluss = JsonValueReader.toFluss(value, type, false);
        } catch (InvalidValueException e) {
            throw invalid(path, "the value for column '" + column + "': " + e.getMessage());
        }
        // Fluss 0.9.1's predicates read a TIMESTAMP_LTZ cell as a TIMESTAMP_NTZ: compare like with like.
        if (fluss instanceof TimestampLtz ltz) {
            return TimestampNtz.fromMillis(ltz.getEpochMillisecond(), ltz.getNanoOfMillisecond());
        }
        return fluss;
    }

    private static ApiException invalid(String path, String problem) {
        return ApiException.badRequest("invalid_filter", "Bad " + path + ": " + problem);
    }
}
