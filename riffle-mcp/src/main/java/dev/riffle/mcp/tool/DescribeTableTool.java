package dev.riffle.mcp.tool;

import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.lake.tiering.TieringStatus;
import dev.riffle.mcp.rows.CappedRows;
import dev.riffle.mcp.rows.TextTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * {@code describe_table}: a table's columns (type, nullability, comment), keys, buckets and
 * partitions, each bucket's earliest and latest log offset, and for a datalake-enabled table its
 * lake snapshot and how far the log is ahead of it.
 */
public final class DescribeTableTool implements RiffleTool {
    private static final Comparator<BucketRef> BUCKET_ORDER = Comparator
            .comparing((BucketRef b) -> b.partition().orElse(""))
            .thenComparingInt(BucketRef::bucket);

    @Override
    public String name() {
        return "describe_table";
    }

    @Override
    public String description() {
        return "Describe a table: columns with types and comments, primary key, bucket key, partition keys, "
                + "the earliest and latest log offset of every bucket, and for a datalake-enabled table its "
                + "latest lake snapshot and how many log records are not yet in the lake. "
                + "Next: sample, query or lookup.";
    }

    @Override
    public String inputSchema() {
        return """
                {"type": "object", "properties": {
                  "table": {"type": "string", "description": "database.table, e.g. shop.orders"}},
                 "required": ["table"], "additionalProperties": false}""";
    }

    @Override
    public ToolAnswer call(ToolCall call) throws Exception {
        TablePath path = call.arguments().table("table");
        TableInfo info = call.request().tableInfo(path);
        Map<String, Object> structured = new LinkedHashMap<>();
        structured.put("table", path.toString());
        structured.put("kind", TableFacts.kind(info));
        info.getComment().ifPresent(comment -> structured.put("comment", comment));

        List<Map<String, Object>> columns = new ArrayList<>();
        List<List<Optional<String>>> columnText = new ArrayList<>();
        for (Schema.Column column : info.getSchema().getColumns()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", column.getName());
            c.put("type", column.getDataType().toString());
            c.put("nullable", column.getDataType().isNullable());
            column.getComment().ifPresent(comment -> c.put("comment", comment));
            columns.add(c);
            columnText.add(List.of(Optional.of(column.getName()), Optional.of(column.getDataType().toString()),
                    Optional.of(column.getComment().orElse(""))));
        }
        structured.put("columns", columns);
        structured.put("primary_key", info.getPrimaryKeys());
        structured.put("bucket_key", info.getBucketKeys());
        structured.put("buckets", info.getNumBuckets());
        structured.put("partition_keys", info.getPartitionKeys());
        structured.put("datalake", TableFacts.datalake(info));

        StringBuilder text = new StringBuilder();
        text.append(path).append(": ").append(TableFacts.kind(info)).append(" table");
        info.getComment().ifPresent(comment -> text.append(" -- ").append(comment));
        text.append('\n').append(TextTable.render(new CappedRows(List.of("column", "type", "comment"), columnText,
                List.of(), Optional.empty())));
        text.append("\nprimary key: ").append(TableFacts.names(info.getPrimaryKeys()))
                .append("\nbucket key: ").append(TableFacts.names(info.getBucketKeys()))
                .append(" (").append(info.getNumBuckets()).append(info.getNumBuckets() == 1 ? " bucket)" : " buckets)")
                .append("\npartitioned by: ").append(TableFacts.names(info.getPartitionKeys()));

        ReadBuilder log = call.request().riffle().table(info).read().changelog();
        Map<BucketRef, Long> earliest = log.startOffsets();
        Map<BucketRef, Long> latest = log.stopOffsets();
        List<BucketRef> buckets = new ArrayList<>(latest.keySet());
        buckets.sort(BUCKET_ORDER);
        int shown = Math.min(buckets.size(), call.limits().maxRows());
        List<Map<String, Object>> offsets = new ArrayList<>();
        List<List<Optional<String>>> offsetText = new ArrayList<>();
        for (BucketRef bucket : buckets.subList(0, shown)) {
            Map<String, Object> b = new LinkedHashMap<>();
            bucket.partition().ifPresent(p -> b.put("partition", p));
            b.put("bucket", bucket.bucket());
            b.put("earliest_offset", earliest.get(bucket));
            b.put("latest_offset", latest.get(bucket));
            offsets.add(b);
            List<Optional<String>> line = new ArrayList<>();
            if (info.isPartitioned()) {
                line.add(bucket.partition());
            }
            line.add(Optional.of(String.valueOf(bucket.bucket())));
            line.add(Optional.ofNullable(earliest.get(bucket)).map(String::valueOf));
            line.add(Optional.ofNullable(latest.get(bucket)).map(String::valueOf));
            offsetText.add(line);
        }
        Optional<String> cut = shown < buckets.size()
                ? Optional.of("the row cap: " + shown + " of " + buckets.size() + " buckets are shown")
                : Optional.empty();
        structured.put("offsets", offsets);
        cut.ifPresent(reason -> structured.put("offsets_cut", reason));
        text.append("\nlog offsets (earliest inclusive, latest exclusive):\n").append(TextTable.render(
                new CappedRows(info.isPartitioned() ? List.of("partition", "bucket", "earliest", "latest")
                        : List.of("bucket", "earliest", "latest"), offsetText, List.of(), cut)));

        if (TableFacts.datalake(info)) {
            TieringStatus.TableLag lag = TieringStatus.of(call.request().riffle(), info);
            Map<String, Object> lake = new LinkedHashMap<>();
            lake.put("snapshot_id", lag.lakeSnapshotId().orElse(null));
            lake.put("lag_records", lag.lagRecords());
            lake.put("lag_seconds", lag.lag().toMillis() / 1000.0);
            structured.put("lake", lake);
            text.append("\nlake: ").append(lag.lakeSnapshotId().map(id -> "snapshot " + id)
                    .orElse("no snapshot yet")).append(", ").append(lag.lagRecords())
                    .append(" log records not yet tiered");
        } else {
            text.append("\nlake: not datalake-enabled");
        }
        return new ToolAnswer(text.toString(), structured);
    }
}
