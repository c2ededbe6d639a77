package dev.riffle.mcp;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;

/**
 * The prompts the server offers: {@code explore_table} (what a table holds and how it moves) and
 * {@code write_query} (a SQL query for a question, checked with {@code explain} before it runs).
 *
 * <pre>{@code
 * GetPromptResult prompt = McpPrompts.get("explore_table", Map.of("table", "shop.orders"));
 * }</pre>
 */
public final class McpPrompts {
    private McpPrompts() {}

    public static List<McpSchema.Prompt> all() {
        return List.of(
                new McpSchema.Prompt("explore_table", "Explore a table",
                        "Find out what a Fluss table holds, how it is keyed and how it changes",
                        List.of(new McpSchema.PromptArgument("table", "database.table", true))),
                new McpSchema.Prompt("write_query", "Write a query",
                        "Write and check a SQL query that answers a question about the data",
                        List.of(new McpSchema.PromptArgument("question", "What to find out", true),
                                new McpSchema.PromptArgument("database", "The database to look in", false))));
    }

    /**
     * @throws IllegalArgumentException for an unknown prompt or a missing required argument
     */
    public static McpSchema.GetPromptResult get(String name, Map<String, Object> arguments) {
        Map<String, Object> args = arguments == null ? Map.of() : arguments;
        return switch (name) {
            case "explore_table" -> {
                String table = required(name, args, "table");
                yield result("Explore " + table, "Explore the Fluss table " + table + ". Call describe_table for its "
                        + "columns, keys, buckets, offsets and lake snapshot; sample for a few rows; tail for its newest "
                        + "changes. Then summarise what the table holds, what identifies a row, how fast it changes, "
                        + "and whether it is tiered into the lake.");
            }
            case "write_query" -> {
                String question = required(name, args, "question");
                Object database = args.get("database");
                String where = database == null || database.toString().isBlank()
                        ? "Call list_databases and list_tables to find the tables that hold the answer"
                        : "Call list_tables for the database " + database + " to find the tables that hold the answer";
                yield result("A query for: " + question, "Write one SQL query that answers: " + question + "\n"
                        + where + ", and describe_table for their columns. Name tables as database.table. Check the "
                        + "query with explain (a filter on the full primary key reads by lookup; prefer it), then run "
                        + "it with query and answer from its rows; say so if the rows were cut.");
            }
            default -> throw new IllegalArgumentException("No prompt " + name + "; the prompts are explore_table and "
                    + "write_query");
        };
    }

    private static String required(String prompt, Map<String, Object> args, String name) {
        Object value = args.get(name);
        if (value == null || value.toString().isBlank()) {
            throw new IllegalArgumentException("Prompt " + prompt + " needs the argument '" + name + "'");
        }
        return value.toString();
    }

    private static McpSchema.GetPromptResult result(String description, String text) {
        return new McpSchema.GetPromptResult(description,
                List.of(new McpSchema.PromptMessage(McpSchema.Role.USER, new McpSchema.TextContent(text))));
    }
}
