package dev.riffle.sql.statement;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.BatchFilter;
import dev.riffle.core.reader.RowsReader;
import dev.riffle.core.reader.SelectingReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.values.FlussValueReader;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.RowType;

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
     * The rows as the statement's Arrow answer, in {@link Columns#schema()}: the batches
     * {@link DirectRead#open} reads for the same statement and parameters, for a server that
     * answers in Arrow. The caller closes the reader.
     *
     * <pre>{@code
     * try (TableReader answer = found.reader(allocator)) {
     *     while (answer.hasNext()) {
     *         try (ReadBatch batch = answer.next()) {
     *             send(batch.root());
     *         }
     *     }
     * }
     * }</pre>
     */
    public TableReader reader(BufferAllocator allocator) {
        requireNonNull(allocator, "allocator is null");
        int[] fields = columns.fields().stream().mapToInt(Integer::intValue).toArray();
        int[] all = IntStream.range(0, fields.length).toArray();
        List<String> names = columns.schema().getFields().stream().map(Field::getName).toList();
        return new SelectingReader(RowsReader.of(rows, columns.rowType(), fields, allocator), BatchFilter.all(),
                Long.MAX_VALUE, all, names);
    }

    /**
     * The statement's columns.
     *
     * @param schema the statement's answer as {@link DirectRead#open} reads it (names and types)
     * @param fields for each column, its position in the table's rows
     * @param readers for each column, the reader of its values
     * @param rowType the table's rows, which the found rows are
     */
    public record Columns(Schema schema, List<Integer> fields, List<FlussValueReader> readers, RowType rowType) {
        public Columns {
            requireNonNull(schema, "schema is null");
            requireNonNull(rowType, "rowType is null");
            fields = List.copyOf(fields);
            readers = List.copyOf(readers);
            if (fields.size() != schema.getFields().size() || readers.size() != fields.size()) {
                throw new IllegalArgumentException(schema.getFields().size() + " columns, " + fields.size()
                        + " fields, " + readers.size() + " readers");
            }
        }
    }
}
