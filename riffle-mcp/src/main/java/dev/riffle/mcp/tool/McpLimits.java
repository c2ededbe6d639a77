package dev.riffle.mcp.tool;

/**
 * How much one MCP call may answer and do: at most {@code maxRows} rows and {@code maxBytes} bytes
 * of text per answer (what is cut is said in the answer), and whether SQL may change anything.
 * Every call also runs under the server's request timeout ({@code ServerLimits}).
 *
 * <pre>{@code
 * McpLimits limits = McpLimits.DEFAULT.withMaxRows(50).withWritesAllowed(true);
 * }</pre>
 *
 * @param maxRows the most rows any answer carries (a tool's own {@code limit} may ask for fewer)
 * @param maxBytes the most bytes of text (UTF-8) the answer's table may take
 * @param writesAllowed whether {@code query} runs INSERT, UPDATE, DELETE and DDL (off by default)
 */
public record McpLimits(int maxRows, int maxBytes, boolean writesAllowed) {
    /** 200 rows, 64 KiB of text, read-only: what fits an agent's context without crowding it. */
    public static final McpLimits DEFAULT = new McpLimits(200, 64 * 1024, false);

    public McpLimits {
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows must be at least 1, got " + maxRows);
        }
        if (maxBytes < 256) {
            throw new IllegalArgumentException("maxBytes must be at least 256, got " + maxBytes);
        }
    }

    public McpLimits withMaxRows(int rows) {
        return new McpLimits(rows, maxBytes, writesAllowed);
    }

    public McpLimits withMaxBytes(int bytes) {
        return new McpLimits(maxRows, bytes, writesAllowed);
    }

    public McpLimits withWritesAllowed(boolean allowed) {
        return new McpLimits(maxRows, maxBytes, allowed);
    }
}
