package dev.riffle.gateway.sql;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Bodies;
import dev.riffle.gateway.http.ClientGoneProbe;
import dev.riffle.gateway.http.ErrorMapper;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.Requests;
import dev.riffle.server.failure.Failures;
import dev.riffle.server.failure.SqlFailures;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import dev.riffle.sql.types.SqlTypes;
import io.javalin.http.Context;
import io.javalin.openapi.HttpMethod;
import io.javalin.openapi.OpenApi;
import io.javalin.openapi.OpenApiContent;
import io.javalin.openapi.OpenApiRequestBody;
import io.javalin.openapi.OpenApiResponse;
import java.io.IOException;
import java.io.InputStream;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * {@code POST /v1/sql}: one SQL statement run through the {@code jdbc:riffle} driver (riffle-sql),
 * with {@code ?} parameters, answered as JSON rows or as an Arrow IPC stream. Statements are
 * prepared once per pooled connection, so a repeated point query is planned once.
 */
public final class SqlResource {
    static final String TEXT = "text/plain";

    @OpenApi(path = Paths.SQL, methods = HttpMethod.POST, tags = "SQL", operationId = "sql",
            summary = "Run one SQL statement (Apache Calcite over Fluss, as in riffle sql)",
            description = "Body: {\"sql\": \"SELECT ... WHERE id = ?\", \"parameters\": [42]}, or the statement "
                    + "itself as text/plain. JSON answers {\"columns\": [{\"name\", \"type\"}], \"rows\": [{..}], "
                    + "\"rowCount\": n}; with Accept: application/vnd.apache.arrow.stream the rows stream out as "
                    + "an Arrow IPC stream. A query that is one read of a table answers with the read's own rows at "
                    + "full precision. A statement the SQL layer rejects is a 400 sql_error carrying its message.",
            requestBody = @OpenApiRequestBody(content = {
                @OpenApiContent(mimeType = MediaTypes.JSON, type = "object"),
                @OpenApiContent(mimeType = TEXT, type = "string")}),
            responses = {
                @OpenApiResponse(status = "200", description = "The rows, as JSON or an Arrow IPC stream"),
                @OpenApiResponse(status = "400", description = "A statement that does not parse, plan or run"),
                @OpenApiResponse(status = "401", description = "With --auth basic: missing or rejected credentials"),
                @OpenApiResponse(status = "403", description = "With --auth basic: a Fluss ACL denies the caller"),
                @OpenApiResponse(status = "404", description = "The statement names a table that does not exist"),
                @OpenApiResponse(status = "413", description = "The statement went over a budget of what it builds"
                        + " (statement_budget_exceeded)"),
                @OpenApiResponse(status = "503", description = "Every SQL connection is busy, or too many statements"
                        + " run and wait (busy)"),
                @OpenApiResponse(status = "504", description = "The statement ran past the statement timeout"
                        + " (statement_timeout)")})
    public void sql(Context ctx) throws IOException {
        String type = MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON, TEXT));
        MediaTypes.Format format = MediaTypes.responseFormat(ctx);
        RequestContext request = Requests.of(ctx);
        SqlRequest body = type.equals(TEXT) ? SqlRequest.text(readText(ctx, request))
                : SqlRequest.parse(Bodies.json(ctx, request.limits().maxBodyBytes()));
        SqlResult result = firstRows(ctx, request, body);
        try (SqlResult answer = result) {
            if (answer instanceof SqlResult.Updated updated) {
                Render.json(ctx, 200, updated.notices().isEmpty() ? java.util.Map.of("updateCount", updated.count())
                        : java.util.Map.of("updateCount", updated.count(), "notices", updated.notices()));
                return;
            }
            TableReader rows = ((SqlResult.Rows) answer).reader();
            long count = format == MediaTypes.Format.ARROW ? arrow(ctx, rows) : json(ctx, rows);
            GatewayMetrics.rows(ctx, "read", count);
        }
    }

    /**
     * Runs the statement up to its first batch, before the answer begins, so that a statement that
     * fails on its first rows (or runs out of time or budget computing them) still gets a proper
     * error status. Meanwhile a client that closes its connection cancels the statement.
     */
    private static SqlResult firstRows(Context ctx, RequestContext request, SqlRequest body) {
        try (ClientGoneProbe probe = ClientGoneProbe.start(ctx.req())) {
            request.watchClient(probe::gone);
            SqlResult result;
            try {
                result = SqlStatements.run(request, body.sql(), body.parameters());
            } catch (SQLException | RuntimeException e) {
                throw sqlFailure(e, body.sql());
            }
            try {
                if (result instanceof SqlResult.Rows rows) {
                    rows.reader().hasNext();
                }
                return result;
            } catch (RuntimeException e) {
                result.close();
                throw sqlFailure(e, body.sql());
            }
        }
    }

    private static long json(Context ctx, TableReader rows) throws IOException {
        long[] count = {0};
        Render.streamJson(ctx, json -> count[0] = writeJson(json, rows.schema(), () -> {
            long written = 0;
            while (rows.hasNext()) {
                try (ReadBatch batch = rows.next()) {
                    Render.writeRows(json, batch.root());
                    written += batch.rowCount();
                }
            }
            return written;
        }));
        return count[0];
    }

    /** Writes the rows of a JSON answer (each one object) and says how many. */
    interface JsonRows {
        long write() throws IOException;
    }

    /**
     * The JSON answer of a query, {@code {"columns": [...], "rows": [...], "rowCount": n}}, written
     * as the rows are read (also by {@link SqlLookupHandler}, so both answer alike).
     *
     * @param schema the answer's columns
     * @return the rows written
     */
    static long writeJson(JsonGenerator json, Schema schema, JsonRows rows) throws IOException {
        json.writeStartObject();
        json.writeArrayFieldStart("columns");
        for (Field field : schema.getFields()) {
            json.writeStartObject();
            json.writeStringField("name", field.getName());
            json.writeStringField("type", SqlTypes.typeName(ArrowTypeMapping.toFlussType(field)));
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeArrayFieldStart("rows");
        long count = rows.write();
        json.writeEndArray();
        json.writeNumberField("rowCount", count);
        json.writeEndObject();
        return count;
    }

    private static long arrow(Context ctx, TableReader rows) throws IOException {
        long[] count = {0};
        try (VectorSchemaRoot root = VectorSchemaRoot.create(rows.schema(), rows.allocator())) {
            Render.streamArrow(ctx, root, writer -> {
                while (rows.hasNext()) {
                    try (ReadBatch batch = rows.next()) {
                        Render.moveInto(batch.root(), root);
                        writer.writeBatch();
                        count[0] += batch.rowCount();
                    }
                }
            });
        }
        return count[0];
    }

    private static String readText(Context ctx, RequestContext request) {
        try (InputStream in = Bodies.open(ctx, request.limits().maxBodyBytes())) {
            return new String(in.readAllBytes(), UTF_8);
        } catch (IOException e) {
            throw Bodies.ioFailure(e);
        }
    }

    /**
     * What the client sees of a failed statement, classified as every surface classifies it
     * ({@link SqlFailures}): an unreachable cluster stays a 503, an unknown table is a 404,
     * anything else the SQL layer says is a 400 carrying its message.
     */
    static ApiException sqlFailure(Exception e, String sql) {
        if (e instanceof ApiException api) {
            return api;
        }
        Failures.Failure failure = SqlFailures.classify(e, sql);
        return new ApiException(ErrorMapper.status(failure.kind()), failure.code(), failure.message(),
                failure.details(), e);
    }

    /** A statement and its parameters, as the request gave them (JSON values as JDBC setters take them). */
    record SqlRequest(String sql, List<Object> parameters) {
        static SqlRequest text(String sql) {
            if (sql.isBlank()) {
                throw ApiException.badRequest("invalid_request", "The request body is empty; send one SQL statement");
            }
            return new SqlRequest(sql, List.of());
        }

        static SqlRequest parse(JsonNode body) {
            Json.requireObject(body, "The request body");
            Json.onlyFields(body, "the request body", Set.of("sql", "parameters"));
            String sql = Json.requiredText(body, "sql", "the request body");
            JsonNode parameters = body.get("parameters");
            List<Object> values = new ArrayList<>();
            if (parameters != null && !parameters.isNull()) {
                if (!parameters.isArray()) {
                    throw ApiException.badRequest("invalid_request", "Field 'parameters' must be an array of values, got "
                            + parameters.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
                }
                for (JsonNode parameter : parameters) {
                    values.add(parameter(parameter, values.size() + 1));
                }
            }
            return new SqlRequest(sql, values);
        }

        /** Parameter i+1 from JSON value i: booleans, numbers and strings as they are; null as NULL. */
        private static Object parameter(JsonNode value, int index) {
            if (value.isNull()) {
                return null;
            } else if (value.isBoolean()) {
                return value.booleanValue();
            } else if (value.isIntegralNumber() && value.canConvertToInt()) {
                return value.intValue();
            } else if (value.isIntegralNumber() && value.canConvertToLong()) {
                return value.longValue();
            } else if (value.isNumber()) {
                return value.decimalValue();
            } else if (value.isTextual()) {
                return value.textValue();
            }
            throw ApiException.badRequest("invalid_request", "Parameter " + index
                    + " must be a boolean, number, string or null, got " + value);
        }
    }
}
