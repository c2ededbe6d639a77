package dev.riffle.gateway.scan;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.gateway.Paths;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Backend;
import dev.riffle.gateway.http.Bodies;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.RowsJson;
import io.javalin.http.Context;
import io.javalin.openapi.HttpMethod;
import io.javalin.openapi.OpenApi;
import io.javalin.openapi.OpenApiContent;
import io.javalin.openapi.OpenApiParam;
import io.javalin.openapi.OpenApiRequestBody;
import io.javalin.openapi.OpenApiResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableInfo;

/**
 * Bounded scans of a table's log (or a primary-key table's changelog), a page at a time, through
 * riffle-core's bounded reader. Rows stream out as they are read; each answer ends with the
 * per-bucket {@code next} offsets to continue from, so paging keeps no state on the server.
 */
public final class ScanResource {
    static final String NEXT_HEADER = "Riffle-Next-Offsets";
    static final String UNTIL_HEADER = "Riffle-Until-Offsets";
    static final String DONE_HEADER = "Riffle-Scan-Done";
    private static final Set<String> CHANGELOG_COLUMNS = Set.of(ArrowLogScanner.CHANGE_TYPE_COLUMN,
            ArrowLogScanner.LOG_OFFSET_COLUMN, ArrowLogScanner.COMMIT_TIMESTAMP_COLUMN);

    private final Backend backend;
    private final UnionScan union;

    public ScanResource(Backend backend) {
        this.backend = requireNonNull(backend, "backend is null");
        this.union = new UnionScan(backend);
    }

