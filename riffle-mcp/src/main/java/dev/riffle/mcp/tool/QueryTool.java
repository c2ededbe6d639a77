package dev.riffle.mcp.tool;

import dev.riffle.mcp.rows.CappedRows;
import dev.riffle.mcp.rows.TextTable;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code query}: one SQL statement, its rows capped. Read-only unless the server allows writes:
 * a statement that is no query (INSERT, UPDATE, DELETE, DDL) is refused before it runs.
 */
public final class QueryTool implements RiffleTool {
    private final boolean writesAllowed;

    public QueryTool(boolean writesAllowed) {
        this.writesAllowed = writesAllowed;
    }

    @Override
    public String name() {
        return "query";
    }

    @Override
    public String description() {
        return "Run one SQL statement (Apache Calcite SQL over Fluss tables, named database.table; "
                + "t$changelog reads a table's changes, t$lake its lake snapshot). Filters on the full primary key "
                + "become point lookups, LIMIT becomes a limit scan; use explain to see the access path. "
                + "Rows are capped (the answer says when more follow). "
                + (writesAllowed ? "INSERT, UPDATE, DELETE and DDL are allowed on this server."
                        : "This server is read-only: only queries run.");
    }

    @Override
    public String inputSchema() {
        return """
                {"type": "object", "properties": {
                  "sql": {"type": "string", "description": "One SQL statement, e.g. SELECT count(*) FROM shop.orders"},
                  "limit": {"type": "integer", "minimum": 1, "description": "The most rows to answer (at most the server's cap)"}},
                 "required": ["sql"], "additionalProperties": false}""";
    }

    @Override
    public boolean readOnly() {
        return !writesAllowed;
    }

    @Override
    public ToolAnswer call(ToolCall call) throws Exception {
        String sql = call.arguments().string("sql");
        int limit = call.arguments().integer("limit", call.limits().maxRows(), 1, Integer.MAX_VALUE);
        if (!writesAllowed && !SqlStatements.shape(call.request(), sql).query()) {
            throw new ServiceException(FailureKind.PERMISSION_DENIED, "read_only",
                    "This MCP server is read-only: it runs queries, not INSERT, UPDATE, DELETE or DDL "
                            + "(start it with --mcp-allow-writes to allow them)");
        }
        try (SqlResult result = SqlStatements.run(call.request(), sql, List.of())) {
            if (result instanceof SqlResult.Rows rows) {
                CappedRows kept = CappedRows.read(rows.reader(), Math.min(limit, call.limits().maxRows()),
                        call.limits().maxBytes());
                return new ToolAnswer(TextTable.render(kept), kept.structured());
            }
            SqlResult.Updated updated = (SqlResult.Updated) result;
            Map<String, Object> structured = new LinkedHashMap<>();
            structured.put("updated_rows", updated.count());
            if (!updated.notices().isEmpty()) {
                structured.put("notices", updated.notices());
            }
            String text = "OK: " + updated.count() + (updated.count() == 1 ? " row" : " rows") + " changed"
                    + (updated.notices().isEmpty() ? "" : "\n" + String.join("\n", updated.notices()));
            return new ToolAnswer(text, structured);
        }
    }
}
