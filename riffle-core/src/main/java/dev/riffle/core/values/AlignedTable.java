package dev.riffle.core.values;

import java.util.List;
import java.util.Optional;

/**
 * Rows as an aligned text table, the way psql prints them: a header, a rule, a line per row, each
 * column as wide as its widest cell. Line breaks inside a value show as {@code \n} so that every
 * row stays on one line. What follows the rows (a count, a note) is the caller's.
 *
 * <pre>{@code
 * AlignedTable.render(List.of("id", "name"), rows, "")
 * //  id | name
 * // ----+------
 * //  1  | ada
 * }</pre>
 */
public final class AlignedTable {
    private AlignedTable() {}

    /**
     * @param cells each row's cells as text ({@link TextValueSink}), empty for NULL
     * @param nullText what an empty cell shows ({@code ""} as psql, {@code NULL} where it must be told apart)
     */
    public static String render(List<String> columns, List<List<Optional<String>>> cells, String nullText) {
        int[] widths = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            widths[i] = columns.get(i).length();
        }
        String[][] shown = new String[cells.size()][];
        for (int r = 0; r < cells.size(); r++) {
            List<Optional<String>> row = cells.get(r);
            shown[r] = new String[row.size()];
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i).map(AlignedTable::oneLine).orElse(nullText);
                widths[i] = Math.max(widths[i], cell.length());
                shown[r][i] = cell;
            }
        }
        StringBuilder out = new StringBuilder();
        appendLine(out, columns.toArray(String[]::new), widths);
        for (int i = 0; i < widths.length; i++) {
            out.append(i == 0 ? "" : "+").append("-".repeat(widths[i] + 2));
        }
        out.append('\n');
        for (String[] line : shown) {
            appendLine(out, line, widths);
        }
        return out.toString();
    }

    /** {@code (1 row)}, {@code (2 rows)}: the count psql prints under a table. */
    public static String rowCount(long rows) {
        return "(" + rows + (rows == 1 ? " row)" : " rows)");
    }

    private static void appendLine(StringBuilder out, String[] cells, int[] widths) {
        for (int i = 0; i < cells.length; i++) {
            out.append(i == 0 ? " " : " | ").append(cells[i]);
            if (i < cells.length - 1) {
                out.append(" ".repeat(widths[i] - cells[i].length()));
            }
        }
        out.append('\n');
    }

    private static String oneLine(String value) {
        return value.replace("\r", "\\r").replace("\n", "\\n");
    }
}