    @OpenApi(path = Paths.SCAN, methods = HttpMethod.POST, tags = "Scans", operationId = "scan",
            summary = "Read a bounded range of a table's log, a page at a time",
            description = "Body: {\"columns\": [..], \"from\": \"earliest\" | {\"timestamp\": ms} | {\"offsets\": {\"0\": 120}}, "
                    + "\"until\": \"latest\" | {\"timestamp\": ms} | {\"offsets\": {..}}, \"filter\": {\"column\": \"x\", "
                    + "\"op\": \"=\", \"value\": 1}, \"limit\": 1000, \"changelog\": false, \"partitions\": [..], "
                    + "\"buckets\": [..]}. JSON answers {\"rows\": [..], \"next\": {..}, \"until\": {..}, \"done\": bool}; "
                    + "pass next back as from.offsets for the next page. Arrow answers carry them in the headers "
                    + "Riffle-Next-Offsets, Riffle-Until-Offsets and Riffle-Scan-Done. Primary-key tables are read as "
                    + "their changelog (changelog: true). \"source\": \"union\" | \"log\" | \"lake\": datalake-enabled "
                    + "tables default to the union read (lake snapshot + log tail), answered whole (done: true, "
                    + "truncated when the limit cut it) with next = the log offsets it ended at.",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            requestBody = @OpenApiRequestBody(content = @OpenApiContent(mimeType = MediaTypes.JSON, type = "object")),
            responses = {
                @OpenApiResponse(status = "200", description = "The page, as JSON or an Arrow IPC stream"),
                @OpenApiResponse(status = "400", description = "A bad column, offset, filter or option"),
                @OpenApiResponse(status = "404", description = "No such table"),
                @OpenApiResponse(status = "504", description = "The read did not finish in time")})
    public void scan(Context ctx) throws IOException {
        MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON));
        MediaTypes.Format format = MediaTypes.responseFormat(ctx);
        TableInfo table = backend.tableInfo(ctx);
        ScanRequest request = ScanRequest.parse(Bodies.jsonOrEmpty(ctx, backend.limits().maxBodyBytes()));
        ScanSource source = source(table, request);
        if (source != ScanSource.LOG) {
            union.scan(ctx, table, request, source, format);
            return;
        }
        if (table.hasPrimaryKey() && !request.changelog()) {
            throw ApiException.badRequest("changelog_required", "Table " + table.getTablePath() + " has a primary key "
                    + table.getPrimaryKeys() + ": its log is a changelog, so scan it with \"changelog\": true, or read "
                    + "rows by key with /rows/{key}, /lookup or /prefix-lookup");
        }
        try (BufferAllocator allocator = backend.allocator().newChildAllocator("scan " + table.getTablePath(), 0,
                        Long.MAX_VALUE);
                BoundedLogReader reader = builder(table, request, allocator).createReader()) {
            Schema schema = reader.schema();
            Optional<RowFilter> filter = request.filter().map(f -> RowFilter.parse(f, schema));
            Schema output = outputSchema(schema, request);
            PageCursor cursor = new PageCursor(reader.startOffsets(), reader.stopOffsets(),
                    partitionNames(backend, table));
            long rows = format == MediaTypes.Format.JSON
                    ? jsonPage(ctx, reader, filter, request.limit(), output, cursor)
                    : arrowPage(ctx, reader, filter, request.limit(), output, cursor, allocator);
            GatewayMetrics.rows(ctx, "read", rows);
        }
    }

    /**
     * What the request reads: as it says, or by default the union read for a datalake-enabled
     * table, unless the request names a log range (then the log, so that paging from a union
     * answer's {@code next} offsets continues in the log).
     */
    private static ScanSource source(TableInfo table, ScanRequest request) {
        boolean datalake = table.getTableConfig().isDataLakeEnabled();
        ScanSource source = request.source()
                .orElse(datalake && request.logFields().isEmpty() ? ScanSource.UNION : ScanSource.LOG);
        if (source == ScanSource.LOG) {
            return source;
        }
        if (!datalake) {
            throw ApiException.badRequest("not_datalake_enabled", "Table " + table.getTablePath() + " is not "
                    + "datalake-enabled, so it has no lake side; scan it with \"source\": \"log\" (the default)");
        }
        if (!request.logFields().isEmpty()) {
            throw ApiException.badRequest("invalid_request", "\"source\": \"" + source.label() + "\" reads the "
                    + "table's current rows and takes no " + request.logFields() + "; page through the log (from a "
                    + "union answer's \"next\" offsets) with \"source\": \"log\"");
        }
        return source;
    }

    private ReadBuilder builder(TableInfo table, ScanRequest request, BufferAllocator allocator) {
        ReadBuilder read = new ReadBuilder(backend.connection(), table, allocator)
                .from(request.from())
                .until(request.until())
                .timeout(backend.limits().scanTimeout());
        if (request.changelog()) {
            read = read.changelog();
        }
        if (request.columns().isPresent()) {
            List<String> names = table.getRowType().getFieldNames();
            Set<String> columns = new LinkedHashSet<>();
            for (String column : request.columns().get()) {
                if (!names.contains(column) && !(request.changelog() && CHANGELOG_COLUMNS.contains(column))) {
                    throw ApiException.badRequest("column_not_found", "Column '" + column + "' does not exist; columns of "
                            + table.getTablePath() + ": " + names);
                }
                if (names.contains(column)) {
                    columns.add(column);
                }
            }
            // Filter columns are read too, even when they are not returned.
            request.filter().ifPresent(f -> RowFilter.columns(f).stream().filter(names::contains).forEach(columns::add));
            if (columns.isEmpty()) {
                throw ApiException.badRequest("invalid_request", "\"columns\" names no column of " + table.getTablePath());
            }
            read = read.columns(List.copyOf(columns));
        }
        if (!request.partitions().isEmpty()) {
            read = read.partitions(request.partitions().toArray(String[]::new));
        }
        if (!request.buckets().isEmpty()) {
            read = read.buckets(request.buckets().stream().mapToInt(Integer::intValue).toArray());
        }
        return read;
    }

    /** The requested columns (with the changelog columns, when reading a changelog), or all that are read. */
    private static Schema outputSchema(Schema read, ScanRequest request) {
        if (request.columns().isEmpty()) {
            return read;
        }
        List<Field> fields = new ArrayList<>();
        for (String column : request.columns().get()) {
            fields.add(read.findField(column));
        }
        if (request.changelog()) {
            for (Field field : read.getFields()) {
                if (CHANGELOG_COLUMNS.contains(field.getName()) && !request.columns().get().contains(field.getName())) {
                    fields.add(field);
                }
            }
        }
        return new Schema(fields, read.getCustomMetadata());
    }

    static Map<Long, String> partitionNames(Backend backend, TableInfo table) {
        Map<Long, String> names = new HashMap<>();
        if (table.isPartitioned()) {
            for (PartitionInfo partition : backend.await(backend.admin().listPartitionInfos(table.getTablePath()),
                    "Listing partitions of " + table.getTablePath())) {
                names.put(partition.getPartitionId(), partition.getPartitionName());
            }
        }
        return names;
    }

    private long jsonPage(Context ctx, BoundedLogReader reader, Optional<RowFilter> filter, OptionalLong limit,
            Schema output, PageCursor cursor) throws IOException {
        long[] rows = {0};
        Render.streamJson(ctx, json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("rows");
            rows[0] = consume(reader, filter, limit, cursor, (batch, selected, whole) -> {
                List<FieldVector> columns = columnsOf(batch.root(), output);
                for (int row : selected) {
                    RowsJson.writeRow(json, columns, row);
                }
            });
            json.writeEndArray();
            writeOffsets(json, "next", cursor.next());
            writeOffsets(json, "until", cursor.until());
            json.writeBooleanField("done", cursor.done());
            json.writeEndObject();
        });
        return rows[0];
    }

    /**
     * Without a limit the page is the whole rest of the read, so its {@code next} offsets are the
     * stop offsets, known before the first row: the rows stream out as they are read. With a limit
     * the page (at most {@code limit} rows) is assembled first, since the headers must carry where
     * it ended.
     */
    private long arrowPage(Context ctx, BoundedLogReader reader, Optional<RowFilter> filter, OptionalLong limit,
            Schema output, PageCursor cursor, BufferAllocator allocator) throws IOException {
        List<VectorSchemaRoot> held = new ArrayList<>();
        try (VectorSchemaRoot out = VectorSchemaRoot.create(output, allocator)) {
            if (limit.isEmpty()) {
                cursor.finishAll();
                offsetHeaders(ctx, cursor);
                long[] rows = {0};
                Render.streamArrow(ctx, out, writer -> rows[0] = consume(reader, filter, limit, cursor,
                        (batch, selected, whole) -> {
                            fill(out, batch.root(), selected, whole);
                            writer.writeBatch();
                            out.clear();
                        }));
                return rows[0];
            }
            long rows = consume(reader, filter, limit, cursor, (batch, selected, whole) -> {
                VectorSchemaRoot piece = VectorSchemaRoot.create(output, allocator);
                held.add(piece);
                fill(piece, batch.root(), selected, whole);
            });
            offsetHeaders(ctx, cursor);
            Render.streamArrow(ctx, out, writer -> {
                for (VectorSchemaRoot piece : held) {
                    fill(out, piece, null, true);
                    writer.writeBatch();
                    out.clear();
                }
            });
            return rows;
        } finally {
            held.forEach(VectorSchemaRoot::close);
        }
    }

    private interface BatchSink {
        /** Rows {@code selected} of {@code batch} belong to the page; {@code whole} when that is every row. */
        void accept(LogBatch batch, int[] selected, boolean whole) throws IOException;
    }

    /** Reads batches into the sink until the limit or the end; returns the rows taken. */
    private static long consume(BoundedLogReader reader, Optional<RowFilter> filter, OptionalLong limit,
            PageCursor cursor, BatchSink sink) throws IOException {
        long remaining = limit.orElse(Long.MAX_VALUE);
        long taken = 0;
        while (remaining > 0 && reader.hasNext()) {
            try (LogBatch batch = reader.next()) {
                IntPredicate test = filter.map(f -> f.bind(batch.root())).orElse(row -> true);
                int rowCount = batch.rowCount();
                int[] selected = new int[rowCount];
                int count = 0;
                int consumed = rowCount;
                for (int row = 0; row < rowCount; row++) {
                    if (test.test(row)) {
                        selected[count++] = row;
                        if (count == remaining) {
                            consumed = row + 1;
                            break;
                        }
                    }
                }
                // Row i of a batch is the record at offset baseOffset + i.
                cursor.advance(batch.bucket(), batch.baseOffset() + consumed);
                if (count > 0) {
                    sink.accept(batch, Arrays.copyOf(selected, count), count == rowCount);
                }
                remaining -= count;
                taken += count;
            }
        }
        if (remaining > 0) {
            cursor.finishAll();
        }
        return taken;
    }

    /** Loads the selected rows ({@code null}: all) of {@code from}'s columns that {@code to} has into {@code to}. */
    static void fill(VectorSchemaRoot to, VectorSchemaRoot from, int[] selected, boolean whole) {
        int rows = whole ? from.getRowCount() : selected.length;
        if (!whole) {
            to.allocateNew();
        }
        for (FieldVector target : to.getFieldVectors()) {
            FieldVector source = from.getVector(target.getName());
            TransferPair pair = source.makeTransferPair(target);
            if (whole) {
                pair.transfer();
            } else {
                for (int i = 0; i < selected.length; i++) {
                    pair.copyValueSafe(selected[i], i);
                }
                target.setValueCount(rows);
            }
        }
        to.setRowCount(rows);
    }

    static List<FieldVector> columnsOf(VectorSchemaRoot batch, Schema output) {
        List<FieldVector> columns = new ArrayList<>(output.getFields().size());
        for (Field field : output.getFields()) {
            columns.add(batch.getVector(field.getName()));
        }
        return columns;
    }

    static void writeOffsets(JsonGenerator json, String name, Map<String, Long> offsets) throws IOException {
        json.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> entry : offsets.entrySet()) {
            json.writeNumberField(entry.getKey(), entry.getValue());
        }
        json.writeEndObject();
    }

    static void offsetHeaders(Context ctx, PageCursor cursor) throws IOException {
        ctx.header(NEXT_HEADER, Json.MAPPER.writeValueAsString(cursor.next()));
        ctx.header(UNTIL_HEADER, Json.MAPPER.writeValueAsString(cursor.until()));
        ctx.header(DONE_HEADER, Boolean.toString(cursor.done()));
    }
}
