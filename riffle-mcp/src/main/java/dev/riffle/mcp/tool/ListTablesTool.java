package dev.riffle.mcp.tool;

import dev.riffle.mcp.rows.CappedRows;
import dev.riffle.mcp.rows.TextTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/** {@code list_tables}: a database's tables with their kind, keys, buckets, partitions and lake. */
public final class ListTablesTool implements RiffleTool {
    private static final List<String> COLUMNS = List.of("table", "kind", "primary_key", "bucket_key", "buckets",
            "partitioned_by", "datalake");

    @Override
    public String name() {
        return "list_tables";
    }

    @Override
    public String description() {
        return "List the tables of a database: kind (log or primary-key), primary key, bucket key, buckets, "
                + "partition keys, and whether it is tiered into the Paimon lake (datalake). "
                + "Next: describe_table for columns and offsets.";
    }

    @Override
    public String inputSchema() {
        return """
                {"type": "object", "properties": {
                  "database": {"type": "string", "description": "The database, e.g. shop"}},
                 "required": ["database"], "additionalProperties": false}""";
    }

    @Override
    public ToolAnswer call(ToolCall call) {
        String database = call.arguments().string("database");
        List<String> names = new ArrayList<>(call.request().await(call.request().admin().listTables(database),
                "Listing the tables of " + database));
        names.sort(null);
        int shown = Math.min(names.size(), call.limits().maxRows());
        List<List<Optional<String>>> text = new ArrayList<>();
        List<Map<String, Object>> json = new ArrayList<>();
        for (String name : names.subList(0, shown)) {
            TableInfo info = call.request().tableInfo(TablePath.of(database, name));
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("table", database + "." + name);
            row.put("kind", TableFacts.kind(info));
            row.put("primary_key", info.getPrimaryKeys());
            row.put("bucket_key", info.getBucketKeys());
            row.put("buckets", info.getNumBuckets());
            row.put("partitioned_by", info.getPartitionKeys());
            row.put("datalake", TableFacts.datalake(info));
            json.add(row);
            text.add(List.of(Optional.of(database + "." + name), Optional.of(TableFacts.kind(info)),
                    Optional.of(TableFacts.names(info.getPrimaryKeys())),
                    Optional.of(TableFacts.names(info.getBucketKeys())),
                    Optional.of(String.valueOf(info.getNumBuckets())),
                    Optional.of(TableFacts.names(info.getPartitionKeys())),
                    Optional.of(String.valueOf(TableFacts.datalake(info)))));
        }
        Optional<String> cut = shown < names.size()
                ? Optional.of("the row cap: the first " + shown + " of " + names.size() + " tables are shown")
                : Optional.empty();
        CappedRows rows = new CappedRows(COLUMNS, text, json, cut);
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("database", database);
        structured.put("tables", json);
        cut.ifPresent(reason -> structured.put("cut", reason));
        return new ToolAnswer("Tables of " + database + ":\n" + TextTable.render(rows), structured);
    }
}
