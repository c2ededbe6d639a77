package dev.riffle.pgwire.sql;

import java.util.Locale;

/**
 * The CommandComplete tag PostgreSQL gives a statement: {@code SELECT n}, {@code INSERT 0 n},
 * {@code UPDATE n}, {@code DELETE n}, and for DDL its leading keywords ({@code CREATE TABLE},
 * {@code DROP DATABASE}).
 *
 * <pre>{@code
 * CommandTags.updated("insert into t values (1)", 1)   // "INSERT 0 1"
 * }</pre>
 */
public final class CommandTags {
    private CommandTags() {}

    public static String rows(long count) {
        return "SELECT " + count;
    }

    /** The tag of a statement that changed {@code count} rows (DDL: 0). */
    public static String updated(String sql, long count) {
        String[] words = keywords(sql);
        if (words.length == 0) {
            return "OK";
        }
        String first = words[0];
        return switch (first) {
            case "INSERT", "UPSERT" -> "INSERT 0 " + count;
            case "UPDATE", "DELETE", "MERGE" -> first + " " + count;
            case "CREATE", "DROP", "ALTER" -> ddl(words);
            default -> first;
        };
    }

    private static String ddl(String[] words) {
        int i = 1;
        // CREATE OR REPLACE VIEW, CREATE TEMPORARY TABLE ...: the object is the first noun.
        while (i < words.length && (words[i].equals("OR") || words[i].equals("REPLACE") || words[i].equals("TEMPORARY")
                || words[i].equals("TEMP") || words[i].equals("UNLOGGED") || words[i].equals("UNIQUE"))) {
            i++;
        }
        if (i >= words.length) {
            return words[0];
        }
        String object = words[i];
        if (object.equals("MATERIALIZED") && i + 1 < words.length) {
            object = "MATERIALIZED " + words[i + 1];
        }
        return words[0] + " " + object;
    }

    private static String[] keywords(String sql) {
        String stripped = sql.strip().replaceAll("^(\\s*(--[^\\n]*\\n|/\\*.*?\\*/))*\\s*", "");
        String[] words = stripped.split("[\\s(]+", 6);
        for (int i = 0; i < words.length; i++) {
            words[i] = words[i].toUpperCase(Locale.ROOT);
        }
        return words.length == 1 && words[0].isEmpty() ? new String[0] : words;
    }
}
