package dev.riffle.mcp;

import static java.util.Objects.requireNonNull;

import dev.riffle.mcp.tool.McpLimits;
import dev.riffle.server.ServerBuilder;
import dev.riffle.server.ServerRuntime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * {@code riffle mcp}: an MCP server over a process's stdin and stdout, for desktop agents that
 * start it as a process. It opens its own Fluss connection and serves until stdin ends.
 *
 * <pre>{@code
 * McpStdioServer.builder().bootstrapServers("127.0.0.1:9123").run(System.in, System.out);
 * }</pre>
 */
public final class McpStdioServer {
    private McpStdioServer() {}

    public static Builder builder() {
        return new Builder();
    }

    /** Settings of a stdio MCP server. */
    public static final class Builder extends ServerBuilder<Builder> {
        private McpLimits mcpLimits = McpLimits.DEFAULT;

        private Builder() {
            super("the MCP server", "mcp", 0);
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** What one call may answer and do (default {@link McpLimits#DEFAULT}: read-only). */
        public Builder mcpLimits(McpLimits limits) {
            this.mcpLimits = requireNonNull(limits, "limits is null");
            return this;
        }

        /**
         * Serves MCP over {@code in} and {@code out} until {@code in} ends, then closes the
         * connection. Nothing else may write to {@code out}: logs go to stderr.
         */
        public void run(InputStream in, OutputStream out) throws InterruptedException {
            try (ServerRuntime runtime = openRuntime();
                    RiffleMcpServer mcp = RiffleMcpServer.over(runtime.sessions(), mcpLimits,
                            new SimpleMeterRegistry())) {
                mcp.serveStdio(in, out).await();
            }
        }
    }
}
