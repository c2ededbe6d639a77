package dev.riffle.mcp.tool;

import dev.riffle.mcp.rows.CappedRows;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code explain}: the plan of a query, and the access path it reads each table with (a point
 * lookup, a prefix lookup, a limit scan, a lake + log union scan, ...), without running it.
 */
public final class ExplainTool implements RiffleTool {
    private static final Pattern SCAN = Pattern.compile("FlussScan\\(table=\\[\\[([^\\]]*)\\]\\].*?access=\\[(.*?)\\], columns=");

    @Override
    public String name() {
        return "explain";
    }

    @Override
    public String description() {
        return "Show how a SQL query would run, without running it: the plan, and the access path of each table "
                + "read (point lookup by the full primary key, prefix lookup by the bucket key, limit scan, "
                + "lake + log union scan, log scan).";
    }

    @Override
    public String inputSchema() {
        return """
                {"type": "object", "properties": {
                  "sql": {"type": "string", "description": "One SQL query"}},
                 "required": ["sql"], "additionalProperties": false}""";
    }

    @Override
    public ToolAnswer call(ToolCall call) throws Exception {
        String sql = call.arguments().string("sql");
        if (!SqlStatements.shape(call.request(), sql).query()) {
            throw new ServiceException(FailureKind.INVALID_ARGUMENT, "not_a_query",
                    "explain takes a query; this statement changes data or tables");
        }
        String plan;
        try (SqlResult result = SqlStatements.run(call.request(), "EXPLAIN PLAN FOR " + sql, List.of())) {
            CappedRows rows = CappedRows.read(((SqlResult.Rows) result).reader(), 1000, Integer.MAX_VALUE);
            StringBuilder text = new StringBuilder();
            rows.text().forEach(row -> row.forEach(cell -> text.append(cell.orElse(""))));
            plan = text.toString().strip();
        }
        List<Map<String, Object>> paths = new ArrayList<>();
        StringBuilder answer = new StringBuilder();
        Matcher scans = SCAN.matcher(plan);
        while (scans.find()) {
            Map<String, Object> path = new LinkedHashMap<>();
            path.put("table", scans.group(1).replace(", ", "."));
            path.put("access", scans.group(2));
            paths.add(path);
            answer.append("access path: ").append(path.get("table")).append(" by ").append(path.get("access"))
                    .append('\n');
        }
        answer.append("plan:\n").append(plan);
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("access_paths", paths);
        structured.put("plan", plan);
        return new ToolAnswer(answer.toString(), structured);
    }
}
