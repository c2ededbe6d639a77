package dev.riffle.gateway.meta;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.gateway.http.ApiException;
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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.fluss.exception.PartitionNotExistException;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.ResolvedPartitionSpec;
import org.apache.fluss.metadata.TableInfo;

/**
 * Partitions of a partitioned table: list, create (by spec), drop (by name: the partition
 * values joined by {@code $} in partition-key order, as Fluss names them).
 */
public final class PartitionResource {
    @OpenApi(path = Paths.PARTITIONS, methods = HttpMethod.GET, tags = "Partitions", operationId = "listPartitions",
            summary = "List the partitions of a table",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            responses = {
                @OpenApiResponse(status = "200", description = "{\"partitions\": [{\"name\", \"id\", \"spec\"}]}"),
                @OpenApiResponse(status = "400", description = "The table is not partitioned"),
                @OpenApiResponse(status = "404", description = "No such table")})
    public void list(Context ctx) {
        RequestContext request = Requests.of(ctx);
        TableInfo table = partitioned(request, ctx);
        List<PartitionInfo> partitions = request.await(request.admin().listPartitionInfos(table.getTablePath()),
                "Listing partitions of " + table.getTablePath());
        Render.json(ctx, 200, Map.of("partitions", partitions.stream()
                .sorted(Comparator.comparing(PartitionInfo::getPartitionName))
                .map(PartitionResource::describe).toList()));
    }

    @OpenApi(path = Paths.PARTITIONS, methods = HttpMethod.POST, tags = "Partitions", operationId = "createPartition",
            summary = "Create a partition",
            description = "Body: {\"spec\": {\"dt\": \"2024-06-01\"}, \"if_not_exists\": false}, one value per partition key.",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true)},
            requestBody = @OpenApiRequestBody(required = true, content = @OpenApiContent(mimeType = MediaTypes.JSON,
                    type = "object")),
            responses = {
                @OpenApiResponse(status = "201", description = "The partition"),
                @OpenApiResponse(status = "400", description = "A bad spec, or the table is not partitioned"),
                @OpenApiResponse(status = "404", description = "No such table"),
                @OpenApiResponse(status = "409", description = "The partition exists")})
    public void create(Context ctx) {
        RequestContext request = Requests.of(ctx);
        MediaTypes.requireContentType(ctx, Set.of(MediaTypes.JSON));
        TableInfo table = partitioned(request, ctx);
        JsonNode body = Json.requireObject(Bodies.json(ctx, request.limits().maxBodyBytes()), "The request body");
        Json.onlyFields(body, "a partition", Set.of("spec", "if_not_exists"));
        Map<String, String> spec = Json.stringMap(body, "spec", "a partition");
        if (!spec.keySet().equals(Set.copyOf(table.getPartitionKeys()))) {
            throw ApiException.badRequest("invalid_request", "The spec must give a value for exactly the partition keys "
                    + table.getPartitionKeys() + " of " + table.getTablePath() + ", got " + spec.keySet());
        }
        boolean ifNotExists = Json.optionalBoolean(body, "if_not_exists", "a partition", false);
        request.await(request.admin().createPartition(table.getTablePath(), new PartitionSpec(spec), ifNotExists),
                "Creating partition " + spec + " of " + table.getTablePath());
        String name = ResolvedPartitionSpec.fromPartitionSpec(table.getPartitionKeys(), new PartitionSpec(spec))
                .getPartitionName();
        PartitionInfo created = request.await(request.admin().listPartitionInfos(table.getTablePath()),
                        "Listing partitions of " + table.getTablePath())
                .stream().filter(p -> p.getPartitionName().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("Partition " + name + " was created but is not listed"));
        Render.json(ctx, 201, describe(created));
    }

    @OpenApi(path = Paths.PARTITION, methods = HttpMethod.DELETE, tags = "Partitions", operationId = "dropPartition",
            summary = "Drop a partition",
            pathParams = {@OpenApiParam(name = "db", required = true), @OpenApiParam(name = "table", required = true),
                @OpenApiParam(name = "partition", required = true,
                        description = "The partition's name: its values joined by $ in partition-key order")},
            responses = {
                @OpenApiResponse(status = "204", description = "Dropped"),
                @OpenApiResponse(status = "404", description = "No such table or partition")})
    public void drop(Context ctx) {
        RequestContext request = Requests.of(ctx);
        TableInfo table = partitioned(request, ctx);
        String name = PathNames.decoded(ctx, "partition");
        ResolvedPartitionSpec spec;
        try {
            spec = ResolvedPartitionSpec.fromPartitionName(table.getPartitionKeys(), name);
        } catch (RuntimeException e) {
            throw ApiException.badRequest("invalid_request", "'" + name + "' is not a partition name of "
                    + table.getTablePath() + " (values of " + table.getPartitionKeys() + " joined by $)");
        }
        try {
            request.await(request.admin().dropPartition(table.getTablePath(), spec.toPartitionSpec(), false),
                    "Dropping partition " + name + " of " + table.getTablePath());
        } catch (PartitionNotExistException e) {
            throw ApiException.notFound("partition_not_found", "Partition '" + name + "' of " + table.getTablePath()
                    + " does not exist");
        }
        ctx.status(204);
    }

    private static TableInfo partitioned(RequestContext request, Context ctx) {
        TableInfo table = request.tableInfo(Requests.tablePath(ctx));
        if (!table.isPartitioned()) {
            throw ApiException.badRequest("table_not_partitioned", "Table " + table.getTablePath() + " is not partitioned");
        }
        return table;
    }

    private static Map<String, Object> describe(PartitionInfo partition) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("name", partition.getPartitionName());
        result.put("id", partition.getPartitionId());
        result.put("spec", partition.getPartitionSpec().getSpecMap());
        return result;
    }
}
