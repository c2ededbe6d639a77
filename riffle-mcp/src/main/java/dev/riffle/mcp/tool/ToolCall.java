package dev.riffle.mcp.tool;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.session.RequestContext;

/**
 * One call of a tool: the request it runs in (the caller's session, its allocator, its deadline),
 * its arguments, and the limits its answer keeps to.
 */
public record ToolCall(RequestContext request, ToolArguments arguments, McpLimits limits) {
    public ToolCall {
        requireNonNull(request, "request is null");
        requireNonNull(arguments, "arguments is null");
        requireNonNull(limits, "limits is null");
    }
}
