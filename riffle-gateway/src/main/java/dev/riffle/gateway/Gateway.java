package dev.riffle.gateway;

import dev.riffle.gateway.http.Paths;
import dev.riffle.server.principal.Auth;

import static java.util.Objects.requireNonNull;

import dev.riffle.gateway.console.ConsoleMode;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.DirectAnswerConnectionFactory;
import dev.riffle.gateway.http.DirectRoute;
import dev.riffle.gateway.http.ErrorMapper;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.InlineAnswerConnectionFactory;
import dev.riffle.gateway.http.JettyErrors;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.http.Render;
import dev.riffle.gateway.http.RequestScope;
import dev.riffle.gateway.rows.LookupResource;
import dev.riffle.gateway.rows.PlainRowLookup;
import dev.riffle.mcp.McpHttpEndpoint;
import dev.riffle.mcp.RiffleMcpServer;
import dev.riffle.mcp.tool.McpLimits;
import dev.riffle.server.ServerBuilder;
import dev.riffle.server.ServerRuntime;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.session.Sessions;
import dev.riffle.sql.engine.SqlEngine;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import io.javalin.json.JavalinJackson;
import io.javalin.openapi.plugin.OpenApiPlugin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Riffle's HTTP gateway: a stateless REST API over a Fluss cluster. Metadata and DDL, writes
 * (JSON, NDJSON, Arrow IPC), point and prefix lookups, bounded scans that page by offsets, in JSON
 * or as Arrow IPC streams; plus {@code /health}, {@code /ready}, {@code /metrics} and
 * {@code /openapi.json}; and the web console at {@code /} ({@link Builder#console}). See
 * {@code docs/http-api.md} and {@code docs/console.md}.
 *
 * <pre>{@code
 * try (Gateway gateway = Gateway.start("127.0.0.1:9123", 8080)) {
 *     System.out.println("HTTP gateway at " + gateway.url());
 *     ...
 * }
 * }</pre>
 */
public final class Gateway implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Gateway.class);
    private static final Set<HandlerType> HTTP_METHODS = Set.of(HandlerType.GET, HandlerType.POST, HandlerType.PUT,
            HandlerType.PATCH, HandlerType.DELETE);

    private final Javalin app;
    private final ServerRuntime runtime;
    private final GatewayMetrics metrics;
    private final String url;
    private final List<String> routes;
    private final ConsoleMode console;
    private final RiffleMcpServer mcp;

    private Gateway(Javalin app, ServerRuntime runtime, GatewayMetrics metrics, String url, List<String> routes,
            ConsoleMode console, RiffleMcpServer mcp) {
        this.mcp = mcp;
        this.app = app;
        this.runtime = runtime;
        this.metrics = metrics;
        this.url = url;
        this.routes = routes;
        this.console = console;
    }

    /** A gateway on {@code port} (0: any free port) over the cluster at {@code bootstrapServers}. */
    public static Gateway start(String bootstrapServers, int port) {
        return builder().bootstrapServers(bootstrapServers).port(port).start();
    }

    /** A gateway over an existing connection, which it does not close. */
    public static Gateway start(Connection connection, int port) {
        return builder().connection(connection).port(port).start();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Where the gateway answers, e.g. {@code http://127.0.0.1:8080}. */
    public String url() {
        return url;
    }

    /** Where MCP's streamable HTTP transport answers ({@code url() + "/mcp"}); see {@code docs/mcp.md}. */
    public String mcpUrl() {
        return url + McpHttpEndpoint.PATH;
    }

    /** Where the web console answers ({@code url() + "/"}), unless it is {@link ConsoleMode#OFF}. */
    public Optional<String> consoleUrl() {
        return console == ConsoleMode.OFF ? Optional.empty() : Optional.of(url + "/");
    }

    /** How the web console is served. */
    public ConsoleMode console() {
        return console;
    }

    public int port() {
        return app.port();
    }

    /** Every route, as {@code "GET /v1/databases"}. */
    public List<String> routes() {
        return routes;
    }

    /** Arrow memory held by requests in flight (0 when idle). */
    public long arrowAllocatedBytes() {
        return runtime.allocator().getAllocatedMemory();
    }

    /** The JDBC URL that {@code POST /v1/sql} connects with ({@code jdbc:riffle://HOST:PORT}). */
    public String jdbcUrl() {
        return SqlEngine.jdbcUrl(runtime.connection().getConfiguration());
    }

    /** What the gateway's sessions hold and have let go of (sessions, table handles, connections). */
    /** The registry behind {@code /metrics}: other servers of the process (Flight SQL) add theirs to it. */
    public io.micrometer.core.instrument.MeterRegistry meterRegistry() {
        return metrics.registry();
    }

    /** The SQL statements running through the gateway now (and, when shared, the process's other surfaces). */
    public dev.riffle.server.statement.RunningStatements statements() {
        return runtime.statements();
    }

    public Sessions.Counts sessionCounts() {
        return runtime.sessions().counts();
    }

    /** How many principals have a session open (with {@link Auth#BASIC}; 0 otherwise). */
    public int openPrincipals() {
        return runtime.sessions().principals();
    }

    /**
     * Stops answering, then closes the sessions (every principal's too, with their SQL connections),
     * the Fluss connection (if the gateway opened it) and the Arrow allocator.
     */
    @Override
    public void close() throws Exception {
        try {
            app.stop();
            mcp.close();
            metrics.close();
        } finally {
            runtime.close(); // sessions, the connection if the gateway opened it, then the allocator
        }
    }

    /** Settings of a gateway; {@link #start()} opens the connection (unless given one) and the port. */
    public static final class Builder extends ServerBuilder<Builder> {
        private ConsoleMode console = ConsoleMode.ON;
        private Duration idleTimeout = Duration.ofSeconds(30);
        private McpLimits mcpLimits = McpLimits.DEFAULT;

        private Builder() {
            super("the gateway", "http", 8080);
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** The largest request body accepted (default 64 MiB); larger ones get 413. */
        public Builder maxBodyBytes(long bytes) {
            return limits(limits().withMaxBodyBytes(bytes));
        }

        /** How long one Fluss call (DDL, write, lookup) may take (default 60 s); then 504. */
        public Builder requestTimeout(Duration timeout) {
            return limits(limits().withRequestTimeout(requireNonNull(timeout, "timeout is null")));
        }

        /** How long one scan may take (default 5 min). */
        public Builder scanTimeout(Duration timeout) {
            return limits(limits().withScanTimeout(requireNonNull(timeout, "timeout is null")));
        }

        /** The most keys in one lookup or delete request (default 10,000). */
        public Builder maxKeys(int maxKeys) {
            return limits(limits().withMaxKeys(maxKeys));
        }

        /** The most buckets a table created through the gateway may have (default 1024); more is a 400. */
        public Builder maxBuckets(int maxBuckets) {
            if (maxBuckets < 1) {
                throw new IllegalArgumentException("maxBuckets must be at least 1, got " + maxBuckets);
            }
            return limits(limits().withMaxBuckets(maxBuckets));
        }

        /**
         * How long one SQL statement may run, from its start to its last row (default 5 min); then it
         * stops wherever it is and answers 504 {@code statement_timeout}.
         */
        public Builder statementTimeout(Duration timeout) {
            return limits(limits().withStatementTimeout(requireNonNull(timeout, "timeout is null")));
        }

        /** The longest SQL statement {@code /v1/sql} takes, in characters (default 65,536); longer is a 413 {@code sql_too_long}. */
        public Builder maxSqlLength(int characters) {
            if (characters < 1) {
                throw new IllegalArgumentException("maxSqlLength must be at least 1, got " + characters);
            }
            return limits(limits().withMaxSqlLength(characters));
        }

        /**
         * How long a connection may stay idle before the gateway closes it (default 30 s): with no
         * request arriving, or with an answer its client does not take (a client that stops
         * reading). A plain point lookup waiting for Fluss is not idle: its request timeout
         * ({@link #requestTimeout}) bounds that wait.
         */
        public Builder idleTimeout(Duration timeout) {
            requireNonNull(timeout, "timeout is null");
            // Jetty counts it in whole milliseconds, and 0 would mean no idle timeout at all.
            if (timeout.compareTo(Duration.ofMillis(1)) < 0) {
                throw new IllegalArgumentException("idleTimeout must be at least 1 ms, got " + timeout);
            }
            this.idleTimeout = timeout;
            return this;
        }

        /**
         * Whether the web console is served at {@code /} (default {@link ConsoleMode#ON}): the
         * console's page and files come from this jar and use only the public API;
         * {@link ConsoleMode#READ_ONLY} hides its writes, DDL and non-query SQL, {@link ConsoleMode#OFF}
         * leaves {@code /} an unknown route. See {@code docs/console.md}.
         */
        public Builder console(ConsoleMode console) {
            this.console = requireNonNull(console, "console is null");
            return this;
        }

        /**
         * What one MCP call at {@code /mcp} may answer and do (default {@link McpLimits#DEFAULT}:
         * 200 rows, 64 KiB, read-only SQL). See {@code docs/mcp.md}.
         */
        public Builder mcp(McpLimits limits) {
            this.mcpLimits = requireNonNull(limits, "limits is null");
            return this;
        }

        /**
         * Opens the connection (unless given one) and listens. With {@link Auth#BASIC} the
         * gateway's own connection serves only {@code /ready}, so give it credentials (or a
         * listener) that can reach the cluster.
         */
        public Gateway start() {
            ServerLimits limits = limits();
            ServerRuntime runtime = openRuntime();
            FlussConnection fluss = runtime.connection();
            Sessions sessions = runtime.sessions();
            GatewayMetrics metrics = new GatewayMetrics(runtime.allocator()::getAllocatedMemory);
            runtime.statements().bindTo(metrics.registry());
            metrics.bindConnections(runtime.connections());
            RiffleMcpServer mcp = RiffleMcpServer.over(sessions, mcpLimits, metrics.registry());
            try {
                QueuedThreadPool threads = new QueuedThreadPool(250, 8, 60_000);
                threads.setName("riffle-gateway-http");
                LookupResource lookups = new LookupResource(threads);
                PlainRowLookup rowLookup = new PlainRowLookup(lookups, sessions, metrics);
                RequestScope scope = new RequestScope(sessions);
                List<String> routes = Collections.synchronizedList(new ArrayList<>());
                Javalin app = Javalin.create(config -> {
                    config.showJavalinBanner = false;
                    config.jetty.threadPool = threads;
                    config.jetty.modifyServer(server -> server.setErrorHandler(new JettyErrors()));
                    config.jetty.addConnector((server, http) -> {
                        InlineAnswerConnectionFactory inline = new InlineAnswerConnectionFactory(http,
                                Routes.answeredInline(sessions), metrics::selectorRequest);
                        List<DirectRoute> direct = Routes.direct(rowLookup, sessions);
                        ServerConnector connector = direct.isEmpty() ? new ServerConnector(server, inline)
                                : new ServerConnector(server, new DirectAnswerConnectionFactory(inline, direct,
                                        metrics::directRequest), inline);
                        connector.setHost(host());
                        connector.setPort(port());
                        connector.setIdleTimeout(idleTimeout.toMillis());
                        return connector;
                    });
                    config.jetty.modifyServletContextHandler(context -> {
                        Routes.aheadOfJavalin(rowLookup, sessions, metrics, console, auth())
                                .forEach(context::insertHandler);
                        context.addServlet(new ServletHolder("mcp", mcp.httpEndpoint()), McpHttpEndpoint.PATH);
                    });
                    config.http.maxRequestSize = limits.maxBodyBytes();
                    config.http.prefer405over404 = true;
                    config.http.disableCompression();
                    config.jsonMapper(new JavalinJackson(Json.MAPPER, false));
                    config.requestLogger.http(metrics::record);
                    config.events.handlerAdded(handler -> {
                        if (HTTP_METHODS.contains(handler.getHttpMethod())) {
                            routes.add(handler.getHttpMethod() + " " + handler.getPath());
                        }
                    });
                    config.registerPlugin(new OpenApiPlugin(openapi -> openapi
                            .withDocumentationPath(Paths.OPENAPI)
                            .withDefinitionConfiguration((version, definition) -> definition.withInfo(info -> {
                                info.setTitle("Riffle HTTP gateway");
                                info.setVersion("v1");
                                info.setDescription("Metadata, writes, lookups and bounded scans over Apache Fluss, "
                                        + "in JSON or Arrow IPC.");
                            }))));
                });
                app.exception(Exception.class, Gateway::fail);
                app.error(404, ctx -> unanswered(ctx, 404, "route_not_found"));
                app.error(405, ctx -> unanswered(ctx, 405, "method_not_allowed"));
                app.before("/v1/*", scope::before);
                app.after("/v1/*", scope::after);
                Routes.register(app, fluss, metrics, lookups);
                app.start(host(), port());
                String shownHost = host().equals("0.0.0.0") || host().equals("::") ? "127.0.0.1" : host();
                String url = "http://" + shownHost + ":" + app.port();
                LOG.info("HTTP gateway at {} over Fluss {}", url, runtime.bootstrapServers());
                return new Gateway(app, runtime, metrics, url, List.copyOf(routes), console, mcp);
            } catch (RuntimeException e) {
                mcp.close();
                metrics.close();
                try {
                    runtime.close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw e;
            }
        }
    }

    /** The one exception handler: the error envelope, or, once the response has begun, a cut connection. */
    private static void fail(Exception e, Context ctx) {
        ApiException error = ErrorMapper.toApiException(e);
        GatewayMetrics.error(ctx, error.code());
        if (ctx.res().isCommitted()) {
            LOG.warn("{} {} failed after its response began; cutting the connection: {}", ctx.method(), ctx.path(),
                    error.getMessage());
            org.eclipse.jetty.server.Request.getBaseRequest(ctx.req()).getHttpChannel().abort(e);
            return;
        }
        ctx.res().resetBuffer();
        Render.error(ctx, error);
    }

    /** 404 and 405 that no handler answered (unknown route, wrong method) get the envelope too. */
    private static void unanswered(Context ctx, int status, String code) {
        if (GatewayMetrics.hasError(ctx)) {
            return; // a handler's own error, already rendered
        }
        String message = status == 404
                ? "No route " + ctx.method() + " " + ctx.path() + "; GET /openapi.json lists the routes"
                : "Method " + ctx.method() + " is not allowed on " + ctx.path();
        GatewayMetrics.error(ctx, code);
        ctx.res().resetBuffer();
        Render.error(ctx, new ApiException(status, code, message));
    }
}
