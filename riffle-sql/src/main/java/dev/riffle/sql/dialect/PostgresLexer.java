package dev.riffle.sql.dialect;

/**
 * Where a PostgreSQL SQL text's quoted strings, quoted identifiers, dollar-quoted strings and
 * comments end, so that what reads the text ({@code ;} between statements, {@code $n}
 * placeholders, {@link PostgresSyntax}) looks only outside them. Nested block comments are
 * followed as PostgreSQL follows them.
 *
 * <pre>{@code
 * PostgresLexer.skipQuotedOrComment("'a;b' ;", 0)   // 5: just past the string
 * }</pre>
 */
public final class PostgresLexer {
    private PostgresLexer() {}

    /**
     * If a quoted or commented span starts at {@code i}, the index just past its end (the text's
     * length when it is not closed); otherwise {@code i}.
     */
    public static int skipQuotedOrComment(String sql, int i) {
        char c = sql.charAt(i);
        if (c == '\'' || c == '"') {
            int j = i + 1;
            while (j < sql.length()) {
                if (sql.charAt(j) == c) {
                    if (j + 1 < sql.length() && sql.charAt(j + 1) == c) {
                        j += 2; // a doubled quote stands for itself
                        continue;
                    }
                    return j + 1;
                }
                // E'...' strings escape with backslashes; a backslash before a quote does not end it.
                if (c == '\'' && sql.charAt(j) == '\\' && i > 0 && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e')) {
                    j += 2;
                    continue;
                }
                j++;
            }
            return sql.length();
        }
        if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
            int end = sql.indexOf('\n', i);
            return end < 0 ? sql.length() : end + 1;
        }
        if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
            int depth = 1;
            int j = i + 2;
            while (j < sql.length() && depth > 0) {
                if (sql.startsWith("/*", j)) {
                    depth++;
                    j += 2;
                } else if (sql.startsWith("*/", j)) {
                    depth--;
                    j += 2;
                } else {
                    j++;
                }
            }
            return j;
        }
        if (c == '$' && (i == 0 || !Character.isLetterOrDigit(sql.charAt(i - 1)) && sql.charAt(i - 1) != '_')) {
            int j = i + 1;
            while (j < sql.length() && (Character.isLetter(sql.charAt(j)) || sql.charAt(j) == '_'
                    || (j > i + 1 && Character.isDigit(sql.charAt(j))))) {
                j++;
            }
            if (j < sql.length() && sql.charAt(j) == '$') {
                String tag = sql.substring(i, j + 1);
                int end = sql.indexOf(tag, j + 1);
                return end < 0 ? sql.length() : end + tag.length();
            }
        }
        return i;
    }
}
