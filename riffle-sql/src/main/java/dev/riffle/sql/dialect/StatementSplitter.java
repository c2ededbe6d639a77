package dev.riffle.sql.dialect;


import java.util.ArrayList;
import java.util.List;

/**
 * Cuts a simple-query message into its statements at each {@code ;} outside quotes, quoted
 * identifiers, dollar quotes and comments, as psql and PostgreSQL do. Statements that hold only
 * white space and comments are dropped; no statements at all is an empty query.
 *
 * <pre>{@code
 * StatementSplitter.split("SELECT 1; SELECT ';'")   // ["SELECT 1", "SELECT ';'"]
 * }</pre>
 */
public final class StatementSplitter {
    private StatementSplitter() {}

    public static List<String> split(String sql) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < sql.length()) {
            int skipped = PostgresLexer.skipQuotedOrComment(sql, i);
            if (skipped != i) {
                i = skipped;
                continue;
            }
            if (sql.charAt(i) == ';') {
                add(statements, sql.substring(start, i));
                start = i + 1;
            }
            i++;
        }
        add(statements, sql.substring(start));
        return statements;
    }

    private static void add(List<String> statements, String statement) {
        if (!isBlank(statement)) {
            statements.add(statement.strip());
        }
    }

    /** Whether {@code sql} holds nothing but white space and comments. */
    public static boolean isBlank(String sql) {
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if ((c == '-' && sql.startsWith("--", i)) || (c == '/' && sql.startsWith("/*", i))) {
                i = PostgresLexer.skipQuotedOrComment(sql, i);
                continue;
            }
            return false;
        }
        return true;
    }
}
