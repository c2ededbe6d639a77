package dev.riffle.gateway.rows;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.types.ArrowFieldFit;
import dev.riffle.core.types.ArrowWriteLayout;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.FlussValueSink;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * What the rows of one request must look like, and their conversion to Fluss rows: which columns
 * the output row has (all of them for writes, the key columns for lookups), which the input may
 * name, and which it must give (non-null). Every failure names the row index and the column.
 */
final class RowShape {
    private final TableInfo table;
    private final RowType rowType;
    private final List<String> output;
    private final Set<String> allowed;
    private final Set<String> required;
    private final String purpose;
    private final boolean keys;
    /** Each output column's position and type, by name, for rows read off a stream. */
    private final Map<String, Integer> positions = new HashMap<>();
    private final DataType[] outputTypes;
    private final boolean[] allowedAt;
    private final boolean[] requiredAt;

    private RowShape(TableInfo table, List<String> output, Set<String> allowed, Set<String> required, String purpose,
            boolean keys) {
        this.table = requireNonNull(table, "table is null");
        this.rowType = table.getRowType();
        this.output = List.copyOf(output);
        this.allowed = Set.copyOf(allowed);
        this.required = Set.copyOf(required);
        this.purpose = purpose;
        this.keys = keys;
        this.outputTypes = new DataType[this.output.size()];
        this.allowedAt = new boolean[outputTypes.length];
        this.requiredAt = new boolean[outputTypes.length];
        for (int i = 0; i < outputTypes.length; i++) {
            String column = this.output.get(i);
            // Jackson interns the field names it reads: an interned key is found by identity.
            positions.put(column.intern(), i);
            outputTypes[i] = typeOf(column);
            allowedAt[i] = this.allowed.contains(column);
            requiredAt[i] = this.required.contains(column);
        }
    }

    /** Whole rows for an append (log tables) or upsert (primary-key tables). */
    static RowShape write(TableInfo table) {
        Set<String> required = new LinkedHashSet<>(table.getPrimaryKeys());
        required.addAll(notNullColumns(table.getRowType()));
        return new RowShape(table, table.getRowType().getFieldNames(), Set.copyOf(table.getRowType().getFieldNames()),
                required, "this write", false);
    }

    /** Rows of a partial update: the given columns, which include the whole primary key. */
    static RowShape partialUpdate(TableInfo table, List<String> columns) {
        if (!table.hasPrimaryKey()) {
            throw ApiException.badRequest("invalid_request", "?columns= is a partial update, which needs a primary-key table; "
                    + table.getTablePath() + " is a log table");
        }
        List<String> names = table.getRowType().getFieldNames();
        for (String column : columns) {
            if (!names.contains(column)) {
                throw ApiException.badRequest("column_not_found", "Column '" + column + "' in ?columns= does not exist; "
                        + "columns of " + table.getTablePath() + ": " + names);
            }
        }
        for (String key : table.getPrimaryKeys()) {
            if (!columns.contains(key)) {
                throw ApiException.badRequest("invalid_request", "?columns= must include every primary-key column "
                        + table.getPrimaryKeys() + "; missing '" + key + "'");
            }
        }
        Set<String> required = new LinkedHashSet<>(table.getPrimaryKeys());
        for (String column : notNullColumns(table.getRowType())) {
            if (columns.contains(column)) {
                required.add(column);
            }
        }
        return new RowShape(table, names, Set.copyOf(columns), required, "this partial update of " + columns, false);
    }

    /** Keys to delete: whole rows with only the primary key set. */
    static RowShape deleteKey(TableInfo table) {
        requirePrimaryKey(table, "Deleting rows");
        return new RowShape(table, table.getRowType().getFieldNames(), Set.copyOf(table.getPrimaryKeys()),
                Set.copyOf(table.getPrimaryKeys()), "a key", true);
    }

    /** Key rows for point lookups: the primary-key columns in key order. */
    static RowShape lookupKey(TableInfo table) {
        requirePrimaryKey(table, "Lookups");
        return new RowShape(table, table.getPrimaryKeys(), Set.copyOf(table.getPrimaryKeys()),
                Set.copyOf(table.getPrimaryKeys()), "a key", true);
    }

    /** Key rows for prefix lookups over {@code columns}, in that order. */
    static RowShape prefixKey(TableInfo table, List<String> columns) {
        requirePrimaryKey(table, "Prefix lookups");
        return new RowShape(table, columns, Set.copyOf(columns), Set.copyOf(columns), "a prefix key", true);
    }

    static void requirePrimaryKey(TableInfo table, String what) {
        if (!table.hasPrimaryKey()) {
            throw ApiException.badRequest("not_a_primary_key_table", what + " need a primary-key table; "
                    + table.getTablePath() + " is a log table");
        }
    }

    List<String> outputColumns() {
        return output;
    }

