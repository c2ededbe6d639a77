package dev.riffle.sql.dialect;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PostgreSQL's spellings that Calcite's Babel parser does not take, written as it takes them,
 * outside string literals, quoted identifiers and comments: {@code OPERATOR(pg_catalog.~)} is the
 * operator {@code ~}; {@code COLLATE pg_catalog.default} (or {@code "default"}, {@code "C"},
 * {@code "POSIX"}) is dropped, Riffle compares strings by code point as those collations do;
 * {@code E'...'} strings have their backslash escapes read into a standard literal;
 * {@code interval '1 day'} and {@code '2 hours'::interval} are Calcite's interval literals; words
 * Calcite reserves and PostgreSQL does not are quoted as column labels and after a qualifier
 * ({@code AS value}, {@code bench.rows}); and
 * {@code unnest(...)} in an expression (not a FROM clause) is the set-returning function
 * {@link SetReturningCalls} rewrites.
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
    private static final Pattern INTERVAL_BEFORE = Pattern.compile("(?i)(?<![\\w$.])interval\\s*$");
    private static final Pattern INTERVAL_CAST_AFTER = Pattern.compile("(?i)\\s*::\\s*interval\\b(?!\\s*\\()");
    private static final Pattern TOKEN = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*|[(),.]");
    /**
     * Words Calcite reserves that tools use as column labels ({@code AS default}, {@code AS user})
     * and as names after a qualifier ({@code bench.rows}, {@code e.value}).
     */
    private static final Set<String> RESERVED_LABELS = Set.of("default", "user", "value", "position",
            "start", "end", "result", "row", "rows", "range", "order", "group", "table", "column", "check", "language",
            "offset", "limit", "left", "right", "count", "min", "max", "sum", "avg", "first", "last", "key", "all",
            "case", "when", "then", "else", "both", "system", "schema", "current", "absolute", "method", "size",
            "update", "insert", "delete", "select", "role", "merge", "grant", "references", "trigger", "usage");
    /** Words that may follow FROM or a comma there and an opening parenthesis, yet are no function. */
    private static final Set<String> FROM_WORDS = Set.of("unnest", "table", "lateral", "select",
            "values", "only", "with", "json_table", "xmltable", "rows");
    private static final Pattern QUALIFIER = Pattern.compile("(?i)pg_catalog\\s*\\.\\s*$");
    /** EXPLAIN, then ANALYZE, VERBOSE or an option list, before the statement explained. */
    private static final Pattern EXPLAIN = Pattern.compile("(?is)\\s*(EXPLAIN)\\b(?!\\s+PLAN\\b)(\\s+ANALY[SZ]E\\b)?"
            + "(?:\\s+VERBOSE\\b)?\\s*(\\([^)]*\\))?\\s*(?=SELECT\\b|WITH\\b|VALUES\\b|TABLE\\b|INSERT\\b|UPDATE\\b"
            + "|DELETE\\b|\\()");
    /** ANALYZE in an EXPLAIN's option list, unless it is turned off. */
    private static final Pattern ANALYZE_OPTION = Pattern.compile(
            "(?i)\\bANALY[SZ]E\\b(?!\\s+(?:false|off|0)\\b)");

    private PostgresSyntax() {}

    /** {@code sql} as Babel's parser takes it. */
    public static String normalize(String sql) {
        List<Segment> segments = segments(explain(sql));
        StringBuilder out = new StringBuilder(sql.length());
        Clauses clauses = new Clauses();
        for (int s = 0; s < segments.size(); s++) {
            Segment segment = segments.get(s);
            switch (segment.kind()) {
                case PLAIN -> out.append(clauses.rewrite(rewritePlain(segment.text())));
                case ESCAPE_STRING -> out.append(standardLiteral(segment.text().substring(2,
                        Math.max(2, segment.text().length() - 1))));
                case STRING -> {
                    // interval '1 day' and '1 day'::interval: Calcite writes INTERVAL '1' DAY
                    boolean keywordBefore = s > 0 && segments.get(s - 1).kind() == Kind.PLAIN
                            && INTERVAL_BEFORE.matcher(segments.get(s - 1).text()).find();
                    Matcher castAfter = s + 1 < segments.size() && segments.get(s + 1).kind() == Kind.PLAIN
                            ? INTERVAL_CAST_AFTER.matcher(segments.get(s + 1).text()) : null;
                    boolean castToInterval = castAfter != null && castAfter.lookingAt();
                    Optional<String> interval = keywordBefore || castToInterval
                            ? PostgresIntervals.calcite(segment.text().substring(1, segment.text().length() - 1))
                            : Optional.empty();
                    if (interval.isEmpty()) {
                        out.append(segment.text());
                    } else if (keywordBefore) {
                        Matcher keyword = INTERVAL_BEFORE.matcher(out);
                        keyword.find();
                        out.setLength(keyword.start());
                        out.append(interval.get());
                    } else {
                        out.append(interval.get());
                        segments.set(s + 1, new Segment(Kind.PLAIN, segments.get(s + 1).text().substring(castAfter.end())));
                    }
                }
                default -> out.append(segment.text());
            }
            if (segment.kind() != Kind.PLAIN && !segment.text().startsWith("-") && !segment.text().startsWith("/")) {
                clauses.literal(); // a quoted name or a string, not a comment: it is the previous token
            }
        }
        return out.toString();
    }

    /**
     * PostgreSQL's {@code EXPLAIN [VERBOSE] [(options)] statement} as Calcite's
     * {@code EXPLAIN PLAN FOR statement}. {@code EXPLAIN ANALYZE} runs the statement to time it,
     * which Riffle's EXPLAIN does not: refused, not answered with a plan that looks like one.
     */
    static String explain(String sql) {
        Matcher explain = EXPLAIN.matcher(sql);
        if (!explain.lookingAt()) {
            return sql;
        }
        String options = explain.group(3) == null ? "" : explain.group(3);
        if (explain.group(2) != null || ANALYZE_OPTION.matcher(options).find()) {
            throw new UnsupportedOperationException("EXPLAIN ANALYZE is not supported: Riffle explains a statement"
                    + " without running it (EXPLAIN without ANALYZE)");
        }
        return sql.substring(0, explain.start(1)) + "EXPLAIN PLAN FOR " + sql.substring(explain.end());
    }

    private enum Kind { PLAIN, STRING, ESCAPE_STRING, OTHER }

    private record Segment(Kind kind, String text) {}

    /** The text cut where quoted strings, quoted identifiers and comments begin and end. */
    private static List<Segment> segments(String sql) {
        List<Segment> segments = new ArrayList<>();
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
            if (!plain.isEmpty()) {
                segments.add(new Segment(Kind.PLAIN, plain.toString()));
                plain.setLength(0);
            }
            Kind kind = escapeString ? Kind.ESCAPE_STRING : c == '\'' && end - i >= 2 && sql.charAt(end - 1) == '\''
                    ? Kind.STRING : Kind.OTHER;
            segments.add(new Segment(kind, sql.substring(i, end)));
            i = end;
        }
        if (!plain.isEmpty()) {
            segments.add(new Segment(Kind.PLAIN, plain.toString()));
        }
        return segments;
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

    /**
     * Which clause the text is in, at each depth of parentheses, to tell PostgreSQL's two
     * {@code unnest}s apart: in a FROM clause Calcite's {@code UNNEST} table; in an expression a
     * set-returning function, written {@code pg_unnest} (Calcite reserves the word) for
     * {@link SetReturningCalls}.
     */
    private static final class Clauses {
        private final Deque<String> clause = new ArrayDeque<>(List.of(""));
        /** Per open parenthesis: whether it closes a function call wrapped in TABLE(...). */
        private final Deque<Boolean> wrapped = new ArrayDeque<>();
        private boolean wrapNext;
        private String previous = "";

        /** A quoted identifier or a string literal came between two plain stretches. */
        void literal() {
            previous = "'";
        }

        String rewrite(String text) {
            StringBuilder out = new StringBuilder(text.length());
            Matcher token = TOKEN.matcher(text);
            int last = 0;
            while (token.find()) {
                String word = token.group().toLowerCase(Locale.ROOT);
                if (previous.equals("as") && RESERVED_LABELS.contains(word) && endsLabel(text, token.end())) {
                    // AS default: PostgreSQL takes any word as a column label, Calcite not its reserved ones
                    out.append(text, last, token.start()).append('"').append(word).append('"');
                    last = token.end();
                    previous = "\"";
                    continue;
                }
                if (previous.equals(".") && RESERVED_LABELS.contains(word)
                        && !text.startsWith("(", skipBlanks(text, token.end()))) {
                    // bench.rows, e.value: after a qualifier PostgreSQL reads any word as a name
                    out.append(text, last, token.start()).append('"').append(word).append('"');
                    last = token.end();
                    previous = "\"";
                    continue;
                }
                switch (word) {
                    case "(" -> {
                        clause.push("");
                        wrapped.push(wrapNext);
                        wrapNext = false;
                    }
                    case ")" -> {
                        if (clause.size() > 1) {
                            clause.pop();
                            if (wrapped.pop()) {
                                out.append(text, last, token.end()).append(')');
                                last = token.end();
                            }
                        }
                    }
                    case "select", "from", "where", "group", "having", "order", "limit", "on", "using", "join",
                            "lateral", "values", "set", "returning" -> {
                        clause.pop();
                        clause.push(word.equals("join") || word.equals("lateral") ? "from" : word);
                    }
                    default -> { }
                }
                if (clause.peek().equals("from") && !FROM_WORDS.contains(word) && Character.isLetter(word.charAt(0))
                        && (previous.equals("from") || previous.equals(",") || previous.equals("join")
                                || previous.equals("lateral"))
                        && text.startsWith("(", skipBlanks(text, token.end()))) {
                    // FROM generate_series(array_lower(a, 1), 3): Babel takes a function call with calls
                    // in its arguments in a FROM clause only as TABLE(...)
                    out.append(text, last, token.start()).append("TABLE(").append(token.group());
                    last = token.end();
                    wrapNext = true;
                    previous = word;
                    continue;
                }
                if (word.equals("unnest") && text.startsWith("(", skipBlanks(text, token.end()))) {
                    boolean table = clause.peek().equals("from") && (previous.equals("from") || previous.equals(",")
                            || previous.equals("join") || previous.equals("lateral") || previous.equals("."));
                    out.append(text, last, token.start());
                    if (!table) {
                        // pg_catalog.unnest(...) in an expression: the qualifier goes with the new name
                        int qualifier = out.length();
                        Matcher pgCatalog = QUALIFIER.matcher(out);
                        if (pgCatalog.find()) {
                            qualifier = pgCatalog.start();
                        }
                        out.setLength(qualifier);
                        out.append(SetReturningCalls.UNNEST);
                    } else {
                        Matcher pgCatalog = QUALIFIER.matcher(out);
                        if (pgCatalog.find()) {
                            out.setLength(pgCatalog.start());
                        }
                        out.append(token.group());
                    }
                    last = token.end();
                }
                previous = word;
            }
            out.append(text, last, text.length());
            return out.toString();
        }

        /** Whether a label ends at {@code i}: a comma, a closing parenthesis, FROM or the end follows. */
        private static boolean endsLabel(String text, int i) {
            int at = skipBlanks(text, i);
            return at >= text.length() || text.charAt(at) == ',' || text.charAt(at) == ')'
                    || text.regionMatches(true, at, "from", 0, 4) && (at + 4 >= text.length()
                            || !isIdentifierPart(text.charAt(at + 4)));
        }

        private static int skipBlanks(String text, int i) {
            while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
                i++;
            }
            return i;
        }
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
