package dev.riffle.cli.mcp;

import dev.riffle.cli.option.FlussClientOptions;
import dev.riffle.cli.option.McpOptions;
import dev.riffle.mcp.McpStdioServer;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code riffle mcp}: a Model Context Protocol server over stdin and stdout, for agents that start
 * it as a process (Claude Desktop, IDEs, ...). It serves until stdin ends; logs go to stderr and
 * the log file, never to stdout, which carries MCP's messages. See {@code docs/mcp.md}.
 */
@Command(name = "mcp", mixinStandardHelpOptions = true,
        description = "Serve the Model Context Protocol over stdin/stdout (for agents that start Riffle as a process).")
public final class McpCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9123",
            description = "Fluss bootstrap servers (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Mixin
    FlussClientOptions clientOptions = new FlussClientOptions();

    @Mixin
    McpOptions mcp = new McpOptions();

    @Override
    public Integer call() throws Exception {
        McpStdioServer.builder().clientConfig(clientOptions.clientConfig(bootstrapServers)).mcpLimits(mcp.limits(spec.commandLine()))
                .run(System.in, System.out);
        return 0;
    }
}
