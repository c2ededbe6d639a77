package dev.riffle.sql.dialect;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's spellings that Calcite's Babel parser does not take, written as it takes them,
 * outside string literals, quoted identifiers and comments: {@code OPERATOR(pg_catalog.~)} is the
 * operator {@code ~}; {@code COLLATE pg_catalog.default} (or {@code "default"}, {@code "C"},
 * {@code "POSIX"}) is dropped, Riffle compares strings by code point as those collations do; and
 * {@code E'...'} strings have their backslash escapes read into a standard literal.
 *
 * <pre>{@code
 * PostgresSyntax.normalize("WHERE c.relname OPERATOR(pg_catalog.~) '^(t)$' COLLATE pg_catalog.default")
 *     // "WHERE c.relname ~ '^(t)$'"
 * }</pre>
 */
public final class PostgresSyntax {
    private static final Pattern OPERATOR = Pattern.compile(
            "(?i)OPERATOR\\s*\\(\\s*(?:pg_catalog\\s*\\.\\s*)?([~!<>=+\\-*/%^&|#@]+)\\s*\\)");
    private static final Pattern COLLATE = Pattern.compile(
            "(?i)\\s*COLLATE\\s+(?:pg_catalog\\s*\\.\\s*)?(?:default|\"default\"|\"C\"|\"POSIX\"|C|POSIX|ucs_basic)\\b");

    private PostgresSyntax() {}

    /** {@code sql} as Babel's parser takes it. */
    public static String normalize(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        StringBuilder plain = new StringBuilder();
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            boolean escapeString = (c == 'E' || c == 'e') && i + 1 < sql.length() && sql.charAt(i + 1) == '\''
                    && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)));
            int end = escapeString ? PostgresLexer.skipQuotedOrComment(sql, i + 1)
                    : PostgresLexer.skipQuotedOrComment(sql, i);
            if (end == i) {
                plain.append(c);
                i++;
                continue;
            }
            out.append(rewritePlain(plain.toString()));
            plain.setLength(0);
            if (escapeString) {
                out.append(standardLiteral(sql.substring(i + 2, Math.max(i + 2, end - 1))));
            } else {
                out.append(sql, i, end);
            }
            i = end;
        }
        out.append(rewritePlain(plain.toString()));
        return out.toString();
    }

    private static String rewritePlain(String text) {
        if (text.isEmpty()) {
            return text;
        }
        Matcher operator = OPERATOR.matcher(text);
        String rewritten = operator.find() ? operator.replaceAll(" $1 ") : text;
        Matcher collate = COLLATE.matcher(rewritten);
        return collate.find() ? collate.replaceAll("") : rewritten;
    }

    private static boolean isIdentifierPart(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    /** The body of an {@code E'...'} string, its escapes read, as a standard quoted literal. */
    static String standardLiteral(String body) {
        StringBuilder value = new StringBuilder(body.length());
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\'' && i + 1 < body.length() && body.charAt(i + 1) == '\'') {
                value.append('\'');
                i++;
                continue;
            }
            if (c != '\\' || i + 1 >= body.length()) {
                value.append(c);
                continue;
            }
            char next = body.charAt(++i);
            switch (next) {
                case 'n' -> value.append('\n');
                case 't' -> value.append('\t');
                case 'r' -> value.append('\r');
                case 'b' -> value.append('\b');
                case 'f' -> value.append('\f');
                case 'x' -> {
                    int j = i + 1;
                    while (j < body.length() && j < i + 3 && Character.digit(body.charAt(j), 16) >= 0) {
                        j++;
                    }
                    if (j == i + 1) {
                        value.append('x');
                    } else {
                        value.append((char) Integer.parseInt(body.substring(i + 1, j), 16));
                        i = j - 1;
                    }
                }
                case 'u', 'U' -> {
                    int digits = next == 'u' ? 4 : 8;
                    if (i + digits < body.length()) {
                        value.appendCodePoint(Integer.parseInt(body.substring(i + 1, i + 1 + digits), 16));
                        i += digits;
                    } else {
                        value.append(next);
                    }
                }
                default -> {
                    if (next >= '0' && next <= '7') {
                        int j = i;
                        while (j < body.length() && j < i + 3 && body.charAt(j) >= '0' && body.charAt(j) <= '7') {
                            j++;
                        }
                        value.append((char) Integer.parseInt(body.substring(i, j), 8));
                        i = j - 1;
                    } else {
                        value.append(next); // \\, \', and any other character stands for itself
                    }
                }
            }
        }
        return "'" + value.toString().replace("'", "''") + "'";
    }
}
