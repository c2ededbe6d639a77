package dev.riffle.gateway.scan;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.riffle.core.RiffleTable;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Bodies;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.Requests;
import dev.riffle.server.session.RequestContext;
import io.javalin.http.Context;
import io.javalin.openapi.HttpMethod;
import io.javalin.openapi.OpenApi;
import io.javalin.openapi.OpenApiContent;
import io.javalin.openapi.OpenApiParam;
import io.javalin.openapi.OpenApiRequestBody;
import io.javalin.openapi.OpenApiResponse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableInfo;

/**
 * Bounded scans, through Riffle's read façade: a page of a table's log (or changelog), a
 * datalake-enabled table's current rows (lake snapshot + log tail) or lake snapshot, or another
 * primary-key table's current rows (each bucket's KV snapshot + the changelog after it). Rows stream
 * out as they are read. A log page ends with the per-bucket {@code next} offsets to continue from,
 * so paging keeps no state on the server; a union, lake or current answer is one complete bounded result
 * ({@code limit} caps it, and {@code truncated} says whether it did) whose {@code next} offsets are
 * where its log part stopped: a {@code "source": "log"} scan from there returns exactly the changes
 * after it.
 */
public final class ScanResource {
    static final String NEXT_HEADER = "Riffle-Next-Offsets";
    static final String UNTIL_HEADER = "Riffle-Until-Offsets";
    static final String DONE_HEADER = "Riffle-Scan-Done";
    static final String SOURCE_HEADER = "Riffle-Scan-Source";
    static final String SNAPSHOT_HEADER = "Riffle-Lake-Snapshot-Id";
    static final String TRUNCATED_HEADER = "Riffle-Scan-Truncated";
    static final String LAKE_FILES_HEADER = "Riffle-Lake-Files-Read";

    @OpenApi(path = Paths.SCAN, methods = HttpMethod.POST, tags = "Scans", operationId = "scan",
            summary = "Read a bounded range of a table's log, a page at a time, or a datalake table's rows",
            description = "Body: {\"columns\": [..], \"from\": \"earliest\" | {\"timestamp\": ms} | {\"offsets\": {\"0\": 120}}, "
                    + "\"until\": \"latest\" | {\"timestamp\": ms} | {\"offsets\": {..}}, \"filter\": {\"column\": \"x\", "
                    + "\"op\": \"=\", \"value\": 1}, \"limit\": 1000, \"changelog\": false, \"partitions\": [..], "
                    + "\"buckets\": [..]}. JSON answers {\"rows\": [..], \"next\": {..}, \"until\": {..}, \"done\": bool}; "
                    + "pass next back as from.offsets for the next page. Arrow answers carry them in the headers "
                    + "Riffle-Next-Offsets, Riffle-Until-Offsets and Riffle-Scan-Done. A primary-key table's log range is "
                    + "its changelog (changelog: true); without a range it answers its current rows, from each "
                    + "bucket's KV snapshot and the changelog after it (\"source\": \"current\", the default for "
                    + "primary-key tables without a lake). \"source\": \"union\" | \"log\" | \"lake\": datalake-enabled "
                    + "tables default to the union read (lake snapshot + log tail), answered whole (done: true, "
                    + "truncated when the limit cut it) with next = the log offsets it ended at; the filter is pushed "
                    + "into the lake, and Riffle-Lake-Files-Read says how many lake files the answer read.",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            requestBody = @OpenApiRequestBody(content = @OpenApiContent(mimeType = MediaTypes.JSON, type = "object")),
            responses = {
                @OpenApiResponse(status = "200", description = "The page, as JSON or an Arrow IPC stream"),
                @OpenApiResponse(status = "400", description = "A bad column, offset, filter or option"),
                @OpenApiResponse(status = "404", description = "No such table"),
                @OpenApiResponse(status = "504", description = "The read did not finish in time")})
    public void scan(Context ctx) throws IOException {
        MediaTypes.requireContentType(ctx, java.util.Set.of(MediaTypes.JSON));
        MediaTypes.Format format = MediaTypes.responseFormat(ctx);
        RequestContext request = Requests.of(ctx);
        TableInfo table = request.tableInfo(Requests.tablePath(ctx));
        ScanRequest body = ScanRequest.parse(Bodies.json(ctx, request.limits().maxBodyBytes()));
        ScanSource source = source(table, body);
        if (source == ScanSource.LOG && table.hasPrimaryKey() && !body.changelog()) {
            throw ApiException.badRequest("changelog_required", "Table " + table.getTablePath() + " has a primary key "
                    + table.getPrimaryKeys() + ": a range of its log is a changelog, so scan it with \"changelog\": "
                    + "true, or leave out " + (body.logFields().isEmpty() ? "\"source\": \"log\"" : body.logFields())
                    + " to get its current rows");
        }
        try (TableReader reader = read(request, table, body, source).createReader()) {
            Answer answer = new Answer(source, reader, new PageCursor(reader.logStartOffsets(),
                    reader.logStopOffsets(), partitionNames(request, table)));
            long rows = format == MediaTypes.Format.JSON
                    ? json(ctx, answer, body.limit().isPresent())
                    : arrow(ctx, answer, body.limit().isPresent());
            GatewayMetrics.rows(ctx, "read", rows);
            GatewayMetrics.lakeFiles(ctx, reader.progress().lakeFiles());
        }
    }

