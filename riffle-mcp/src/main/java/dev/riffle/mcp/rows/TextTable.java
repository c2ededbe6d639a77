package dev.riffle.mcp.rows;

import dev.riffle.core.values.AlignedTable;

/**
 * Rows as MCP answers show them: an aligned table ({@link AlignedTable}, NULL as {@code NULL} so a
 * model can tell it from an empty string), the count, and why rows were cut when they were.
 *
 * <pre>{@code
 *  id | name
 * ----+------
 *  1  | ada
 * (1 row)
 * }</pre>
 */
public final class TextTable {
    private TextTable() {}

    public static String render(CappedRows rows) {
        StringBuilder out = new StringBuilder(AlignedTable.render(rows.columns(), rows.text(), "NULL"));
        out.append(AlignedTable.rowCount(rows.size()));
        rows.cut().ifPresent(reason -> out.append("\nCut at ").append(reason).append('.'));
        return out.toString();
    }
}
