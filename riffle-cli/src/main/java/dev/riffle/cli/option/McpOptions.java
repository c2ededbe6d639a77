package dev.riffle.cli.option;

import dev.riffle.mcp.tool.McpLimits;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code --mcp-allow-writes}, {@code --mcp-max-rows} and {@code --mcp-max-bytes}, shared by
 * {@code riffle mcp}, {@code riffle local} and {@code riffle serve} (a picocli mixin): what one MCP
 * tool call may answer and do.
 */
public final class McpOptions {
    @Option(names = "--mcp-allow-writes",
            description = "Let MCP's query tool run INSERT, UPDATE, DELETE and DDL (default: queries only).")
    boolean allowWrites;

    @Option(names = "--mcp-max-rows", paramLabel = "N", defaultValue = "200",
            description = "The most rows one MCP answer carries (default: ${DEFAULT-VALUE}).")
    int maxRows;

    @Option(names = "--mcp-max-bytes", paramLabel = "N", defaultValue = "65536",
            description = "The most bytes of text one MCP answer's rows take (default: ${DEFAULT-VALUE}).")
    int maxBytes;

    /** The limits these options give, or a usage error naming the option that is out of range. */
    public McpLimits limits(CommandLine commandLine) {
        try {
            return new McpLimits(maxRows, maxBytes, allowWrites);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(commandLine, "--mcp-max-" + (maxRows < 1 ? "rows" : "bytes")
                    + ": " + e.getMessage());
        }
    }
}
