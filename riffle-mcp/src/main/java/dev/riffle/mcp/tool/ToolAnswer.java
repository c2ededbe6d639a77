package dev.riffle.mcp.tool;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * What a tool answers: compact text for the model to read, and the same facts as structured
 * content for programs.
 *
 * <pre>{@code
 * return new ToolAnswer("2 databases: fluss, shop", Map.of("databases", List.of("fluss", "shop")));
 * }</pre>
 */
public record ToolAnswer(String text, Map<String, Object> structured) {
    public ToolAnswer {
        requireNonNull(text, "text is null");
        requireNonNull(structured, "structured is null");
    }
}
