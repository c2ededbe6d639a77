package dev.riffle.gateway.http;

import io.javalin.http.Context;
import io.micrometer.core.instrument.Counter;
import dev.riffle.server.session.FlussConnections;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Prometheus metrics per route: requests and their latency ({@code riffle_gateway_requests_seconds},
 * tagged with method, route template and status), errors by code, and rows read and written.
 * Handlers report rows with {@link #rows}; everything else is recorded once per request.
 */
public final class GatewayMetrics {
    private static final String ROWS_ATTRIBUTE = "riffle.rows";
    private static final String ROWS_DIRECTION_ATTRIBUTE = "riffle.rows.direction";
    private static final String ERROR_CODE_ATTRIBUTE = "riffle.error.code";
    private static final String LAKE_FILES_ATTRIBUTE = "riffle.lake.files";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    /*
     * Meters by their tags, found again without a builder: building and registering a meter per
     * request (Micrometer looks it up by its whole id) was a measurable part of a point lookup.
     */
    private final Map<Tags, Timer> requests = new ConcurrentHashMap<>();
    private final Map<Tags, Counter> errors = new ConcurrentHashMap<>();
    private final Map<Tags, Counter> rows = new ConcurrentHashMap<>();
    private final Map<Tags, Counter> lakeFiles = new ConcurrentHashMap<>();
    private final Counter sqlKeyLookups;
    private final Counter selectorRequests;
    private final Counter directRequests;
    private final Counter handedOver;
    private final Counter handedOverForRoom;

    /** Refreshes the meters that are read when scraped rather than kept up to date (the open connections). */
    private volatile Runnable beforeScrape = () -> { };

    /** Method, route template, and the status, error code or row direction. */
    private record Tags(String method, String route, String value) {}

    public GatewayMetrics(LongSupplier arrowBytes) {
        Gauge.builder("riffle.gateway.arrow.allocated", arrowBytes::getAsLong)
                .baseUnit("bytes")
                .description("Arrow memory held by requests in flight")
                .register(registry);
        sqlKeyLookups = Counter.builder("riffle.gateway.sql.key.lookups")
                .description("SQL point queries answered without a SQL connection (a statement run before as a key lookup)")
                .register(registry);
        selectorRequests = Counter.builder("riffle.gateway.selector.requests")
                .description("Requests taken on Jetty's selector thread (point lookups answered without a server thread)")
                .register(registry);
        directRequests = Counter.builder("riffle.gateway.direct.requests")
                .description("Requests answered by the connection itself, without Jetty's request machinery (plain point lookups)")
                .register(registry);
        handedOver = Counter.builder("riffle.gateway.selector.handovers")
                .description("Requests begun on the selector thread and handed to a server thread, which would have waited")
                .register(registry);
        handedOverForRoom = Counter.builder("riffle.gateway.selector.handovers.queue")
                .description("Lookups of those handed over because the Fluss client's lookup queue had no room for them")
                .register(registry);
    }

    /**
     * Shows {@code riffle_fluss_connections}: the Fluss connections open in the process now, one
     * series per holder ({@code owner}: a principal, {@code server}, {@code tiering}).
     */
    public void bindConnections(FlussConnections connections) {
        MultiGauge gauge = MultiGauge.builder("riffle.fluss.connections")
                .description("Fluss connections open, by who holds them: a principal's session, the server's own,"
                        + " the tiering service")
                .register(registry);
        beforeScrape = () -> gauge.register(connections.byOwner().entrySet().stream()
                .map(open -> MultiGauge.Row.of(io.micrometer.core.instrument.Tags.of("owner", open.getKey()),
                        open.getValue()))
                .toList(), true);
    }

    /** Counts one request taken on Jetty's selector thread ({@link InlineAnswerConnectionFactory}). */
    public void selectorRequest() {
        selectorRequests.increment();
    }

    /** Counts one request a connection answered itself ({@link DirectAnswerConnectionFactory}). */
    public void directRequest() {
        directRequests.increment();
    }

    /** Counts one request a handler began on the selector thread and handed to a pool thread. */
    public void handedOver() {
        handedOver.increment();
    }

    /** As {@link #handedOver}, for a lookup that found no room in Fluss's lookup queue. */
    public void handedOverForRoom() {
        handedOver.increment();
        handedOverForRoom.increment();
    }

    /** Counts one SQL point query answered without a SQL connection. */
    public void sqlKeyLookup() {
        sqlKeyLookups.increment();
    }

    /** Tells the metrics how many rows this request read or wrote. */
    public static void rows(Context ctx, String direction, long rows) {
        ctx.attribute(ROWS_ATTRIBUTE, rows);
        ctx.attribute(ROWS_DIRECTION_ATTRIBUTE, direction);
    }

    /** Tells the metrics how many lake data files this request's read opened. */
    public static void lakeFiles(Context ctx, long files) {
        ctx.attribute(LAKE_FILES_ATTRIBUTE, files);
    }

    /** Marks the request as failed with {@code code}. */
    public static void error(Context ctx, String code) {
        ctx.attribute(ERROR_CODE_ATTRIBUTE, code);
    }

    /** Whether the request has already failed (and been answered with the error envelope). */
    public static boolean hasError(Context ctx) {
        return ctx.attribute(ERROR_CODE_ATTRIBUTE) != null;
    }

    /** Records one finished request; called by Javalin's request logger. */
    public void record(Context ctx, float millis) {
        Long count = ctx.attribute(ROWS_ATTRIBUTE);
        String route = route(ctx);
        record(ctx.method().name(), route, ctx.statusCode(), ctx.attribute(ERROR_CODE_ATTRIBUTE),
                count == null ? -1 : count, ctx.attribute(ROWS_DIRECTION_ATTRIBUTE), (long) (millis * 1_000_000L));
        Long files = ctx.attribute(LAKE_FILES_ATTRIBUTE);
        if (files != null && files > 0) {
            lakeFiles.computeIfAbsent(new Tags(ctx.method().name(), route, "read"),
                            tags -> Counter.builder("riffle.gateway.lake.files")
                                    .description("Lake data files opened by reads, by route")
                                    .tags("method", tags.method(), "route", tags.route())
                                    .register(registry))
                    .increment(files);
        }
    }

    /**
     * Records one finished request that did not pass through Javalin.
     *
     * @param errorCode the error's code, or null when it succeeded
     * @param rowCount the rows it read or wrote, or -1 when it moved none
     * @param direction {@code "read"} or {@code "written"} when {@code rowCount} counts rows
     */
    public void record(String method, String route, int status, String errorCode, long rowCount, String direction,
            long nanos) {
        requests.computeIfAbsent(new Tags(method, route, Integer.toString(status)),
                        tags -> Timer.builder("riffle.gateway.requests")
                                .description("HTTP requests by route, method and status")
                                .tags("method", tags.method(), "route", tags.route(), "status", tags.value())
                                .register(registry))
                .record(nanos, TimeUnit.NANOSECONDS);
        if (errorCode != null) {
            errors.computeIfAbsent(new Tags(method, route, errorCode), tags -> Counter.builder("riffle.gateway.errors")
                            .description("Failed requests by route and error code")
                            .tags("method", tags.method(), "route", tags.route(), "code", tags.value())
                            .register(registry))
                    .increment();
        }
        if (rowCount >= 0) {
            rows.computeIfAbsent(new Tags(method, route, direction), tags -> Counter.builder("riffle.gateway.rows")
                            .description("Rows read from or written to Fluss by route")
                            .tags("method", tags.method(), "route", tags.route(), "direction", tags.value())
                            .register(registry))
                    .increment(rowCount);
        }
    }

    /** The Prometheus text exposition. */
    /** The registry itself, for other servers of the process to add their meters to. */
    public io.micrometer.core.instrument.MeterRegistry registry() {
        return registry;
    }

    public String scrape() {
        beforeScrape.run();
        return registry.scrape();
    }

    public void close() {
        registry.close();
    }

    private static String route(Context ctx) {
        try {
            String path = ctx.endpointHandlerPath();
            return path == null || path.isEmpty() || path.equals("*") ? "unmatched" : path;
        } catch (RuntimeException e) {
            return "unmatched";
        }
    }
}
