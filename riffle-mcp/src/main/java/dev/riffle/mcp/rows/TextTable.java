package dev.riffle.mcp.rows;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Rows as a compact, aligned text table, the way psql prints them: a header, a rule, a line per
 * row, then the count and, when the answer was cut, why. NULL shows as {@code NULL}; line breaks
 * inside a value show as {@code \n}, so every row stays on one line.
 *
 * <pre>{@code
 *  id | name
 * ----+------
 *   1 | ada
 * (1 row)
 * }</pre>
 */
public final class TextTable {
    private TextTable() {}

    public static String render(CappedRows rows) {
        List<String> columns = rows.columns();
        List<List<String>> cells = new ArrayList<>();
        int[] widths = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            widths[i] = columns.get(i).length();
        }
        for (List<Optional<String>> row : rows.text()) {
            List<String> line = new ArrayList<>(row.size());
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i).map(TextTable::oneLine).orElse("NULL");
                widths[i] = Math.max(widths[i], cell.length());
                line.add(cell);
            }
            cells.add(line);
        }
        StringBuilder out = new StringBuilder();
        appendLine(out, columns, widths);
        for (int i = 0; i < widths.length; i++) {
            out.append(i == 0 ? "" : "+").append("-".repeat(widths[i] + 2));
        }
        out.append('\n');
        for (List<String> line : cells) {
            appendLine(out, line, widths);
        }
        out.append('(').append(rows.size()).append(rows.size() == 1 ? " row)" : " rows)");
        rows.cut().ifPresent(reason -> out.append("\nCut at ").append(reason).append('.'));
        return out.toString();
    }

    private static void appendLine(StringBuilder out, List<String> cells, int[] widths) {
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            out.append(i == 0 ? " " : " | ").append(cell);
            if (i < cells.size() - 1) {
                out.append(" ".repeat(widths[i] - cell.length()));
            }
        }
        out.append('\n');
    }

    private static String oneLine(String value) {
        return value.replace("\r", "\\r").replace("\n", "\\n");
    }
}
