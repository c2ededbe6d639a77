package dev.riffle.mcp.tool;

import dev.riffle.mcp.rows.CappedRows;
import dev.riffle.mcp.rows.TextTable;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import java.util.List;
import org.apache.fluss.metadata.TablePath;

/** {@code sample}: a few rows of a table, read by a limit scan (never the whole table). */
public final class SampleTool implements RiffleTool {
    @Override
    public String name() {
        return "sample";
    }

    @Override
    public String description() {
        return "Show a few rows of a table (its current rows: a primary-key table's latest row per key, a "
                + "datalake-enabled table's lake snapshot and log). Reads only as many rows as asked for.";
    }

    @Override
    public String inputSchema() {
        return """
                {"type": "object", "properties": {
                  "table": {"type": "string", "description": "database.table"},
                  "limit": {"type": "integer", "minimum": 1, "description": "How many rows (default 10)"}},
                 "required": ["table"], "additionalProperties": false}""";
    }

    @Override
    public ToolAnswer call(ToolCall call) throws Exception {
        TablePath table = call.arguments().table("table");
        call.request().tableInfo(table); // an unknown table is named as such, not as a failed statement
        int limit = Math.min(call.arguments().integer("limit", 10, 1, Integer.MAX_VALUE), call.limits().maxRows());
        // One row past the limit tells whether the table has more than was shown.
        try (SqlResult result = SqlStatements.run(call.request(),
                "SELECT * FROM " + SqlNames.table(table) + " LIMIT " + (limit + 1), List.of())) {
            CappedRows rows = CappedRows.read(((SqlResult.Rows) result).reader(), limit, call.limits().maxBytes());
            return new ToolAnswer(TextTable.render(rows), rows.structured());
        }
    }
}
