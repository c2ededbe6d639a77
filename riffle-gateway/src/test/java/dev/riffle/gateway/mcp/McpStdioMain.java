package dev.riffle.gateway.mcp;

import dev.riffle.mcp.McpStdioServer;
import dev.riffle.mcp.tool.McpLimits;

/**
 * A process serving MCP over its stdin and stdout, as {@code riffle mcp} does, for tests that
 * reach it through the SDK's stdio client: {@code BOOTSTRAP MAX_ROWS MAX_BYTES ALLOW_WRITES}.
 */
public final class McpStdioMain {
    private McpStdioMain() {}

    public static void main(String[] args) throws Exception {
        McpStdioServer.builder().bootstrapServers(args[0])
                .mcpLimits(new McpLimits(Integer.parseInt(args[1]), Integer.parseInt(args[2]),
                        Boolean.parseBoolean(args[3])))
                .run(System.in, System.out);
        System.exit(0);
    }
}
