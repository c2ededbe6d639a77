package dev.riffle.gateway.rows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.types.ArrowDictionaries;
import dev.riffle.core.types.ArrowRowView;
import dev.riffle.core.write.ArrowLogAppender;
import dev.riffle.core.write.TableWrite;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Bodies;
import dev.riffle.gateway.http.ErrorMapper;
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
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;

/**
 * Writes rows: appends to log tables, upserts (whole or partial) to primary-key tables, and
 * deletes by key. A request is converted and checked completely before its first row is handed
 * to Fluss, and answered once Fluss has acknowledged every row.
 */
public final class WriteResource {
    /** The request header that makes a write idempotent (see {@link IdempotentWrites}). */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** The answer header saying the answer is an earlier request's, nothing was written. */
    public static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

    private final IdempotentWrites idempotent = new IdempotentWrites();

    @OpenApi(path = Paths.ROWS, methods = HttpMethod.POST, tags = "Rows", operationId = "writeRows",
            summary = "Append rows (log table) or upsert them (primary-key table)",
            description = "The body is a JSON array of row objects, NDJSON (one object per line) or an Arrow IPC stream, "
                    + "by Content-Type. Every row is checked before anything is written: a bad row fails the request "
                    + "with 400, naming the row index and the column. Answers once Fluss acknowledged every row.",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            queryParams = @OpenApiParam(name = "columns",
                    description = "Partial update of these columns (comma-separated, with the whole primary key)"),
            headers = @OpenApiParam(name = IDEMPOTENCY_KEY, description = "Makes the write idempotent: a request "
                    + "sent again with the same key and body (after a dropped connection) is answered as the first "
                    + "was, marked Idempotent-Replayed: true, and writes nothing; the key with another body is a 422. "
                    + "Kept by this gateway for 15 minutes."),
            requestBody = @OpenApiRequestBody(required = true, content = {
                @OpenApiContent(mimeType = MediaTypes.JSON, from = Object[].class),
                @OpenApiContent(mimeType = MediaTypes.NDJSON, type = "string"),
                @OpenApiContent(mimeType = MediaTypes.ARROW_STREAM, type = "string", format = "binary")}),
            responses = {
                @OpenApiResponse(status = "200", description = "{\"written\": n}"),
                @OpenApiResponse(status = "400", description = "A bad row, column or body; nothing was written"),
                @OpenApiResponse(status = "404", description = "No such table"),
                @OpenApiResponse(status = "413", description = "Body over the gateway's limit"),
                @OpenApiResponse(status = "415", description = "Unsupported Content-Type"),
                @OpenApiResponse(status = "422", description = "An Idempotency-Key used before with another body")})
    public void writeRows(Context ctx) throws IOException {
        String type = MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON, MediaTypes.NDJSON,
                MediaTypes.ARROW_STREAM));
        RequestContext request = Requests.of(ctx);
        TableInfo table = tableToWrite(request, Requests.tablePath(ctx));
        Optional<List<String>> columns = columnsParam(ctx);
        shape(table, columns); // a bad ?columns= fails before the body is read
        byte[] body;
        try (InputStream in = Bodies.open(ctx, request.limits().maxBodyBytes())) {
            body = in.readAllBytes(); // at most the body limit; parsed from memory, and again if the schema changed
        } catch (IOException e) {
            throw Bodies.ioFailure(e);
        }
        String key = ctx.header(IDEMPOTENCY_KEY);
        if (key == null) {
            int written = writeBody(request, table, columns, type, body, () -> {});
            GatewayMetrics.rows(ctx, "written", written);
            Render.json(ctx, 200, Map.of("written", written));
            return;
        }
        writeOnce(ctx, request, table, columns, type, body, IdempotentWrites.checkedKey(key));
    }

    /**
     * The metadata a write goes by. A table Riffle appends to itself ({@link ArrowLogAppender#takes})
     * is written by the session's recent metadata (at most a second old): asking the coordinator
     * per request cost more than the rest of a 1,000-row write, and should the table have been
     * dropped and created again since, the appender finds that at its first batch and fails saying
     * so, with nothing written. Other tables go through Fluss's writer, which waits out the request
     * timeout on a dropped table's id (seen: 60 s, then a 504): they are written by fresh metadata.
     */
    private static TableInfo tableToWrite(RequestContext request, TablePath path) {
        Optional<TableInfo> recent = request.session().handles().recentInfo(path);
        if (recent.isPresent() && ArrowLogAppender.takes(recent.get())) {
            return recent.get();
        }
        return request.session().handles().freshInfo(path);
    }

    private static RowShape shape(TableInfo table, Optional<List<String>> columns) {
        return columns.map(c -> RowShape.partialUpdate(table, c)).orElseGet(() -> RowShape.write(table));
    }

    /**
     * A write with an {@code Idempotency-Key}: the body is digested, then either written (the first
     * request with the key) or answered as the first request was.
     */
    private void writeOnce(Context ctx, RequestContext request, TableInfo table, Optional<List<String>> columns,
            String type, byte[] body, String key) throws IOException {
        IdempotentWrites.Scope scope = new IdempotentWrites.Scope(request.session().principal(),
                table.getTablePath().toString());
        IdempotentWrites.Claim claim;
        try {
            claim = idempotent.claim(scope, key, digest(type, columns, body), request.limits().requestTimeout());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "interrupted", "The gateway is shutting down");
        }
        if (claim instanceof IdempotentWrites.Replay replay) {
            ctx.header(IDEMPOTENT_REPLAYED, "true");
            ctx.status(replay.answer().status()).contentType(MediaTypes.JSON).result(replay.answer().json());
            return;
        }
        IdempotentWrites.Writes mine = (IdempotentWrites.Writes) claim;
        boolean[] writing = {false};
        int written;
        try {
            written = writeBody(request, table, columns, type, body, () -> writing[0] = true);
        } catch (RuntimeException e) {
            if (writing[0]) {
                // Some rows may be in the table: a retry must not write them again.
                ApiException error = ErrorMapper.toApiException(e);
                idempotent.answered(mine, new IdempotentWrites.Answer(error.status(), Render.errorJson(error)));
            } else {
                idempotent.forget(mine);
            }
            throw e;
        } catch (Error e) {
            idempotent.forget(mine);
            throw e;
        }
        byte[] answer = Json.MAPPER.writeValueAsBytes(Map.of("written", written));
        idempotent.answered(mine, new IdempotentWrites.Answer(200, answer));
        GatewayMetrics.rows(ctx, "written", written);
        ctx.status(200).contentType(MediaTypes.JSON).result(answer);
    }

    /** What makes two requests with one key the same request: content type, columns and body. */
    private static byte[] digest(String type, Optional<List<String>> columns, byte[] body) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
            sha.update((type + "\n" + columns.map(c -> String.join(",", c)).orElse("") + "\n")
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
            return sha.digest(body);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JVM has SHA-256", e);
        }
    }

    /**
     * Parses, checks and writes a body of {@code type}; the rows written. {@code writingBegins} runs
     * once the whole body is checked, just before the first row goes to the writer. When the
     * session's recent metadata turns out to be out of date, the body is written again by fresh
     * metadata, which can be done because nothing of it was written: a column the body names that
     * the metadata lacks (it may have been added since) is found before any row is written, and a
     * table dropped and created again since is found by Riffle's appender at its first batch, whose
     * batches all carried the old table's id.
     */
    private static int writeBody(RequestContext request, TableInfo table, Optional<List<String>> columns, String type,
            byte[] body, Runnable writingBegins) {
        boolean[] writing = {false};
        Runnable begins = () -> {
            writing[0] = true;
            writingBegins.run();
        };
        try {
            return writeBody(request, table, shape(table, columns), columns, type, body, begins);
        } catch (ApiException e) {
            if (writing[0] || !e.code().equals("column_not_found")) {
                throw e;
            }
            TableInfo fresh = request.session().handles().freshInfo(table.getTablePath());
            if (fresh.getTableId() == table.getTableId() && fresh.getSchemaId() == table.getSchemaId()) {
                throw e;
            }
            return writeBody(request, fresh, shape(fresh, columns), columns, type, body, begins);
        } catch (TableNotExistException e) {
            if (!ArrowLogAppender.takes(table)) {
                throw e;
            }
            TableInfo fresh = request.session().handles().freshInfo(table.getTablePath());
            if (fresh.getTableId() == table.getTableId()) {
                throw e;
            }
            return writeBody(request, fresh, shape(fresh, columns), columns, type, body, begins);
        }
    }

    private static int writeBody(RequestContext request, TableInfo table, RowShape shape,
            Optional<List<String>> columns, String type, byte[] body, Runnable writingBegins) {
        if (type.equals(MediaTypes.ARROW_STREAM)) {
            return writeArrow(request, table, shape, columns, body, writingBegins);
        }
        InputStream in = new ByteArrayInputStream(body);
        JsonRowStream.Framing framing = type.equals(MediaTypes.NDJSON) ? JsonRowStream.Framing.NDJSON
                : JsonRowStream.Framing.ARRAY;
        if (columns.isEmpty() && ArrowLogAppender.takes(table)) {
            return appendJson(request, table, shape, framing, in, writingBegins);
        }
        List<GenericRow> rows = new ArrayList<>();
        JsonRowStream.read(in, framing, shape, rows::add);
        writingBegins.run();
        write(request, table, rows, columns, false);
        return rows.size();
    }

    /**
     * Appends a JSON body's rows to a log table whose batches Riffle makes itself
     * ({@link ArrowLogAppender#takes}): each row goes into Arrow vectors as it is read, with none of
     * Fluss's writer's row-by-row copying.
     */
    private static int appendJson(RequestContext request, TableInfo table, RowShape shape,
            JsonRowStream.Framing framing, InputStream body, Runnable writingBegins) {
        return appendBatches(request, table, batches -> JsonRowStream.read(body, framing, shape, batches::add),
                writingBegins);
    }

    /**
     * Appends the rows {@code fill} puts into Riffle-made batches (it returns how many);
     * {@code writingBegins} runs once it has, before anything is sent. Acknowledged as {@link #write} is.
     */
    private static int appendBatches(RequestContext request, TableInfo table, ToIntFunction<RowBatches> fill,
            Runnable writingBegins) {
        long limit = request.limits().maxBodyBytes();
        try (BufferAllocator allocator = request.allocator().newChildAllocator("ingest", 0, 4 * limit);
                RowBatches batches = new RowBatches(table.getRowType(), allocator)) {
            int count = fill.applyAsInt(batches);
            writingBegins.run();
            if (count > 0) {
                TableWrite write = request.session().handles().write(table).timeout(request.limits().requestTimeout())
                        .open();
                write.batches(batches.finish(), IntStream.range(0, table.getRowType().getFieldCount()).toArray());
                request.await(write.acknowledgements().all(), "Writing " + count + " rows of " + table.getTablePath());
            }
            return count;
        }
    }

    @OpenApi(path = Paths.ROWS, methods = HttpMethod.DELETE, tags = "Rows", operationId = "deleteRows",
            summary = "Delete rows of a primary-key table by key",
            description = "Body: {\"keys\": [{\"id\": 1}, ...]}, each key naming every primary-key column.",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            requestBody = @OpenApiRequestBody(required = true, content = @OpenApiContent(mimeType = MediaTypes.JSON,
                    type = "object")),
            responses = {
                @OpenApiResponse(status = "200", description = "{\"deleted\": n}: keys acknowledged (missing keys are no-ops)"),
                @OpenApiResponse(status = "400", description = "A bad key, or a log table; nothing was deleted"),
                @OpenApiResponse(status = "404", description = "No such table")})
    public void deleteRows(Context ctx) {
        MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON));
        RequestContext request = Requests.of(ctx);
        TableInfo table = request.tableInfo(Requests.tablePath(ctx));
        RowShape shape = RowShape.deleteKey(table);
        List<GenericRow> keys = keyRows(Bodies.json(ctx, request.limits().maxBodyBytes()), shape,
                request.limits().maxKeys());
        write(request, table, keys, Optional.empty(), true);
        GatewayMetrics.rows(ctx, "written", keys.size());
        Render.json(ctx, 200, Map.of("deleted", keys.size()));
    }

    /** The objects of {@code {"keys": [...]}} as key rows of {@code shape}, all checked. */
    static List<GenericRow> keyRows(JsonNode body, RowShape shape, int maxKeys) {
        Json.requireObject(body, "The request body");
        Json.onlyFields(body, "the request body", Set.of("keys"));
        JsonNode keys = body.get("keys");
        if (keys == null || !keys.isArray()) {
            throw ApiException.badRequest("invalid_request", "The body needs \"keys\": an array of key objects, got "
                    + Json.describe(keys));
        }
        if (keys.size() > maxKeys) {
            throw new ApiException(413, "too_many_keys", keys.size() + " keys in one request; the gateway takes at most "
                    + maxKeys);
        }
        List<GenericRow> rows = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            rows.add(shape.fromJson(keys.get(i), i, false));
        }
        return rows;
    }

    private static Optional<List<String>> columnsParam(Context ctx) {
        String columns = ctx.queryParam("columns");
        if (columns == null) {
            return Optional.empty();
        }
        List<String> names = Arrays.stream(columns.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (names.isEmpty()) {
            throw ApiException.badRequest("invalid_request", "?columns= is empty; name the columns to update");
        }
        return Optional.of(names);
    }

    /**
     * An Arrow body, read and checked whole before anything is written: either its batches, kept as
     * they are when the table takes them so ({@link RowShape#asWritten}), or its rows converted.
     */
    private record ArrowBody(List<VectorSchemaRoot> batches, Optional<int[]> positions, List<GenericRow> rows,
            int count) implements AutoCloseable {
        @Override
        public void close() {
            batches.forEach(VectorSchemaRoot::close);
        }
    }

    /** Writes an Arrow IPC body; the rows written. */
    private static int writeArrow(RequestContext request, TableInfo table, RowShape shape,
            Optional<List<String>> columns, byte[] stream, Runnable writingBegins) {
        long limit = request.limits().maxBodyBytes();
        ArrowFraming.check(stream);
        try (BufferAllocator allocator = request.allocator().newChildAllocator("ingest", 0, 4 * limit);
                ArrowBody body = readArrow(stream, allocator, shape, columns.isEmpty())) {
            writingBegins.run();
            if (body.positions().isPresent()) {
                appendAsWritten(request, table, body);
            } else {
                write(request, table, body.rows(), columns, false);
            }
            return body.count();
        }
    }

    private static ArrowBody readArrow(byte[] stream, BufferAllocator allocator, RowShape shape, boolean wholeRows) {
        List<GenericRow> rows = new ArrayList<>();
        List<VectorSchemaRoot> batches = new ArrayList<>();
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(stream), allocator)) {
            try {
                List<Field> sent = reader.getVectorSchemaRoot().getSchema().getFields();
                // Dictionary-encoded columns are written as the values they stand for.
                boolean encoded = ArrowDictionaries.anyEncoded(sent);
                List<Field> fields = encoded ? ArrowDictionaries.decodedFields(sent, reader) : sent;
                shape.checkArrowSchema(fields);
                Optional<int[]> positions = wholeRows ? shape.asWritten(fields) : Optional.empty();
                int count = 0;
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot batch = encoded
                            ? ArrowDictionaries.decode(reader.getVectorSchemaRoot(), reader, allocator)
                            : owned(reader.getVectorSchemaRoot(), allocator);
                    int batchRows = batch.getRowCount();
                    try {
                        if (positions.isPresent()) {
                            shape.checkRequired(batch, positions.get(), count);
                            batches.add(batch);
                            batch = null; // the body owns it now
                        } else {
                            rows.addAll(shape.fromArrow(batch, count));
                        }
                    } finally {
                        if (batch != null) {
                            batch.close();
                        }
                    }
                    count += batchRows;
                }
                return new ArrowBody(batches, positions, rows, count);
            } catch (IOException e) {
                RuntimeException failure = Bodies.ioFailure(e);
                if (failure instanceof ApiException api && api.status() == 413) {
                    throw api;
                }
                throw ApiException.badRequest("malformed_arrow", "The body is not a readable Arrow IPC stream: "
                        + e.getMessage());
            }
        } catch (IOException e) {
            batches.forEach(VectorSchemaRoot::close);
            throw Bodies.ioFailure(e);
        } catch (IllegalArgumentException | IndexOutOfBoundsException | IllegalStateException e) {
            batches.forEach(VectorSchemaRoot::close);
            throw ApiException.badRequest("malformed_arrow", "The body is not a readable Arrow IPC stream: "
                    + e.getMessage());
        } catch (RuntimeException e) {
            batches.forEach(VectorSchemaRoot::close);
            throw e;
        }
    }

    /** The reader's current batch moved (not copied) into a batch of its own, which outlives the reader. */
    private static VectorSchemaRoot owned(VectorSchemaRoot batch, BufferAllocator allocator) {
        VectorSchemaRoot owned = VectorSchemaRoot.create(batch.getSchema(), allocator);
        for (int i = 0; i < batch.getFieldVectors().size(); i++) {
            batch.getVector(i).makeTransferPair(owned.getVector(i)).transfer();
        }
        owned.setRowCount(batch.getRowCount());
        return owned;
    }

    /**
     * Appends a log table's rows straight from the body's Arrow batches. When Riffle can make the
     * table's log batches itself ({@link ArrowLogAppender#takes}: not partitioned, no bucket key),
     * the vectors are encoded as Fluss batches and sent by the session's idempotent appender, with
     * no row-by-row work at all; otherwise Fluss's writer reads each row through a view of the
     * vectors ({@link ArrowRowView}) and copies it into its own batch, with no value object per cell.
     * Acknowledged as {@link #write} is: the request answers once every row is acknowledged.
     */
    private static void appendAsWritten(RequestContext request, TableInfo table, ArrowBody body) {
        if (body.count() == 0) {
            return;
        }
        TableWrite write = request.session().handles().write(table).timeout(request.limits().requestTimeout()).open();
        write.batches(body.batches(), body.positions().get());
        request.await(write.acknowledgements().all(), "Writing " + body.count() + " rows of " + table.getTablePath());
    }

    private static void write(RequestContext request, TableInfo table, List<GenericRow> rows,
            Optional<List<String>> columns, boolean delete) {
        if (rows.isEmpty()) {
            return;
        }
        if (!delete && columns.isEmpty() && ArrowLogAppender.takes(table)) {
            appendBatches(request, table, batches -> {
                rows.forEach(batches::add);
                return rows.size();
            }, () -> { });
            return;
        }
        // No flush: it would wait for every batch in flight, other requests' too. The gateway's
        // connection sends a batch within client.writer.batch-timeout (5 ms unless set), and rows of
        // concurrent requests share batches meanwhile; a request waits for its own rows only.
        // The table's handle is kept (by table id) across requests: opening one is a metadata round trip.
        TableWrite.Builder builder = request.session().handles().write(table)
                .columns(table.hasPrimaryKey() ? columns : Optional.empty());
        TableWrite write = (delete ? builder.delete() : builder).open();
        write.rows(rows);
        request.await(write.acknowledgements().all(),
                (delete ? "Deleting " : "Writing ") + rows.size() + " rows of " + table.getTablePath());
    }
}
