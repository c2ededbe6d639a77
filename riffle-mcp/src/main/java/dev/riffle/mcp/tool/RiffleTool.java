package dev.riffle.mcp.tool;

/**
 * One MCP tool over Riffle: its name, what it does (the model reads this to choose it), the JSON
 * schema of its input, and the call itself. A call throws what went wrong; the server turns that
 * into a tool error with the SQL layer's or Fluss's message.
 *
 * <pre>{@code
 * ToolAnswer answer = new SampleTool().call(call);   // {"table": "shop.orders", "limit": 5}
 * }</pre>
 */
public interface RiffleTool {
    String name();

    String description();

    /** The JSON schema of the arguments, as text. */
    String inputSchema();

    /** Whether the tool only reads (true for every tool but {@code query} with writes allowed). */
    default boolean readOnly() {
        return true;
    }

    ToolAnswer call(ToolCall call) throws Exception;
}
