package dev.riffle.gateway;

import static java.util.Objects.requireNonNull;

import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.http.Render;
import io.javalin.http.Context;
import io.javalin.openapi.HttpMethod;
import io.javalin.openapi.OpenApi;
import io.javalin.openapi.OpenApiResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.cluster.ServerNode;
import org.apache.fluss.cluster.ServerType;

/** Liveness, readiness, metrics, and the OpenAPI document's own entry. */
final class OpsResource {
    private final FlussConnection service;
    private final GatewayMetrics metrics;

    /** @param service the gateway's own connection, which readiness asks (not a caller's) */
    OpsResource(FlussConnection service, GatewayMetrics metrics) {
        this.service = requireNonNull(service, "service is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @OpenApi(path = Paths.HEALTH, methods = HttpMethod.GET, tags = "Operations", operationId = "health",
            summary = "Liveness: the gateway process answers",
            responses = @OpenApiResponse(status = "200", description = "{\"status\": \"ok\"}"))
    void health(Context ctx) {
        Render.json(ctx, 200, Map.of("status", "ok"));
    }

    @OpenApi(path = Paths.READY, methods = HttpMethod.GET, tags = "Operations", operationId = "ready",
            summary = "Readiness: the Fluss cluster is reachable and has a tablet server",
            responses = {
                @OpenApiResponse(status = "200", description = "{\"status\": \"ready\", \"tablet_servers\": n}"),
                @OpenApiResponse(status = "503", description = "The cluster is not reachable")})
    void ready(Context ctx) {
        List<ServerNode> nodes;
        try {
            nodes = service.getOrCreateAdmin().getServerNodes().get(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiException(503, "cluster_unavailable", "Interrupted while asking the Fluss cluster");
        } catch (Exception e) {
            throw new ApiException(503, "cluster_unavailable", "The Fluss cluster is not reachable: " + e.getMessage());
        }
        long tabletServers = nodes.stream().filter(n -> n.serverType() == ServerType.TABLET_SERVER).count();
        if (tabletServers == 0) {
            throw new ApiException(503, "cluster_unavailable", "The Fluss cluster has no tablet server");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("status", "ready");
        body.put("tablet_servers", tabletServers);
        Render.json(ctx, 200, body);
    }

    @OpenApi(path = Paths.METRICS, methods = HttpMethod.GET, tags = "Operations", operationId = "metrics",
            summary = "Prometheus metrics: requests, latency, rows and errors per route",
            responses = @OpenApiResponse(status = "200", description = "Prometheus text format"))
    void metrics(Context ctx) {
        ctx.contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape());
    }

    /** Served by the OpenAPI plugin; described here so that the document lists itself. */
    @OpenApi(path = Paths.OPENAPI, methods = HttpMethod.GET, tags = "Operations", operationId = "openapi",
            summary = "This API's OpenAPI document",
            responses = @OpenApiResponse(status = "200", description = "OpenAPI 3 JSON"))
    void openapi(Context ctx) {
        throw new UnsupportedOperationException("served by the OpenAPI plugin");
    }
}
