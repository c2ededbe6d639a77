package dev.riffle.cli.local;


import dev.riffle.cli.running.RunningGateways;
import dev.riffle.gateway.Gateway;
import dev.riffle.gateway.console.ConsoleMode;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.LocalService;
import dev.riffle.mcp.tool.McpLimits;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Starts the HTTP gateway with {@code riffle local}, on 127.0.0.1 port 8080 unless the options
 * say otherwise ({@code http.port}, {@code http.host}; port 0 picks a free one), with its web console
 * unless {@code console} says {@code read-only} or {@code off}.
 */
public final class GatewayLocalService implements LocalService {
    public static final String PORT_OPTION = "http.port";
    public static final String HOST_OPTION = "http.host";
    public static final String CONSOLE_OPTION = "console";
    public static final String MCP_ALLOW_WRITES_OPTION = "mcp.allow-writes";
    public static final String MCP_MAX_ROWS_OPTION = "mcp.max-rows";
    public static final String MCP_MAX_BYTES_OPTION = "mcp.max-bytes";
    public static final int DEFAULT_PORT = 8080;

    @Override
    public String name() {
        return "HTTP gateway";
    }

    @Override
    public Running start(LocalCluster cluster, Map<String, String> options) {
        return start(cluster, options, new Shared(Map.of()));
    }

    /** As {@link #start(LocalCluster, Map)}, counting its SQL statements with the other surfaces', under their limits. */
    @Override
    public Running start(LocalCluster cluster, Map<String, String> options, Shared shared) {
        int port = port(options.getOrDefault(PORT_OPTION, Integer.toString(DEFAULT_PORT)));
        Gateway.Builder builder = LocalSurfaces.serve(Gateway.builder(), cluster, shared)
                .host(options.getOrDefault(HOST_OPTION, "127.0.0.1"))
                .port(port)
                .console(ConsoleMode.parse(options.getOrDefault(CONSOLE_OPTION, ConsoleMode.ON.label())))
                .mcp(mcpLimits(options));
        Gateway gateway = builder.start();
        Map<String, String> addresses = new LinkedHashMap<>();
        addresses.put("HTTP gateway", gateway.url());
        addresses.put("MCP", gateway.mcpUrl() + (mcpLimits(options).writesAllowed() ? "   (writes allowed)"
                : "   (read-only)"));
        gateway.consoleUrl().ifPresent(url -> addresses.put("Web console", url
                + (gateway.console() == ConsoleMode.READ_ONLY ? "   (read-only)" : "")));
        // One-shot commands (riffle sql -e, read, tier --status) of this cluster answer through it.
        RunningGateways.Publication published = RunningGateways.atDefaultPlace().publish(cluster.bootstrapServers(),
                gateway.url());
        return new Running(addresses, () -> {
            try (gateway) {
                published.close();
            }
        });
    }

    private static McpLimits mcpLimits(Map<String, String> options) {
        McpLimits defaults = McpLimits.DEFAULT;
        return new McpLimits(number(options, MCP_MAX_ROWS_OPTION, defaults.maxRows()),
                number(options, MCP_MAX_BYTES_OPTION, defaults.maxBytes()),
                Boolean.parseBoolean(options.getOrDefault(MCP_ALLOW_WRITES_OPTION, "false")));
    }

    private static int number(Map<String, String> options, String option, int otherwise) {
        String value = options.get(option);
        if (value == null) {
            return otherwise;
        }
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number, got '" + value + "'");
        }
    }

    private static int port(String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PORT_OPTION + " must be a port number, got '" + value + "'");
        }
    }
}
