package dev.riffle.gateway.meta;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.gateway.http.Bodies;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.PathNames;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.DatabaseInfo;

/** Databases: list, create, describe, drop. */
public final class DatabaseResource {
    @OpenApi(path = Paths.DATABASES, methods = HttpMethod.GET, tags = "Databases", operationId = "listDatabases",
            summary = "List databases",
            responses = @OpenApiResponse(status = "200", description = "{\"databases\": [\"fluss\", ...]}"))
    public void list(Context ctx) {
        RequestContext request = Requests.of(ctx);
        List<String> databases = request.await(request.admin().listDatabases(), "Listing databases");
        Render.json(ctx, 200, Map.of("databases", databases.stream().sorted().toList()));
    }

    @OpenApi(path = Paths.DATABASES, methods = HttpMethod.POST, tags = "Databases", operationId = "createDatabase",
            summary = "Create a database",
            description = "Body: {\"name\": \"shop\", \"comment\": \"..\", \"properties\": {..}, \"if_not_exists\": false}",
            requestBody = @OpenApiRequestBody(required = true, content = @OpenApiContent(mimeType = MediaTypes.JSON,
                    type = "object")),
            responses = {
                @OpenApiResponse(status = "201", description = "The database"),
                @OpenApiResponse(status = "400", description = "A bad name or body"),
                @OpenApiResponse(status = "409", description = "The database exists")})
    public void create(Context ctx) {
        RequestContext request = Requests.of(ctx);
        MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON));
        JsonNode body = Json.requireObject(Bodies.json(ctx, request.limits().maxBodyBytes()), "The request body");
        String what = "a database";
        Json.onlyFields(body, what, Set.of("name", "comment", "properties", "if_not_exists"));
        String name = Json.requiredText(body, "name", what);
        DatabaseDescriptor.Builder descriptor = DatabaseDescriptor.builder()
                .customProperties(Json.stringMap(body, "properties", what));
        Json.optionalText(body, "comment", what).ifPresent(descriptor::comment);
        boolean ifNotExists = Json.optionalBoolean(body, "if_not_exists", what, false);
        request.await(request.admin().createDatabase(name, descriptor.build(), ifNotExists), "Creating database " + name);
        Render.json(ctx, 201, describe(request, name));
    }

    @OpenApi(path = Paths.DATABASE, methods = HttpMethod.GET, tags = "Databases", operationId = "getDatabase",
            summary = "Describe a database",
            pathParams = @OpenApiParam(name = "db", required = true),
            responses = {
                @OpenApiResponse(status = "200", description = "{\"name\", \"comment\", \"properties\", \"tables\"}"),
                @OpenApiResponse(status = "404", description = "No such database")})
    public void get(Context ctx) {
        RequestContext request = Requests.of(ctx);
        Render.json(ctx, 200, describe(request, PathNames.decoded(ctx, "db")));
    }

    @OpenApi(path = Paths.DATABASE, methods = HttpMethod.DELETE, tags = "Databases", operationId = "dropDatabase",
            summary = "Drop a database",
            pathParams = @OpenApiParam(name = "db", required = true),
            queryParams = @OpenApiParam(name = "cascade", type = Boolean.class,
                    description = "Drop its tables too (otherwise a database with tables is a 409)"),
            responses = {
                @OpenApiResponse(status = "204", description = "Dropped"),
                @OpenApiResponse(status = "404", description = "No such database"),
                @OpenApiResponse(status = "409", description = "The database has tables and cascade is not set")})
    public void drop(Context ctx) {
        RequestContext request = Requests.of(ctx);
        String name = PathNames.decoded(ctx, "db");
        boolean cascade = "true".equalsIgnoreCase(ctx.queryParam("cascade"));
        try {
            request.await(request.admin().dropDatabase(name, false, cascade), "Dropping database " + name);
        } catch (DatabaseNotExistException e) {
            throw request.riffle().databaseNotFound(name, e);
        }
        ctx.status(204);
    }

    private static Map<String, Object> describe(RequestContext request, String name) {
        DatabaseInfo info;
        try {
            info = request.await(request.admin().getDatabaseInfo(name), "Looking up database " + name);
        } catch (DatabaseNotExistException e) {
            throw request.riffle().databaseNotFound(name, e);
        }
        List<String> tables = request.await(request.admin().listTables(name), "Listing tables of " + name);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("name", info.getDatabaseName());
        result.put("comment", info.getDatabaseDescriptor().getComment().orElse(null));
        result.put("properties", info.getDatabaseDescriptor().getCustomProperties());
        result.put("tables", tables.stream().sorted().toList());
        return result;
    }
}
