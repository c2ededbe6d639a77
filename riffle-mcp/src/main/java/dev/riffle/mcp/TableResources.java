package dev.riffle.mcp;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.riffle.mcp.tool.RiffleTool;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.RequestContext;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each table as an MCP resource, {@code riffle://DATABASE/TABLE}: reading one answers what
 * {@code describe_table} does, as JSON (columns, keys, buckets, offsets, lake). Any table can be
 * read through the template, as the caller; the listed ones are the tables the server's own
 * session sees, refreshed by the server (none with authentication, where only callers see tables).
 *
 * <pre>{@code
 * ReadResourceResult schema = resources.read(Optional.empty(), "riffle://shop/orders");
 * }</pre>
 */
public final class TableResources {
    /** The URI template every table's resource matches. */
    public static final String TEMPLATE = "riffle://{database}/{table}";
    /** The most tables listed as resources; the template reads any. */
    public static final int MAX_LISTED = 1000;

    private static final Pattern URI = Pattern.compile("riffle://([^/]+)/([^/]+)");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final McpToolbox toolbox;
    private final RiffleTool describe;

    public TableResources(McpToolbox toolbox) {
        this.toolbox = requireNonNull(toolbox, "toolbox is null");
        this.describe = toolbox.tools().stream().filter(tool -> tool.name().equals("describe_table")).findFirst()
                .orElseThrow();
    }

    public static String uri(String database, String table) {
        return "riffle://" + database + "/" + table;
    }

    /** The resource template, for {@code resources/templates/list}. */
    public McpSchema.ResourceTemplate template() {
        return new McpSchema.ResourceTemplate(TEMPLATE, "table", "A Fluss table",
                "A table's columns, keys, buckets, log offsets and lake snapshot", "application/json", null);
    }

    /** The resource of one table, for {@code resources/list}. */
    public McpSchema.Resource resource(String database, String table) {
        return McpSchema.Resource.builder()
                .uri(uri(database, table))
                .name(database + "." + table)
                .description("Schema, keys, offsets and lake snapshot of " + database + "." + table)
                .mimeType("application/json")
                .build();
    }

    /**
     * The tables the server's own session sees, at most {@link #MAX_LISTED}; empty with
     * authentication (a caller's tables are theirs to list, with {@code list_tables}).
     */
    public List<McpSchema.Resource> listed() {
        if (toolbox.sessions().authenticates()) {
            return List.of();
        }
        List<McpSchema.Resource> resources = new ArrayList<>();
        try (RequestContext request = toolbox.sessions().open(Optional.empty(), "mcp resources")) {
            List<String> databases = new ArrayList<>(request.await(request.admin().listDatabases(), "Listing databases"));
            databases.sort(null);
            for (String database : databases) {
                List<String> tables = new ArrayList<>(request.await(request.admin().listTables(database),
                        "Listing the tables of " + database));
                tables.sort(null);
                for (String table : tables) {
                    if (resources.size() == MAX_LISTED) {
                        return resources;
                    }
                    resources.add(resource(database, table));
                }
            }
        }
        return resources;
    }

    /**
     * Reads {@code uri} as {@code caller}.
     *
     * @throws IllegalArgumentException when {@code uri} names no table, or the table cannot be read
     */
    public McpSchema.ReadResourceResult read(Optional<Credentials> caller, String uri) {
        Matcher matcher = URI.matcher(requireNonNull(uri, "uri is null"));
        if (!matcher.matches()) {
            throw new IllegalArgumentException("Resource " + uri + " is not riffle://DATABASE/TABLE");
        }
        McpSchema.CallToolResult described = toolbox.call(describe, caller,
                Map.of("table", matcher.group(1) + "." + matcher.group(2)));
        if (Boolean.TRUE.equals(described.isError())) {
            throw new IllegalArgumentException(((McpSchema.TextContent) described.content().get(0)).text());
        }
        try {
            String json = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(described.structuredContent());
            return new McpSchema.ReadResourceResult(List.of(new McpSchema.TextResourceContents(uri,
                    "application/json", json)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
