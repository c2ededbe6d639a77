package dev.riffle.gateway.meta;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.exception.TableNotFoundException;
import dev.riffle.core.schema.TableAlteration;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/** Tables of a database: list, create, describe, alter, drop. */
public final class TableResource {
    @OpenApi(path = Paths.TABLES, methods = HttpMethod.GET, tags = "Tables", operationId = "listTables",
            summary = "List the tables of a database",
            pathParams = @OpenApiParam(name = "db", required = true),
            responses = {
                @OpenApiResponse(status = "200", description = "{\"tables\": [...]}"),
                @OpenApiResponse(status = "404", description = "No such database")})
    public void list(Context ctx) {
        RequestContext request = Requests.of(ctx);
        String database = PathNames.decoded(ctx, "db");
        try {
            List<String> tables = request.await(request.admin().listTables(database), "Listing tables of " + database);
            Render.json(ctx, 200, Map.of("tables", tables.stream().sorted().toList()));
        } catch (DatabaseNotExistException e) {
            throw request.riffle().databaseNotFound(database, e);
        }
    }

    @OpenApi(path = Paths.TABLES, methods = HttpMethod.POST, tags = "Tables", operationId = "createTable",
            summary = "Create a table",
            description = "Body: {\"name\": \"orders\", \"columns\": [{\"name\": \"id\", \"type\": \"BIGINT\"}, "
                    + "{\"name\": \"amount\", \"type\": \"DECIMAL(10, 2)\"}], \"primary_key\": [\"id\"], "
                    + "\"bucket_key\": [..], \"buckets\": 4, \"partition_keys\": [..], \"properties\": "
                    + "{\"table.datalake.enabled\": \"true\"}, \"custom_properties\": {..}, \"comment\": \"..\", "
                    + "\"if_not_exists\": false}. Types are Fluss type strings.",
            pathParams = @OpenApiParam(name = "db", required = true),
            requestBody = @OpenApiRequestBody(required = true, content = @OpenApiContent(mimeType = MediaTypes.JSON,
                    type = "object")),
            responses = {
                @OpenApiResponse(status = "201", description = "The table, as GET describes it"),
                @OpenApiResponse(status = "400", description = "A bad definition (type, key, property)"),
                @OpenApiResponse(status = "404", description = "No such database"),
                @OpenApiResponse(status = "409", description = "The table exists")})
    public void create(Context ctx) {
        RequestContext request = Requests.of(ctx);
        MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON));
        String database = PathNames.decoded(ctx, "db");
        JsonNode body = Json.requireObject(Bodies.json(ctx, request.limits().maxBodyBytes()), "The request body");
        TablePath path = TablePath.of(database, TableJson.name(body));
        TableDescriptor descriptor = TableJson.descriptor(body, request.limits().maxBuckets());
        boolean ifNotExists = Json.optionalBoolean(body, "if_not_exists", "the table definition", false);
        try {
            request.await(request.admin().createTable(path, descriptor, ifNotExists), "Creating table " + path);
        } catch (DatabaseNotExistException e) {
            throw request.riffle().databaseNotFound(database, e);
        }
        request.session().sql().tableChanged(path);
        Render.json(ctx, 201, TableJson.describe(request.tableInfo(path)));
    }

    @OpenApi(path = Paths.TABLE, methods = HttpMethod.GET, tags = "Tables", operationId = "getTable",
            summary = "Describe a table",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            responses = {
                @OpenApiResponse(status = "200", description = "Columns, keys, buckets, partitioning and properties"),
                @OpenApiResponse(status = "404", description = "No such database or table")})
    public void get(Context ctx) {
        RequestContext request = Requests.of(ctx);
        Render.json(ctx, 200, TableJson.describe(request.tableInfo(Requests.tablePath(ctx))));
    }

    @OpenApi(path = Paths.TABLE, methods = HttpMethod.PATCH, tags = "Tables", operationId = "alterTable",
            summary = "Alter a table: add columns, or set or reset options",
            description = "Body: {\"add_columns\": [{\"name\": \"note\", \"type\": \"STRING\", \"comment\": \"..\"}]},"
                    + " or {\"set\": {\"table.datalake.freshness\": \"1min\"}}, or {\"reset\": [\"table.datalake.freshness\"]};"
                    + " \"if_exists\": true makes a missing table no error. Columns are added last and must be nullable;"
                    + " rows written before read them as null. Fluss applies column changes and option changes in"
                    + " separate requests, and allows only some options to change (it names them when it refuses one).",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            requestBody = @OpenApiRequestBody(required = true, content = @OpenApiContent(mimeType = MediaTypes.JSON,
                    type = "object")),
            responses = {
                @OpenApiResponse(status = "200", description = "The table after the change, as GET describes it"),
                @OpenApiResponse(status = "204", description = "The table does not exist and if_exists was true"),
                @OpenApiResponse(status = "400", description = "A change Fluss refuses, with its reason"),
                @OpenApiResponse(status = "404", description = "No such database or table")})
    public void alter(Context ctx) {
        RequestContext request = Requests.of(ctx);
        MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON));
        TablePath path = Requests.tablePath(ctx);
        JsonNode body = Json.requireObject(Bodies.json(ctx, request.limits().maxBodyBytes()), "The request body");
        boolean ifExists = Json.optionalBoolean(body, "if_exists", "the table change", false);
        TableAlteration alteration = TableAlteration.of(path, TableJson.changes(body));
        try {
            request.await(alteration.apply(request.admin(), ifExists), "Altering table " + path);
        } catch (TableNotExistException | DatabaseNotExistException e) {
            throw request.riffle().notFound(path, e);
        }
        request.session().sql().tableChanged(path);
        TableInfo altered;
        try {
            altered = request.tableInfo(path);
        } catch (TableNotFoundException e) {
            if (ifExists) {
                ctx.status(204);
                return;
            }
            throw e;
        }
        Render.json(ctx, 200, TableJson.describe(altered));
    }

    @OpenApi(path = Paths.TABLE, methods = HttpMethod.DELETE, tags = "Tables", operationId = "dropTable",
            summary = "Drop a table",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            responses = {
                @OpenApiResponse(status = "204", description = "Dropped"),
                @OpenApiResponse(status = "404", description = "No such database or table")})
    public void drop(Context ctx) {
        RequestContext request = Requests.of(ctx);
        TablePath path = Requests.tablePath(ctx);
        try {
            request.await(request.admin().dropTable(path, false), "Dropping table " + path);
        } catch (TableNotExistException | DatabaseNotExistException e) {
            throw request.riffle().notFound(path, e);
        }
        request.session().sql().tableChanged(path);
        ctx.status(204);
    }
}
