package dev.riffle.mcp;

import dev.riffle.mcp.tool.McpLimits;
import dev.riffle.mcp.tool.RiffleTool;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.Sessions;
import io.micrometer.core.instrument.MeterRegistry;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpStatelessServerFeatures;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.http.HttpServlet;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Riffle's Model Context Protocol server: the tools of {@link McpToolbox}, each table as a
 * resource ({@link TableResources}), and the prompts of {@link McpPrompts}, over either transport:
 * streamable HTTP ({@link #httpEndpoint()}, mounted by the gateway at {@code /mcp}) or stdio
 * ({@link #serveStdio}, for agents that start {@code riffle mcp} as a process). See
 * {@code docs/mcp.md}.
 *
 * <pre>{@code
 * try (RiffleMcpServer mcp = RiffleMcpServer.over(sessions, McpLimits.DEFAULT, registry)) {
 *     mcp.serveStdio(System.in, System.out).await();
 * }
 * }</pre>
 */
public final class RiffleMcpServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RiffleMcpServer.class);
    /** How often the listed table resources follow the catalog. */
    static final long REFRESH_SECONDS = 5;
    /** The version the server tells clients: the jar's, or {@code dev} when run from classes. */
    private static final String VERSION = java.util.Optional.ofNullable(
            RiffleMcpServer.class.getPackage().getImplementationVersion()).orElse("dev");
    private static final String INSTRUCTIONS = "Riffle serves Apache Fluss tables (log and primary-key tables, "
            + "with history tiered into a Paimon lake). Start with list_databases and list_tables, describe_table "
            + "for columns and keys, then sample, lookup (by the full primary key), tail (newest changes) or query "
            + "(SQL; explain shows its access path). Every answer is capped in rows and bytes and says when it was cut.";

    private final McpToolbox toolbox;
    private final TableResources resources;
    private final McpJsonMapper json = new JacksonMcpJsonMapper(new com.fasterxml.jackson.databind.ObjectMapper());
    private final ScheduledExecutorService refresher;
    private final List<Runnable> closers = new ArrayList<>();
    private final List<ResourceList> resourceLists = new ArrayList<>();

    private RiffleMcpServer(McpToolbox toolbox) {
        this.toolbox = toolbox;
        this.resources = new TableResources(toolbox);
        this.refresher = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "riffle-mcp-resources");
            thread.setDaemon(true);
            return thread;
        });
        refresher.scheduleWithFixedDelay(this::refreshResources, 0, REFRESH_SECONDS, TimeUnit.SECONDS);
    }

    /** A server whose calls run in {@code sessions}, timed in {@code registry}. */
    public static RiffleMcpServer over(Sessions sessions, McpLimits limits, MeterRegistry registry) {
        return new RiffleMcpServer(new McpToolbox(sessions, limits, registry));
    }

    public McpToolbox toolbox() {
        return toolbox;
    }

    /**
     * The servlet of MCP's streamable HTTP transport, stateless, at {@link McpHttpEndpoint#PATH};
     * with authentication it asks every request for HTTP Basic credentials.
     */
    public synchronized HttpServlet httpEndpoint() {
        long maxBody = Math.min(Integer.MAX_VALUE, toolbox.sessions().limits().maxBodyBytes());
        HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
                .jsonMapper(json)
                .messageEndpoint(McpHttpEndpoint.PATH)
                .maxRequestSize((int) maxBody)
                .contextExtractor(request -> McpTransportContext.create(
                        Map.of(McpHttpEndpoint.CALLER, request.getAttribute(McpHttpEndpoint.CALLER) instanceof Optional<?> c
                                ? c : Optional.empty())))
                .build();
        McpServer.StatelessSyncSpecification spec = McpServer.sync(transport)
                .serverInfo("riffle", VERSION)
                .instructions(INSTRUCTIONS)
                .jsonMapper(json)
                .capabilities(capabilities());
        for (RiffleTool tool : toolbox.tools()) {
            spec.tools(new McpStatelessServerFeatures.SyncToolSpecification(toolbox.describe(tool, json),
                    (context, call) -> toolbox.call(tool, caller(context), call.arguments())));
        }
        spec.resourceTemplates(new McpStatelessServerFeatures.SyncResourceTemplateSpecification(resources.template(),
                (context, read) -> resources.read(caller(context), read.uri())));
        for (McpSchema.Prompt prompt : McpPrompts.all()) {
            spec.prompts(new McpStatelessServerFeatures.SyncPromptSpecification(prompt,
                    (context, get) -> McpPrompts.get(get.name(), get.arguments())));
        }
        McpStatelessSyncServer server = spec.build();
        closers.add(server::close);
        register(new ResourceList(
                resource -> server.addResource(new McpStatelessServerFeatures.SyncResourceSpecification(resource,
                        (context, read) -> resources.read(caller(context), read.uri()))),
                server::removeResource, () -> {}));
        return new McpHttpEndpoint(toolbox.sessions(), transport);
    }

    /**
     * Serves MCP over {@code in} and {@code out} (a process's stdin and stdout: nothing else may
     * write to {@code out}) until {@code in} ends. Calls run unauthenticated, in the server's own
     * session.
     */
    public synchronized StdioSession serveStdio(InputStream in, OutputStream out) {
        StdioSession session = new StdioSession(in);
        StdioServerTransportProvider transport = new StdioServerTransportProvider(json, session.input(), out);
        McpServer.SingleSessionSyncSpecification spec = McpServer.sync(transport);
        spec.serverInfo("riffle", VERSION)
                .instructions(INSTRUCTIONS)
                .jsonMapper(json)
                .capabilities(capabilities());
        for (RiffleTool tool : toolbox.tools()) {
            spec.tools(new McpServerFeatures.SyncToolSpecification(toolbox.describe(tool, json),
                    (exchange, call) -> toolbox.call(tool, Optional.empty(), call.arguments())));
        }
        spec.resourceTemplates(new McpServerFeatures.SyncResourceTemplateSpecification(resources.template(),
                (exchange, read) -> resources.read(Optional.empty(), read.uri())));
        for (McpSchema.Prompt prompt : McpPrompts.all()) {
            spec.prompts(new McpServerFeatures.SyncPromptSpecification(prompt,
                    (exchange, get) -> McpPrompts.get(get.name(), get.arguments())));
        }
        McpSyncServer server = spec.build();
        closers.add(server::close);
        register(new ResourceList(
                resource -> server.addResource(new McpServerFeatures.SyncResourceSpecification(resource,
                        (exchange, read) -> resources.read(Optional.empty(), read.uri()))),
                server::removeResource, server::notifyResourcesListChanged));
        return session;
    }

    /** Stops following the catalog and closes every server this one started. */
    @Override
    public synchronized void close() {
        refresher.shutdownNow();
        for (Runnable closer : closers) {
            try {
                closer.run();
            } catch (RuntimeException e) {
                LOG.warn("Closing an MCP server failed: {}", e.toString());
            }
        }
    }

    private static McpSchema.ServerCapabilities capabilities() {
        return McpSchema.ServerCapabilities.builder().tools(false).resources(false, true).prompts(false).build();
    }

    @SuppressWarnings("unchecked")
    private static Optional<Credentials> caller(McpTransportContext context) {
        Object caller = context.get(McpHttpEndpoint.CALLER);
        return caller instanceof Optional<?> given ? (Optional<Credentials>) given : Optional.empty();
    }

    private synchronized void register(ResourceList list) {
        resourceLists.add(list);
        refresher.execute(this::refreshResources);
    }

    private void refreshResources() {
        try {
            List<McpSchema.Resource> now = resources.listed();
            List<ResourceList> lists;
            synchronized (this) {
                lists = List.copyOf(resourceLists);
            }
            for (ResourceList list : lists) {
                list.follow(now);
            }
        } catch (RuntimeException e) {
            LOG.debug("Listing tables as MCP resources failed; the next refresh tries again: {}", e.toString());
        }
    }

    /** The resources one server lists, kept equal to the tables the catalog has. */
    private static final class ResourceList {
        private final Consumer<McpSchema.Resource> add;
        private final Consumer<String> remove;
        private final Runnable changed;
        private final Set<String> listed = new HashSet<>();
        private boolean first = true;

        ResourceList(Consumer<McpSchema.Resource> add, Consumer<String> remove, Runnable changed) {
            this.add = add;
            this.remove = remove;
            this.changed = changed;
        }

        void follow(List<McpSchema.Resource> now) {
            Set<String> uris = new HashSet<>();
            boolean different = false;
            for (McpSchema.Resource resource : now) {
                uris.add(resource.uri());
                if (listed.add(resource.uri())) {
                    add.accept(resource);
                    different = true;
                }
            }
            for (String gone : List.copyOf(listed)) {
                if (!uris.contains(gone)) {
                    remove.accept(gone);
                    listed.remove(gone);
                    different = true;
                }
            }
            // The first list is there before any client asks; telling a client that has not yet
            // initialized would break the protocol's order.
            boolean tell = different && !first;
            first = false;
            if (tell) {
                try {
                    changed.run();
                } catch (RuntimeException e) {
                    LOG.debug("Telling the client its resource list changed failed: {}", e.toString());
                }
            }
        }
    }
}