    /** Row {@code index} of a JSON body as a Fluss row. */
    GenericRow fromJson(JsonNode node, int index, boolean textMode) {
        if (node == null || !node.isObject()) {
            String noun = keys ? "Key" : "Row";
            throw new ApiException(400, keys ? "invalid_key" : "invalid_row", (index >= 0 ? noun + " " + index : noun)
                    + " must be a JSON object of column values, got " + Json.describe(node),
                    index >= 0 ? Map.of(noun.toLowerCase(java.util.Locale.ROOT), index) : Map.of(), null);
        }
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            checkAllowed(names.next(), index);
        }
        return row(node::get, index, textMode);
    }

    /** A reader of the rows of one streamed JSON body ({@link StreamedRows#next}). */
    StreamedRows streamedRows() {
        return new StreamedRows();
    }

    /**
     * The rows of one streamed JSON body, read through the value layer: one {@link FlussValueSink}
     * per column, reused row after row. Serves one thread.
     */
    final class StreamedRows {
        private final FlussValueSink[] sinks = new FlussValueSink[outputTypes.length];

        private StreamedRows() {
            for (int column = 0; column < sinks.length; column++) {
                sinks[column] = new FlussValueSink(outputTypes[column]);
            }
        }

        /**
         * Row {@code index} of the body as a Fluss row: the value at {@code parser}'s current
         * token, read through its last token. Takes and refuses what {@link #fromJson(JsonNode, int, boolean)}
         * does (not in text mode), with the same errors; a row with several problems reports the
         * first met in the order its fields are written (a missing column last). The parser is one
         * of {@link Json#streamingParser}: a name given twice in the row is found here.
         */
        GenericRow next(JsonParser parser, int index) throws IOException {
            if (parser.currentToken() != JsonToken.START_OBJECT) {
                return fromJson(Json.valueAt(parser), index, false); // fails, saying what the row was
            }
            GenericRow row = new GenericRow(output.size());
            boolean[] given = new boolean[output.size()];
            for (String name = parser.nextFieldName(); name != null; name = parser.nextFieldName()) {
                Integer position = positions.get(name);
                if (position == null || !allowedAt[position]) {
                    checkAllowed(name, index); // fails, naming the column
                }
                int column = position;
                if (given[column]) {
                    throw new JsonParseException(parser, "Duplicate field '" + name + "'");
                }
                given[column] = true;
                parser.nextToken();
                Object value;
                try {
                    JsonValueReader.read(parser, outputTypes[column], sinks[column]);
                    value = sinks[column].take();
                } catch (InvalidValueException e) {
                    throw invalid(index, name, e.getMessage());
                }
                if (value == null && requiredAt[column]) {
                    throw invalid(index, name, "null, but " + purpose + " needs it" + why(name));
                }
                row.setField(column, value);
            }
            for (int column = 0; column < given.length; column++) {
                String name = output.get(column);
                if (!given[column] && requiredAt[column]) {
                    throw invalid(index, name, "missing, but " + purpose + " needs it" + why(name));
                }
            }
            return row;
        }
    }

    /**
     * A key or row given as text per column (a URL's path and query parameters) as a Fluss row:
     * each value read as {@link #fromJson} reads a JSON string in text mode, with its errors.
     */
    GenericRow fromText(Map<String, String> values) {
        for (String name : values.keySet()) {
            checkAllowed(name, -1);
        }
        return row(column -> {
            String value = values.get(column);
            return value == null ? null : TextNode.valueOf(value);
        }, -1, true);
    }

    /** The row of the values {@code valueOf} gives per column (null when not given); its names are checked already. */
    private GenericRow row(Function<String, JsonNode> valueOf, int index, boolean textMode) {
        GenericRow row = new GenericRow(output.size());
        for (int i = 0; i < output.size(); i++) {
            String column = output.get(i);
            if (!allowed.contains(column)) {
                continue;
            }
            JsonNode value = valueOf.apply(column);
            if ((value == null || value.isNull()) && required.contains(column)) {
                throw invalid(index, column, (value == null ? "missing" : "null") + ", but " + purpose
                        + " needs it" + why(column));
            }
            try {
                row.setField(i, JsonValueReader.toFluss(value, typeOf(column), textMode));
            } catch (InvalidValueException e) {
                throw invalid(index, column, e.getMessage());
            }
        }
        return row;
    }

    /** Checks an Arrow body's schema against the shape before any row is read. */
    void checkArrowSchema(List<Field> fields) {
        Set<String> seen = new LinkedHashSet<>();
        for (Field field : fields) {
            checkAllowed(field.getName(), -1);
            if (!seen.add(field.getName())) {
                throw ApiException.badRequest("invalid_request", "The Arrow schema has column '" + field.getName() + "' twice");
            }
            ArrowFieldFit.checkFits(field, typeOf(field.getName()))
                    .ifPresent(problem -> {
                        throw ApiException.badRequest("invalid_request", "Column '" + field.getName() + "': " + problem);
                    });
        }
        for (String column : required) {
            if (!seen.contains(column)) {
                throw ApiException.badRequest("invalid_request", "The Arrow schema lacks column '" + column + "', but "
                        + purpose + " needs it" + why(column) + "; it has " + seen);
            }
        }
    }

    /**
     * Where each of the table's columns is in Arrow batches of {@code fields}, when such batches
     * are whole rows of a log table that Fluss's writer can take as they are
     * ({@link ArrowWriteLayout}). Empty otherwise: the rows are converted value by value ({@link #fromArrow}).
     */
    Optional<int[]> asWritten(List<Field> fields) {
        if (keys || table.hasPrimaryKey() || !output.equals(rowType.getFieldNames())) {
            return Optional.empty();
        }
        return ArrowWriteLayout.of(rowType, fields);
    }

    /**
     * Checks a batch written as it is ({@link #asWritten}): a null where this write needs a value
     * fails with the same error as a converted row; {@code firstIndex} is its first row's index in the request.
     */
    void checkRequired(VectorSchemaRoot batch, int[] positions, int firstIndex) {
        for (int column = 0; column < output.size(); column++) {
            String name = output.get(column);
            if (!required.contains(name)) {
                continue;
            }
            OptionalInt row = ArrowWriteLayout.firstNull(batch.getVector(positions[column]), batch.getRowCount());
            if (row.isPresent()) {
                throw invalid(firstIndex + row.getAsInt(), name, "null, but " + purpose + " needs it" + why(name));
            }
        }
    }

    /** Every row of an Arrow batch as Fluss rows; {@code firstIndex} is the first row's index in the request. */
    List<GenericRow> fromArrow(VectorSchemaRoot batch, int firstIndex) {
        List<GenericRow> rows = new ArrayList<>(batch.getRowCount());
        List<FieldVector> vectors = batch.getFieldVectors();
        int[] positions = new int[vectors.size()];
        ArrowValueReader[] readers = new ArrowValueReader[vectors.size()];
        FlussValueSink[] sinks = new FlussValueSink[vectors.size()];
        for (int v = 0; v < positions.length; v++) {
            String column = vectors.get(v).getName();
            positions[v] = output.indexOf(column);
            readers[v] = ArrowValueReader.of(vectors.get(v));
            sinks[v] = new FlussValueSink(typeOf(column));
        }
        for (int r = 0; r < batch.getRowCount(); r++) {
            GenericRow row = new GenericRow(output.size());
            for (int v = 0; v < positions.length; v++) {
                String column = readers[v].name();
                try {
                    readers[v].read(r, sinks[v]);
                    Object value = sinks[v].take();
                    if (value == null && required.contains(column)) {
                        throw invalid(firstIndex + r, column, "null, but " + purpose + " needs it"
                                + why(column));
                    }
                    row.setField(positions[v], value);
                } catch (InvalidValueException e) {
                    throw invalid(firstIndex + r, column, e.getMessage());
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private void checkAllowed(String name, int index) {
        if (allowed.contains(name)) {
            return;
        }
        String noun = keys ? "Key" : "Row";
        String where = index >= 0 ? noun + " " + index + ": c" : "C";
        Map<String, Object> details = index >= 0
                ? Map.of(noun.toLowerCase(java.util.Locale.ROOT), index, "column", name)
                : Map.of("column", name);
        if (rowType.getFieldNames().contains(name)) {
            throw new ApiException(400, keys ? "invalid_key" : "invalid_row", where + "olumn '" + name + "' is not part of " + purpose
                    + ", which takes " + allowed.stream().sorted().toList(), details, null);
        }
        throw new ApiException(400, "column_not_found", where + "olumn '" + name + "' does not exist; columns of "
                + table.getTablePath() + ": " + rowType.getFieldNames(), details, null);
    }

    private ApiException invalid(int index, String column, String problem) {
        return keys
                ? ApiException.invalidValue("invalid_key", "Key", index, column, problem)
                : ApiException.invalidValue("invalid_row", "Row", index, column, problem);
    }

    private String why(String column) {
        if (table.getPrimaryKeys().contains(column)) {
            return " (primary-key column)";
        }
        return typeOf(column).isNullable() ? "" : " (the column is NOT NULL)";
    }

    private DataType typeOf(String column) {
        return rowType.getTypeAt(rowType.getFieldIndex(column));
    }

    private static List<String> notNullColumns(RowType rowType) {
        List<String> columns = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            if (!rowType.getTypeAt(i).isNullable()) {
                columns.add(rowType.getFieldNames().get(i));
            }
        }
        return columns;
    }
}
