package dev.riffle.pgwire.catalog;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.session.PgException;
import java.util.Arrays;

/**
 * A name pattern a client sends to narrow a catalog query — psql's {@code \dt sh*.it?ms}, which psql
 * turns into the POSIX regular expression {@code ^(it.ms)$}, or a JDBC {@code LIKE} pattern such as
 * {@code it%} — as what it is: literal characters, <em>any one character</em> and <em>any run of
 * characters</em>. It is matched by a wildcard matcher that takes at most (name length × pattern
 * length) steps, never by a backtracking regular-expression engine, so a pattern a client chose
 * (say {@code *a*a*a*a*a*a*a*a*b}, or psql passing on {@code (a+)+b} as written) cannot make the
 * server work for seconds: from psql's regular expressions only the subset psql itself writes for its
 * wildcards is taken, and any other regular-expression operator is refused with {@code 0A000}.
 *
 * <pre>{@code
 * NamePattern.fromPsqlRegex("^(it.*)$").matches("items")   // true
 * NamePattern.like("i_ems").matches("items")               // true
 * }</pre>
 */
public final class NamePattern {
    /** The longest pattern taken (names in Fluss are far shorter); longer ones are refused with 54000. */
    public static final int MAX_LENGTH = 1_000;

    /** A token that matches any run of characters, the empty one included. */
    private static final int ANY_RUN = -1;
    /** A token that matches any one character. */
    private static final int ANY_ONE = -2;
    /** What psql leaves outside quotes as the user wrote it: regular-expression operators Riffle does not run. */
    private static final String REGEX_OPERATORS = "|*+?()[]{}^$";

    private final String source;
    /** Code points of literal characters, or {@link #ANY_RUN} / {@link #ANY_ONE}. */
    private final int[] tokens;

    private NamePattern(String source, int[] tokens) {
        this.source = source;
        this.tokens = tokens;
    }

    /**
     * The pattern of one of psql's name filters ({@code c.relname OPERATOR(pg_catalog.~) '^(...)$'}),
     * given as the regular expression psql wrote: {@code .*} is any run, {@code .} any one
     * character, a backslash makes the next character literal, and every other character is itself.
     *
     * @throws PgException 0A000 when the expression uses other regular-expression operators
     *     (psql passes a user's {@code +}, {@code |}, {@code (}, ... on unchanged), 54000 when it is
     *     longer than {@value #MAX_LENGTH} characters
     */
    public static NamePattern fromPsqlRegex(String regex) {
        requireNonNull(regex, "regex is null");
        checkLength(regex);
        if (!regex.startsWith("^(") || !regex.endsWith(")$") || regex.length() < 4) {
            throw unsupported(regex);
        }
        String body = regex.substring(2, regex.length() - 2);
        int[] tokens = new int[body.length()];
        int count = 0;
        for (int i = 0; i < body.length(); ) {
            int c = body.codePointAt(i);
            i += Character.charCount(c);
            if (c == '\\') {
                if (i >= body.length()) {
                    throw unsupported(regex);
                }
                int escaped = body.codePointAt(i);
                i += Character.charCount(escaped);
                tokens[count++] = escaped;
            } else if (c == '.') {
                if (i < body.length() && body.charAt(i) == '*') {
                    i++;
                    tokens[count++] = ANY_RUN;
                } else {
                    tokens[count++] = ANY_ONE;
                }
            } else if (REGEX_OPERATORS.indexOf(c) >= 0) {
                throw unsupported(regex);
            } else {
                tokens[count++] = c;
            }
        }
        return new NamePattern(regex, Arrays.copyOf(tokens, count));
    }

    /**
     * SQL's LIKE pattern (as JDBC's {@code DatabaseMetaData} methods take it): {@code %} any run,
     * {@code _} any one character, a backslash makes the next character literal.
     *
     * @throws PgException 54000 when it is longer than {@value #MAX_LENGTH} characters
     */
    public static NamePattern like(String pattern) {
        requireNonNull(pattern, "pattern is null");
        checkLength(pattern);
        int[] tokens = new int[pattern.length()];
        int count = 0;
        for (int i = 0; i < pattern.length(); ) {
            int c = pattern.codePointAt(i);
            i += Character.charCount(c);
            if (c == '\\' && i < pattern.length()) {
                int escaped = pattern.codePointAt(i);
                i += Character.charCount(escaped);
                tokens[count++] = escaped;
            } else {
                tokens[count++] = c == '%' ? ANY_RUN : c == '_' ? ANY_ONE : c;
            }
        }
        return new NamePattern(pattern, Arrays.copyOf(tokens, count));
    }

    /** A pattern that matches {@code name} and nothing else. */
    public static NamePattern exact(String name) {
        requireNonNull(name, "name is null");
        return new NamePattern(name, name.codePoints().toArray());
    }

    /**
     * Whether the whole of {@code name} matches. Greedy matching that, on a mismatch, only ever
     * returns to the last any-run token: a later any-run can take whatever an earlier one could,
     * so no other choice needs revisiting, and each step moves the name or that restart point on.
     */
    public boolean matches(String name) {
        int[] text = name.codePoints().toArray();
        int t = 0;
        int p = 0;
        int restart = -1; // the token after the last any-run seen
        int taken = 0; // where in the text that any-run's match ends for now
        while (t < text.length) {
            if (p < tokens.length && tokens[p] == ANY_RUN) {
                restart = ++p;
                taken = t;
            } else if (p < tokens.length && (tokens[p] == ANY_ONE || tokens[p] == text[t])) {
                p++;
                t++;
            } else if (restart >= 0) {
                p = restart;
                t = ++taken;
            } else {
                return false;
            }
        }
        while (p < tokens.length && tokens[p] == ANY_RUN) {
            p++;
        }
        return p == tokens.length;
    }

    private static void checkLength(String pattern) {
        if (pattern.length() > MAX_LENGTH) {
            throw new PgException("54000", "a name pattern of " + pattern.length() + " characters is longer than the"
                    + " " + MAX_LENGTH + " Riffle takes");
        }
    }

    private static PgException unsupported(String regex) {
        return new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle matches psql name patterns made of * (any"
                + " text), ? (any character) and plain or quoted characters; the pattern's regular expression " + regex
                + " uses other operators");
    }

    @Override
    public String toString() {
        return source;
    }
}
