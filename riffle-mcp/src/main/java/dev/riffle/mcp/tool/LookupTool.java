package dev.riffle.mcp.tool;

import dev.riffle.mcp.rows.CappedRows;
import dev.riffle.mcp.rows.TextTable;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/** {@code lookup}: a primary-key table's row by its key, read by a point lookup. */
public final class LookupTool implements RiffleTool {
    @Override
    public String name() {
        return "lookup";
    }

    @Override
    public String description() {
        return "Look up the current row of a primary-key table by its full primary key (a point lookup in the "
                + "key-value store). Give every primary-key column in 'key'; describe_table names them.";
    }

    @Override
    public String inputSchema() {
        return """
                {"type": "object", "properties": {
                  "table": {"type": "string", "description": "database.table of a primary-key table"},
                  "key": {"type": "object", "description": "Each primary-key column and its value, e.g. {\\"id\\": 42}"}},
                 "required": ["table", "key"], "additionalProperties": false}""";
    }

    @Override
    public ToolAnswer call(ToolCall call) throws Exception {
        TablePath path = call.arguments().table("table");
        Map<String, Object> key = call.arguments().object("key");
        TableInfo info = call.request().tableInfo(path);
        if (!info.hasPrimaryKey()) {
            throw call.arguments().invalid("reads primary-key tables; " + path
                    + " is a log table (use sample, tail or query)");
        }
        List<String> primaryKey = info.getPrimaryKeys();
        if (!new TreeSet<>(key.keySet()).equals(new TreeSet<>(primaryKey))) {
            throw call.arguments().invalid("needs exactly the primary key " + primaryKey + " of " + path
                    + " in 'key', got " + new TreeSet<>(key.keySet()));
        }
        StringBuilder sql = new StringBuilder("SELECT * FROM ").append(SqlNames.table(path)).append(" WHERE ");
        List<Object> parameters = new ArrayList<>();
        for (int i = 0; i < primaryKey.size(); i++) {
            String column = primaryKey.get(i);
            sql.append(i == 0 ? "" : " AND ").append(SqlNames.identifier(column)).append(" = ?");
            parameters.add(parameter(call, column, key.get(column)));
        }
        try (SqlResult result = SqlStatements.run(call.request(), sql.toString(), parameters)) {
            CappedRows rows = CappedRows.read(((SqlResult.Rows) result).reader(), 1, call.limits().maxBytes());
            String text = rows.size() == 0 ? "No row of " + path + " has the key " + key : TextTable.render(rows);
            Map<String, Object> structured = new java.util.LinkedHashMap<>();
            structured.put("table", path.toString());
            structured.put("found", rows.size() > 0);
            structured.put("row", rows.size() == 0 ? null : rows.json().get(0));
            return new ToolAnswer(text, structured);
        }
    }

    /** A key value as the SQL layer takes a parameter. */
    private static Object parameter(ToolCall call, String column, Object value) {
        if (value == null) {
            throw call.arguments().invalid("needs a value for the key column '" + column + "', got null");
        }
        if (value instanceof java.math.BigInteger big) {
            return new BigDecimal(big);
        }
        if (value instanceof Double || value instanceof Float) {
            return BigDecimal.valueOf(((Number) value).doubleValue());
        }
        if (value instanceof String || value instanceof Number || value instanceof Boolean) {
            return value;
        }
        throw call.arguments().invalid("takes the key column '" + column + "' as a string, number or boolean");
    }
}
