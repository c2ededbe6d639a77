package dev.riffle.mcp;

import static java.util.Objects.requireNonNull;

import dev.riffle.mcp.tool.DescribeTableTool;
import dev.riffle.mcp.tool.ExplainTool;
import dev.riffle.mcp.tool.ListDatabasesTool;
import dev.riffle.mcp.tool.ListTablesTool;
import dev.riffle.mcp.tool.LookupTool;
import dev.riffle.mcp.tool.McpLimits;
import dev.riffle.mcp.tool.QueryTool;
import dev.riffle.mcp.tool.RiffleTool;
import dev.riffle.mcp.tool.SampleTool;
import dev.riffle.mcp.tool.TailTool;
import dev.riffle.mcp.tool.ToolAnswer;
import dev.riffle.mcp.tool.ToolArguments;
import dev.riffle.mcp.tool.ToolCall;
import dev.riffle.server.failure.Failures;
import dev.riffle.server.failure.SqlFailures;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.Sessions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.modelcontextprotocol.spec.McpSchema;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Riffle's MCP tools for whichever transport received the call: each call in the caller's
 * session ({@link Sessions}: the shared one, or the caller's own with authentication, so Fluss's
 * ACLs decide), under the server's request timeout, its answer within {@link McpLimits}. What goes
 * wrong becomes a tool error whose text is {@code [code] message} with the SQL layer's or Fluss's
 * message, never a stack trace. Every call is timed in {@code riffle_mcp_tool_calls_seconds}
 * by tool and outcome.
 *
 * <pre>{@code
 * McpToolbox tools = new McpToolbox(sessions, McpLimits.DEFAULT, registry);
 * CallToolResult result = tools.call("sample", Optional.empty(), Map.of("table", "shop.orders"));
 * }</pre>
 */
public final class McpToolbox {
    private static final Logger LOG = LoggerFactory.getLogger(McpToolbox.class);

    private final Sessions sessions;
    private final McpLimits limits;
    private final MeterRegistry registry;
    private final List<RiffleTool> tools;

    public McpToolbox(Sessions sessions, McpLimits limits, MeterRegistry registry) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.registry = requireNonNull(registry, "registry is null");
        this.tools = List.of(new ListDatabasesTool(), new ListTablesTool(), new DescribeTableTool(),
                new QueryTool(limits.writesAllowed()), new ExplainTool(), new LookupTool(), new TailTool(),
                new SampleTool());
    }

    public List<RiffleTool> tools() {
        return tools;
    }

    public McpLimits limits() {
        return limits;
    }

    public Sessions sessions() {
        return sessions;
    }

    /** The MCP description of {@code tool}. */
    public McpSchema.Tool describe(RiffleTool tool, io.modelcontextprotocol.json.McpJsonMapper json) {
        return McpSchema.Tool.builder()
                .name(tool.name())
                .description(tool.description())
                .inputSchema(json, tool.inputSchema())
                .annotations(new McpSchema.ToolAnnotations(null, tool.readOnly(), !tool.readOnly(), false, false,
                        null))
                .build();
    }

    /** Runs {@code tool} as {@code caller} (empty: unauthenticated) with {@code arguments}. */
    public McpSchema.CallToolResult call(RiffleTool tool, Optional<Credentials> caller, Map<String, Object> arguments) {
        Timer.Sample timer = Timer.start(registry);
        String outcome = "error";
        try {
            ToolArguments args = new ToolArguments(tool.name(), arguments);
            try (RequestContext request = sessions.open(caller, "mcp " + tool.name())) {
                request.limitTime(sessions.limits().requestTimeout());
                ToolAnswer answer = tool.call(new ToolCall(request, args, limits));
                outcome = "ok";
                return McpSchema.CallToolResult.builder()
                        .addTextContent(answer.text())
                        .structuredContent(answer.structured())
                        .isError(false)
                        .build();
            }
        } catch (Exception e) {
            Failures.Failure failure = e instanceof SQLException sql
                    ? SqlFailures.classify(sql, String.valueOf(arguments == null ? "" : arguments.getOrDefault("sql", "")))
                    : Failures.classify(e);
            LOG.debug("MCP tool {} failed: {} {}", tool.name(), failure.code(), failure.message());
            return McpSchema.CallToolResult.builder()
                    .addTextContent("[" + failure.code() + "] " + failure.message())
                    .structuredContent(Map.of("error", Map.of("code", failure.code(), "kind",
                            failure.kind().name().toLowerCase(java.util.Locale.ROOT), "message", failure.message())))
                    .isError(true)
                    .build();
        } finally {
            timer.stop(Timer.builder("riffle.mcp.tool.calls")
                    .description("MCP tool calls, by tool and outcome (ok or error)")
                    .tags("tool", tool.name(), "outcome", outcome)
                    .register(registry));
        }
    }
}
