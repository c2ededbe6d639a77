package dev.riffle.gateway.rows;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.kv.KeyLookup;
import dev.riffle.core.tables.SchemaDerived;
import dev.riffle.core.values.FlussValueReader;
import dev.riffle.core.values.JsonValueSink;
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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

/**
 * Point lookups by primary key (one from the URL, or a batch from the body) and prefix lookups
 * by a bucket-key prefix of the primary key, through the Fluss client's lookupers. A batch is sent
 * as one burst of pipelined lookups, not one round trip per key.
 */
public final class LookupResource {
    /** A point lookup's shapes, made once per table version in the session's table handles. */
    private static final SchemaDerived<LookupShape> LOOKUP_SHAPE = SchemaDerived.of("lookup shape", LookupShape::of);

    private final Executor responses;

    /**
     * What a point lookup in one table version needs besides its key: its key's shape, and how its
     * rows are written as JSON. Made once per table version, not per lookup (the hottest request).
     */
    record LookupShape(RowShape key, List<String> names, List<FlussValueReader> readers) {
        static LookupShape of(TableInfo table) {
            return new LookupShape(RowShape.lookupKey(table), table.getRowType().getFieldNames(),
                    FlussValueReader.ofFields(table.getRowType()));
        }

        /** {@code row} as one JSON object. */
        byte[] json(InternalRow row) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            try (JsonGenerator json = Json.MAPPER.createGenerator(bytes)) {
                Render.writeRow(json, row, names, position -> position, readers, new JsonValueSink(json));
            }
            return bytes.toByteArray();
        }
    }

    /** @param responses the server's threads, which answer requests whose lookup completed */
    public LookupResource(Executor responses) {
        this.responses = requireNonNull(responses, "responses is null");
    }

    @OpenApi(path = Paths.ROW, methods = HttpMethod.GET, tags = "Lookups", operationId = "getRow",
            summary = "Look up one row by primary key",
            description = "{key} is the value of the first primary-key column; the other key columns (and partition "
                    + "keys) come as query parameters: /rows/42?region=eu.",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true),
                @OpenApiParam(name = "key", required = true, description = "Value of the first primary-key column")},
            responses = {
                @OpenApiResponse(status = "200", description = "The row (JSON object, or a one-row Arrow stream)"),
                @OpenApiResponse(status = "400", description = "A bad or incomplete key"),
                @OpenApiResponse(status = "404", description = "No such table, or no row with that key")})
    public void getRow(Context ctx) {
        MediaTypes.Format format = MediaTypes.responseFormat(ctx);
        // The answer comes on another thread: the request's context goes with it, and is closed when it is written.
        RequestContext request = Requests.take(ctx);
        PendingRow pending;
        try {
            pending = lookUp(request, Requests.tablePath(ctx), ctx.pathParam("key"), ctx.queryParamMap());
        } catch (RuntimeException e) {
            request.close();
            throw e;
        }
        ctx.future(() -> pending.found()
                .thenAcceptAsync(row -> answerRow(ctx, request, format, pending, row), responses)
                .whenComplete((done, failure) -> request.close()));
    }

    /** A point lookup under way: its table, its shapes, and the row it finds (or a row_not_found failure). */
    record PendingRow(TableInfo table, LookupShape shape, CompletableFuture<InternalRow> found) {
        /** The row found, as one JSON object. */
        byte[] rowJson(InternalRow row) throws IOException {
            return shape.json(row);
        }
    }

    /**
     * Starts the lookup of the row whose first primary-key column is {@code first} and whose other
     * key columns (and partition keys) are {@code others}, all as text. Bad keys fail here; the
     * lookup itself completes without holding the calling thread, so that a server thread is not
     * parked per lookup (and woken again): that cost more than the rest of the request.
     */
    PendingRow lookUp(RequestContext request, TablePath path, String first, Map<String, List<String>> others) {
        return lookUp(request, request.session().handles().info(path), first, others);
    }

    /** As {@link #lookUp(RequestContext, TablePath, String, Map)}, in {@code table} as known already. */
    PendingRow lookUp(RequestContext request, TableInfo table, String first, Map<String, List<String>> others) {
        LookupShape shape = request.session().handles().derived(table, LOOKUP_SHAPE);
        Map<String, String> key = new LinkedHashMap<>();
        String firstColumn = table.getPrimaryKeys().get(0);
        key.put(firstColumn, first);
        for (Map.Entry<String, List<String>> param : others.entrySet()) {
            if (param.getKey().equals(firstColumn)) {
                throw ApiException.badRequest("invalid_key", "Key column '" + firstColumn + "' is given in the path; "
                        + "do not repeat it as a query parameter");
            }
            key.put(param.getKey(), param.getValue().get(0));
        }
        GenericRow keyRow = shape.key().fromText(key);
        CompletableFuture<List<List<InternalRow>>> result = request.session().handles().lookup(table)
                .send(List.of(keyRow));
        return new PendingRow(table, shape, request.within(result, "The lookup in " + table.getTablePath())
                .thenApply(found -> {
                    List<InternalRow> rows = found.get(0);
                    if (rows.isEmpty()) {
                        throw ApiException.notFound("row_not_found", "No row of " + table.getTablePath() + " has key "
                                + Json.MAPPER.valueToTree(key));
                    }
                    return rows.get(0);
                }));
    }

    private void answerRow(Context ctx, RequestContext request, MediaTypes.Format format, PendingRow pending,
            InternalRow row) {
        GatewayMetrics.rows(ctx, "read", 1);
        try {
            if (format == MediaTypes.Format.ARROW) {
                Render.rows(ctx, format, List.of(row), pending.table().getRowType(), request.allocator(), json -> { });
            } else {
                ctx.status(200).contentType(MediaTypes.JSON).result(pending.rowJson(row));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @OpenApi(path = Paths.LOOKUP, methods = HttpMethod.POST, tags = "Lookups", operationId = "lookupRows",
            summary = "Look up many rows by primary key",
            description = "Body: {\"keys\": [{\"id\": 1}, {\"id\": 2}]}. Answers the rows found, in key order; in JSON "
                    + "also \"missing\": the indexes of keys without a row.",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            requestBody = @OpenApiRequestBody(required = true, content = @OpenApiContent(mimeType = MediaTypes.JSON,
                    type = "object")),
            responses = {
                @OpenApiResponse(status = "200", description = "{\"rows\": [...], \"missing\": [...]} or an Arrow stream"),
                @OpenApiResponse(status = "400", description = "A bad key, naming its index and column"),
                @OpenApiResponse(status = "404", description = "No such table"),
                @OpenApiResponse(status = "413", description = "Too many keys")})
    public void lookupRows(Context ctx) throws IOException {
        MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON));
        MediaTypes.Format format = MediaTypes.responseFormat(ctx);
        RequestContext request = Requests.of(ctx);
        TableInfo table = request.session().handles().info(Requests.tablePath(ctx));
        List<GenericRow> keys = WriteResource.keyRows(Bodies.json(ctx, request.limits().maxBodyBytes()),
                request.session().handles().derived(table, LOOKUP_SHAPE).key(), request.limits().maxKeys());
        List<List<InternalRow>> results = lookup(request, table, keys, List.of());
        List<InternalRow> found = new ArrayList<>();
        List<Integer> missing = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i).isEmpty()) {
                missing.add(i);
            }
            found.addAll(results.get(i));
        }
        render(ctx, request, format, table, found, json -> {
            json.writeArrayFieldStart("missing");
            for (int index : missing) {
                json.writeNumber(index);
            }
            json.writeEndArray();
        });
    }

    @OpenApi(path = Paths.PREFIX_LOOKUP, methods = HttpMethod.POST, tags = "Lookups", operationId = "prefixLookup",
            summary = "Look up every row whose primary key starts with a prefix",
            description = "Body: {\"keys\": [{\"customer_id\": 7}]}. The key columns must be the table's bucket key "
                    + "(a prefix of the primary key; plus the partition keys of a partitioned table).",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            requestBody = @OpenApiRequestBody(required = true, content = @OpenApiContent(mimeType = MediaTypes.JSON,
                    type = "object")),
            responses = {
                @OpenApiResponse(status = "200", description = "{\"rows\": [...]} or an Arrow stream"),
                @OpenApiResponse(status = "400", description = "Bad keys, or columns that are not the bucket key"),
                @OpenApiResponse(status = "404", description = "No such table")})
    public void prefixLookup(Context ctx) throws IOException {
        MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON));
        MediaTypes.Format format = MediaTypes.responseFormat(ctx);
        RequestContext request = Requests.of(ctx);
        TableInfo table = request.session().handles().info(Requests.tablePath(ctx));
        RowShape.requirePrimaryKey(table, "Prefix lookups");
        JsonNode body = Json.requireObject(Bodies.json(ctx, request.limits().maxBodyBytes()), "The request body");
        List<String> columns = prefixColumns(table, body.get("keys"));
        List<GenericRow> keys = WriteResource.keyRows(body, RowShape.prefixKey(table, columns),
                request.limits().maxKeys());
        List<InternalRow> found = new ArrayList<>();
        lookup(request, table, keys, columns).forEach(found::addAll);
        render(ctx, request, format, table, found, json -> { });
    }

    /** The columns the first key names, in primary-key order. */
    private static List<String> prefixColumns(TableInfo table, JsonNode keys) {
        if (keys == null || !keys.isArray() || keys.isEmpty() || !keys.get(0).isObject() || keys.get(0).isEmpty()) {
            throw ApiException.badRequest("invalid_request", "The body needs \"keys\": a non-empty array of objects "
                    + "naming the prefix columns, got " + Json.describe(keys));
        }
        List<String> named = new ArrayList<>();
        keys.get(0).fieldNames().forEachRemaining(named::add);
        List<String> ordered = new ArrayList<>();
        for (String column : table.getPrimaryKeys()) {
            if (named.contains(column)) {
                ordered.add(column);
            }
        }
        for (String column : named) {
            if (!ordered.contains(column)) {
                throw ApiException.badRequest("invalid_key", "Key 0: column '" + column + "' is not a primary-key column "
                        + "of " + table.getTablePath() + "; a prefix lookup takes columns of " + table.getPrimaryKeys());
            }
        }
        // Fluss looks up by prefix within one bucket: the key must be exactly the bucket key (plus partition keys).
        List<String> withoutPartitionKeys = new ArrayList<>(ordered);
        withoutPartitionKeys.removeAll(table.getPartitionKeys());
        if (!withoutPartitionKeys.equals(table.getBucketKeys())) {
            String partitions = table.isPartitioned() ? " (and the partition keys " + table.getPartitionKeys() + ")" : "";
            throw ApiException.badRequest("invalid_key", "A prefix lookup on " + table.getTablePath() + " names the "
                    + "bucket key " + table.getBucketKeys() + partitions + ", got " + ordered);
        }
        return ordered;
    }

    /** The rows found for each key, in key order. */
    private static List<List<InternalRow>> lookup(RequestContext request, TableInfo table, List<GenericRow> keys,
            List<String> prefixColumns) {
        KeyLookup lookup = request.session().handles().lookup(table);
        return request.await((prefixColumns.isEmpty() ? lookup : lookup.byPrefix(prefixColumns)).send(keys),
                keys.size() + " lookups in " + table.getTablePath());
    }

    private static void render(Context ctx, RequestContext request, MediaTypes.Format format, TableInfo table,
            List<InternalRow> found, Render.JsonBody extra) throws IOException {
        GatewayMetrics.rows(ctx, "read", found.size());
        Render.rows(ctx, format, found, table.getRowType(), request.allocator(), extra);
    }
}