    /**
     * What the request reads: as it says, or by default the union read for a datalake-enabled
     * table and the current rows (KV snapshot + changelog) for another primary-key table, unless
     * the request names a log range (then the log, so that paging from a union answer's
     * {@code next} offsets continues in the log).
     */
    private static ScanSource source(TableInfo table, ScanRequest request) {
        boolean datalake = table.getTableConfig().isDataLakeEnabled();
        boolean whole = request.logFields().isEmpty();
        ScanSource source = request.source().orElse(datalake && whole ? ScanSource.UNION
                : table.hasPrimaryKey() && whole ? ScanSource.CURRENT : ScanSource.LOG);
        if (source == ScanSource.LOG) {
            return source;
        }
        if (source == ScanSource.CURRENT && !table.hasPrimaryKey()) {
            throw ApiException.badRequest("invalid_request", "\"source\": \"current\" reads a primary-key table's"
                    + " rows by key; " + table.getTablePath() + " is a log table: scan it with \"source\": \"log\"");
        }
        if (source != ScanSource.CURRENT && !datalake) {
            throw ApiException.badRequest("not_datalake_enabled", "Table " + table.getTablePath() + " is not "
                    + "datalake-enabled, so it has no lake side; scan it with \"source\": \"log\" (the default)");
        }
        if (!whole) {
            throw ApiException.badRequest("invalid_request", "\"source\": \"" + source.label() + "\" reads the "
                    + "table's current rows and takes no " + request.logFields() + "; page through the log (from a "
                    + "union answer's \"next\" offsets) with \"source\": \"log\"");
        }
        return source;
    }

    /** The request as a read of the façade. */
    private static ReadBuilder read(RequestContext request, TableInfo table, ScanRequest body, ScanSource source) {
        RiffleTable riffleTable = request.riffle().table(table);
        ReadBuilder read = riffleTable.read().timeout(request.limits().scanTimeout());
        boolean changelog = source == ScanSource.LOG && body.changelog();
        read = switch (source) {
            case UNION -> read;
            case LAKE -> read.lake();
            case CURRENT -> read.withoutLake();
            case LOG -> {
                ReadBuilder log = (changelog ? read.changelog() : read.log()).from(body.from()).until(body.until());
                if (!body.partitions().isEmpty()) {
                    log = log.partitions(body.partitions().toArray(String[]::new));
                }
                if (!body.buckets().isEmpty()) {
                    log = log.buckets(body.buckets().stream().mapToInt(Integer::intValue).toArray());
                }
                yield log;
            }
        };
        if (body.columns().isPresent()) {
            if (body.columns().get().isEmpty()) {
                throw ApiException.badRequest("invalid_request", "\"columns\" names no column of " + table.getTablePath());
            }
            read = read.columns(body.columns().get());
        }
        if (body.filter().isPresent()) {
            read = read.filter(FilterJson.parse(body.filter().get(), table, changelog));
        }
        if (body.limit().isPresent()) {
            read = read.limit(body.limit().getAsLong());
        }
        return read;
    }

    private static Map<Long, String> partitionNames(RequestContext request, TableInfo table) {
        Map<Long, String> names = new HashMap<>();
        if (table.isPartitioned()) {
            for (PartitionInfo partition : request.await(request.admin().listPartitionInfos(table.getTablePath()),
                    "Listing partitions of " + table.getTablePath())) {
                names.put(partition.getPartitionId(), partition.getPartitionName());
            }
        }
        return names;
    }

    /** One answer: its reader, and where in the log it ends. */
    private record Answer(ScanSource source, TableReader reader, PageCursor cursor) {
        /** A log page ends where its rows did; a union, lake or current answer is always complete. */
        boolean paged() {
            return source == ScanSource.LOG;
        }

