package dev.riffle.gateway.sql;

import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.Requests;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.statement.RunningStatement;
import io.javalin.http.Context;
import io.javalin.openapi.HttpMethod;
import io.javalin.openapi.OpenApi;
import io.javalin.openapi.OpenApiParam;
import io.javalin.openapi.OpenApiResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /v1/statements}: the SQL statements running now through every surface of the process
 * (HTTP, Flight SQL, PostgreSQL), and cancelling one. A caller sees and stops its own statements;
 * an operator (without authentication everyone; with it, a principal the cluster lets list its
 * ACLs) sees and stops all.
 */
public final class StatementsResource {
    @OpenApi(path = Paths.STATEMENTS, methods = HttpMethod.GET, tags = "SQL", operationId = "listStatements",
            summary = "The SQL statements running now",
            description = "{\"statements\": [{\"id\", \"principal\", \"surface\", \"sql\", \"started\", \"elapsedMs\","
                    + " \"rows\", \"timeoutMs\"}]}: every statement for an operator, the caller's own otherwise.",
            responses = @OpenApiResponse(status = "200", description = "The running statements, oldest first"))
    public void list(Context ctx) {
        RequestContext request = Requests.of(ctx);
        boolean operator = request.operator();
        Optional<String> caller = request.session().principal();
        List<Map<String, Object>> visible = request.statements().list().stream()
                .filter(statement -> operator || statement.principal().equals(caller))
                .map(StatementsResource::describe).toList();
        Render.json(ctx, 200, Map.of("statements", visible));
    }

    @OpenApi(path = Paths.STATEMENT, methods = HttpMethod.DELETE, tags = "SQL", operationId = "cancelStatement",
            summary = "Cancel a running SQL statement",
            description = "The statement stops at its next check (within milliseconds) and its client gets the"
                    + " cancel's error (PostgreSQL 57014, Flight CANCELLED, HTTP 499 statement_cancelled).",
            pathParams = @OpenApiParam(name = "id", required = true, description = "The statement's id"),
            responses = {
                @OpenApiResponse(status = "200", description = "{\"id\": 17, \"cancelled\": true}"),
                @OpenApiResponse(status = "403", description = "Another principal's statement, and the caller is no"
                        + " operator"),
                @OpenApiResponse(status = "404", description = "No statement runs with that id")})
    public void cancel(Context ctx) {
        RequestContext request = Requests.of(ctx);
        long id;
        try {
            id = Long.parseLong(ctx.pathParam("id"));
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("invalid_request", "A statement id is a whole number, got '"
                    + ctx.pathParam("id") + "'");
        }
        RunningStatement statement = request.statements().get(id).orElseThrow(() -> ApiException.notFound(
                "statement_not_found", "No statement " + id + " is running (GET " + Paths.STATEMENTS + " lists them)"));
        if (!statement.principal().equals(request.session().principal()) && !request.operator()) {
            throw new ApiException(403, "forbidden", "Statement " + id + " is another user's; only an operator (a"
                    + " principal the cluster lets list its ACLs) may cancel it");
        }
        boolean cancelled = statement.cancel("canceling statement due to an operator's request (statement " + id
                + " cancelled through " + Paths.STATEMENTS + ")");
        Render.json(ctx, 200, Map.of("id", id, "cancelled", cancelled));
    }

    private static Map<String, Object> describe(RunningStatement statement) {
        Map<String, Object> described = new LinkedHashMap<>();
        described.put("id", statement.id());
        described.put("principal", statement.principal().orElse(null));
        described.put("surface", statement.surface());
        described.put("sql", statement.sql());
        described.put("started", statement.started().toString());
        described.put("elapsedMs", statement.guard().elapsed().toMillis());
        described.put("rows", statement.guard().rows());
        described.put("timeoutMs", statement.guard().timeout().map(java.time.Duration::toMillis).orElse(null));
        return described;
    }
}
