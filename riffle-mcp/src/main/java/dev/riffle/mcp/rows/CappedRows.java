package dev.riffle.mcp.rows;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Rows an answer carries, kept to a row and a byte cap, each as text cells (for the model) and as
 * JSON values (for structured content), with why rows were left out when some were.
 *
 * <pre>{@code
 * try (TableReader reader = ...) {
 *     CappedRows rows = CappedRows.read(reader, 100, 64 * 1024);
 *     System.out.println(TextTable.render(rows));
 * }
 * }</pre>
 *
 * @param columns the column names, in order
 * @param text each row's cells as text, empty for NULL
 * @param json each row as a JSON object of column to value (may be empty when only text is shown)
 * @param cut why fewer rows were kept than there were, when there were more
 */
public record CappedRows(List<String> columns, List<List<Optional<String>>> text, List<Map<String, Object>> json,
        Optional<String> cut) {
    public CappedRows {
        columns = List.copyOf(columns);
        text = List.copyOf(text);
        json = List.copyOf(json);
        requireNonNull(cut, "cut is null");
    }

    /**
     * The first rows of {@code reader}. Reading stops as soon as a cap is met: one row past the row
     * cap is looked at only to tell that there were more; the reader's owner closes it, which ends
     * the read or statement behind it.
     */
    public static CappedRows read(TableReader reader, int maxRows, int maxBytes) {
        Collector rows = new Collector(reader.schema().getFields().stream().map(Field::getName).toList(), maxRows,
                maxBytes);
        while (reader.hasNext()) {
            try (ReadBatch batch = reader.next()) {
                RowCells cells = new RowCells(batch.root());
                for (int row = 0; row < batch.rowCount(); row++) {
                    int at = row;
                    if (!rows.add(cells.text(at), () -> cells.json(at))) {
                        return rows.done();
                    }
                }
            }
        }
        return rows.done();
    }

    /** How many rows were kept. */
    public int size() {
        return text.size();
    }

    /** The structured form: {@code {"columns": [...], "rows": [...], "row_count": N, "cut": "..."}}. */
    public Map<String, Object> structured() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("columns", columns);
        out.put("rows", json);
        out.put("row_count", json.size());
        cut.ifPresent(reason -> out.put("cut", reason));
        return out;
    }

    /** Takes rows one at a time until a cap says stop. */
    public static final class Collector {
        private final List<String> columns;
        private final int maxRows;
        private final int maxBytes;
        private final List<List<Optional<String>>> text = new ArrayList<>();
        private final List<Map<String, Object>> json = new ArrayList<>();
        private long bytes;
        private Optional<String> cut = Optional.empty();

        public Collector(List<String> columns, int maxRows, int maxBytes) {
            this.columns = List.copyOf(columns);
            this.maxRows = maxRows;
            this.maxBytes = maxBytes;
            this.bytes = columns.stream().mapToLong(c -> c.getBytes(UTF_8).length + 3L).sum();
        }

        /** Keeps the row unless a cap is met; false (and the reason kept) once one is. */
        public boolean add(List<Optional<String>> cells, java.util.function.Supplier<Map<String, Object>> values) {
            if (cut.isPresent()) {
                return false;
            }
            if (text.size() == maxRows) {
                cut = Optional.of("the row limit of " + maxRows + ": more rows follow");
                return false;
            }
            long rowBytes = 1;
            for (Optional<String> cell : cells) {
                rowBytes += 3 + cell.map(v -> v.getBytes(UTF_8).length).orElse(4);
            }
            if (bytes + rowBytes > maxBytes) {
                cut = Optional.of("the byte cap of " + maxBytes + " bytes of text: " + text.size()
                        + (text.size() == 1 ? " row is" : " rows are") + " shown, more follow");
                return false;
            }
            bytes += rowBytes;
            text.add(cells);
            json.add(values.get());
            return true;
        }

        public CappedRows done() {
            return new CappedRows(columns, text, json, cut);
        }
    }
}
