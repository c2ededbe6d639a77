package dev.riffle.mcp.tool;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code list_databases}: the databases the caller may see. */
public final class ListDatabasesTool implements RiffleTool {
    @Override
    public String name() {
        return "list_databases";
    }

    @Override
    public String description() {
        return "List the databases of the Fluss cluster. Next: list_tables with one of them.";
    }

    @Override
    public String inputSchema() {
        return "{\"type\": \"object\", \"properties\": {}, \"additionalProperties\": false}";
    }

    @Override
    public ToolAnswer call(ToolCall call) {
        List<String> databases = new ArrayList<>(call.request().await(call.request().admin().listDatabases(),
                "Listing databases"));
        databases.sort(null);
        int shown = Math.min(databases.size(), call.limits().maxRows());
        StringBuilder text = new StringBuilder(databases.size() + (databases.size() == 1 ? " database" : " databases"));
        for (String database : databases.subList(0, shown)) {
            text.append("\n- ").append(database);
        }
        Map<String, Object> structured = new java.util.LinkedHashMap<>();
        structured.put("databases", databases.subList(0, shown));
        if (shown < databases.size()) {
            String cut = "the row cap: the first " + shown + " of " + databases.size() + " databases are shown";
            text.append("\nCut at ").append(cut).append('.');
            structured.put("cut", cut);
        }
        return new ToolAnswer(text.toString(), structured);
    }
}
