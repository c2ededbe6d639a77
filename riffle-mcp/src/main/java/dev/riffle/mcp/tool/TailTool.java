package dev.riffle.mcp.tool;

import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ChangelogColumns;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.mcp.rows.CappedRows;
import dev.riffle.mcp.rows.RowCells;
import dev.riffle.mcp.rows.TextTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * {@code tail}: a table's newest changes. Each bucket's log is read from at most N offsets before
 * its latest, so the work is bounded by N times the buckets whatever the table's size, and only
 * the N newest by commit time are kept while reading; they are answered oldest first.
 */
public final class TailTool implements RiffleTool {
    @Override
    public String name() {
        return "tail";
    }

    @Override
    public String description() {
        return "Show the newest changes of a table, oldest first, with their change type (+A append, +I insert, "
                + "-U/+U update, -D delete), log offset and commit time. Reads only the end of each bucket's log.";
    }

    @Override
    public String inputSchema() {
        return """
                {"type": "object", "properties": {
                  "table": {"type": "string", "description": "database.table"},
                  "limit": {"type": "integer", "minimum": 1, "description": "How many changes (default 10)"}},
                 "required": ["table"], "additionalProperties": false}""";
    }

    @Override
    public ToolAnswer call(ToolCall call) throws Exception {
        TablePath path = call.arguments().table("table");
        int limit = Math.min(call.arguments().integer("limit", 10, 1, Integer.MAX_VALUE), call.limits().maxRows());
        TableInfo info = call.request().tableInfo(path);
        ReadBuilder changelog = call.request().riffle().table(info).read().changelog();
        Map<BucketRef, Long> earliest = changelog.startOffsets();
        Map<BucketRef, Long> latest = changelog.stopOffsets();
        Map<BucketRef, Long> from = new HashMap<>();
        latest.forEach((bucket, end) -> from.put(bucket,
                Math.max(earliest.getOrDefault(bucket, 0L), end - limit)));
        // The newest `limit` changes seen so far, oldest on top: memory stays that of `limit` rows
        // however many buckets (and partitions) were read.
        PriorityQueue<Change> newest = new PriorityQueue<>(ORDER);
        List<String> columns;
        try (TableReader reader = changelog.from(StartingOffsets.explicit(from))
                .until(StoppingOffsets.explicit(latest)).createReader()) {
            columns = reader.schema().getFields().stream().map(Field::getName).toList();
            int offsetColumn = columns.indexOf(ChangelogColumns.NAMES.get(1));
            int timeColumn = columns.indexOf(ChangelogColumns.NAMES.get(2));
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    RowCells cells = new RowCells(batch.root());
                    List<FieldVector> vectors = batch.root().getFieldVectors();
                    BigIntVector offsets = (BigIntVector) vectors.get(offsetColumn);
                    TimeStampVector times = (TimeStampVector) vectors.get(timeColumn);
                    for (int row = 0; row < batch.rowCount(); row++) {
                        long time = times.get(row);
                        long offset = offsets.get(row);
                        if (newest.size() == limit && !newer(time, offset, newest.peek())) {
                            continue; // older than every change kept: not converted at all
                        }
                        newest.add(new Change(time, offset, cells.text(row), cells.json(row)));
                        if (newest.size() > limit) {
                            newest.poll();
                        }
                    }
                }
            }
        }
        List<Change> changes = new ArrayList<>(newest);
        changes.sort(ORDER);
        CappedRows.Collector rows = new CappedRows.Collector(columns, limit, call.limits().maxBytes());
        for (Change change : changes) {
            if (!rows.add(change.text(), change::json)) {
                break;
            }
        }
        CappedRows kept = rows.done();
        Map<String, Object> structured = kept.structured();
        structured.put("table", path.toString());
        return new ToolAnswer("The newest " + kept.size() + (kept.size() == 1 ? " change" : " changes") + " of "
                + path + ":\n" + TextTable.render(kept), structured);
    }

    private static final Comparator<Change> ORDER = Comparator.comparingLong(Change::time)
            .thenComparingLong(Change::offset);

    private static boolean newer(long time, long offset, Change than) {
        return time > than.time() || (time == than.time() && offset > than.offset());
    }

    private record Change(long time, long offset, List<Optional<String>> text, Map<String, Object> json) {}
}
