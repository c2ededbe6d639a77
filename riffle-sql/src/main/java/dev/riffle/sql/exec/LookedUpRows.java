package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.values.FlussValueReader;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.row.InternalRow;

/**
 * What a key-lookup statement found ({@link DirectRead#lookUp}): whole rows of its table, and
 * which of their fields the statement answers, so that a server renders a handful of found rows
 * straight from them rather than through an Arrow batch made for them. The values read as the
 * statement's Arrow answer ({@link DirectRead#open}) reads them ({@link FlussValueReader}).
 *
 * <pre>{@code
 * for (InternalRow row : found.rows()) {
 *     for (int i = 0; i < found.columns().fields().size(); i++) {
 *         found.columns().readers().get(i).read(row, found.columns().fields().get(i), sink);
 *     }
 * }
 * }</pre>
 *
 * @param rows the rows found, whole (every field of the table), at most the statement's limit
 */
public record LookedUpRows(List<InternalRow> rows, Columns columns) {

    public LookedUpRows {
        rows = List.copyOf(requireNonNull(rows, "rows is null"));
        requireNonNull(columns, "columns is null");
    }

    /**
     * The statement's columns.
     *
     * @param schema the statement's answer as {@link DirectRead#open} reads it (names and types)
     * @param fields for each column, its position in the table's rows
     * @param readers for each column, the reader of its values
     */
    public record Columns(Schema schema, List<Integer> fields, List<FlussValueReader> readers) {
        public Columns {
            requireNonNull(schema, "schema is null");
            fields = List.copyOf(fields);
            readers = List.copyOf(readers);
            if (fields.size() != schema.getFields().size() || readers.size() != fields.size()) {
                throw new IllegalArgumentException(schema.getFields().size() + " columns, " + fields.size()
                        + " fields, " + readers.size() + " readers");
            }
        }
    }
}