        /** Passes every batch to {@code sink}, moving the cursor; returns the rows. */
        long consume(BatchSink sink) throws IOException {
            long rows = 0;
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    batch.logRange().ifPresent(range -> cursor.advance(range.bucket(), range.endOffset()));
                    sink.accept(batch.root());
                    rows += batch.rowCount();
                }
            }
            if (!paged() || !reader.truncated()) {
                cursor.finishAll(); // the read ran to its end (or is not paged): nothing below the stops is left
            }
            return rows;
        }

        boolean done() {
            return !paged() || cursor.done();
        }
    }

    private interface BatchSink {
        void accept(VectorSchemaRoot batch) throws IOException;
    }

    private static long json(Context ctx, Answer answer, boolean limited) throws IOException {
        long[] rows = {0};
        ctx.header(LAKE_FILES_HEADER, Long.toString(answer.reader().progress().lakeFiles()));
        Render.streamJson(ctx, json -> {
            json.writeStartObject();
            if (!answer.paged()) {
                json.writeStringField("source", answer.source().label());
                writeSnapshot(json, answer.reader());
            }
            json.writeArrayFieldStart("rows");
            rows[0] = answer.consume(batch -> Render.writeRows(json, batch));
            json.writeEndArray();
            writeOffsets(json, "next", answer.cursor().next());
            writeOffsets(json, "until", answer.cursor().until());
            json.writeBooleanField("done", answer.done());
            if (!answer.paged()) {
                json.writeBooleanField("truncated", answer.reader().truncated());
            }
            json.writeEndObject();
        });
        return rows[0];
    }

    private static void writeSnapshot(JsonGenerator json, TableReader reader) throws IOException {
        if (reader.lakeSnapshotId().isPresent()) {
            json.writeNumberField("lake_snapshot_id", reader.lakeSnapshotId().get());
        } else {
            json.writeNullField("lake_snapshot_id");
        }
    }

    /**
     * Without a limit the answer is the whole rest of the read, so its headers are known before
     * the first row: the rows stream out as they are read. With a limit the answer (at most
     * {@code limit} rows) is assembled first, since the headers must say where it ended.
     */
    private static long arrow(Context ctx, Answer answer, boolean limited) throws IOException {
        TableReader reader = answer.reader();
        List<VectorSchemaRoot> held = new ArrayList<>();
        try (VectorSchemaRoot out = VectorSchemaRoot.create(reader.schema(), reader.allocator())) {
            if (!limited) {
                answer.cursor().finishAll();
                headers(ctx, answer);
                long[] rows = {0};
                Render.streamArrow(ctx, out, writer -> rows[0] = answer.consume(batch -> {
                    Render.moveInto(batch, out);
                    writer.writeBatch();
                    out.clear();
                }));
                return rows[0];
            }
            long rows = answer.consume(batch -> {
                VectorSchemaRoot piece = VectorSchemaRoot.create(reader.schema(), reader.allocator());
                held.add(piece);
                Render.moveInto(batch, piece);
            });
            headers(ctx, answer);
            Render.streamArrow(ctx, out, writer -> {
                for (VectorSchemaRoot piece : held) {
                    Render.moveInto(piece, out);
                    writer.writeBatch();
                    out.clear();
                }
            });
            return rows;
        } finally {
            held.forEach(VectorSchemaRoot::close);
        }
    }

    private static void headers(Context ctx, Answer answer) throws IOException {
        ctx.header(NEXT_HEADER, Json.MAPPER.writeValueAsString(answer.cursor().next()));
        ctx.header(UNTIL_HEADER, Json.MAPPER.writeValueAsString(answer.cursor().until()));
        ctx.header(DONE_HEADER, Boolean.toString(answer.done()));
        if (!answer.paged()) {
            ctx.header(SOURCE_HEADER, answer.source().label());
            answer.reader().lakeSnapshotId().ifPresent(id -> ctx.header(SNAPSHOT_HEADER, Long.toString(id)));
            ctx.header(TRUNCATED_HEADER, Boolean.toString(answer.reader().truncated()));
        }
        ctx.header(LAKE_FILES_HEADER, Long.toString(answer.reader().progress().lakeFiles()));
    }

    static void writeOffsets(JsonGenerator json, String name, Map<String, Long> offsets) throws IOException {
        json.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> entry : offsets.entrySet()) {
            json.writeNumberField(entry.getKey(), entry.getValue());
        }
        json.writeEndObject();
    }
}
