package dev.riffle.pgwire.sql;

import dev.riffle.sql.dialect.PostgresLexer;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.copy.CopyOptions;
import dev.riffle.pgwire.error.PgException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A COPY statement Riffle serves: {@code COPY (query) TO STDOUT}, {@code COPY schema.table [(cols)]
 * TO STDOUT} and {@code COPY schema.table [(cols)] FROM STDIN}, with options in the current
 * spelling ({@code WITH (FORMAT csv, HEADER true, DELIMITER ';', NULL 'x')}) or the old one psql's
 * {@code \copy} passes on ({@code CSV HEADER}, {@code DELIMITER AS ';'}). Files on the server
 * ({@code TO '/path'}), PROGRAM, BINARY and WHERE are refused with 0A000; a malformed statement
 * is a 42601 naming what was expected.
 *
 * <pre>{@code
 * CopyCommand copy = CopyCommand.parse("COPY shop.orders (id, total) TO STDOUT WITH (FORMAT csv, HEADER)");
 * copy.in();                  // false
 * copy.source();              // Table[schema=shop, table=orders, columns=[id, total]]
 * }</pre>
 *
 * @param in true for FROM STDIN, false for TO STDOUT
 */
public record CopyCommand(Source source, boolean in, CopyOptions options) {
    public CopyCommand {
        requireNonNull(source, "source is null");
        requireNonNull(options, "options is null");
        if (in && !(source instanceof Source.Table)) {
            throw new PgException("42601", "COPY FROM takes a table, not a query");
        }
    }

    /** What is copied. */
    public sealed interface Source {
        /** A table, {@code schema.table}, and optionally the columns copied (empty: all, in table order). */
        record Table(Identifier schema, Identifier table, List<Identifier> columns) implements Source {
            public Table {
                requireNonNull(schema, "schema is null");
                requireNonNull(table, "table is null");
                columns = List.copyOf(columns);
            }

            /** The query that reads what COPY TO copies, with the names spelled as written. */
            public String selectSql() {
                String list = columns.isEmpty() ? "*" : String.join(", ", columns.stream().map(Identifier::sql).toList());
                return "SELECT " + list + " FROM " + schema.sql() + "." + table.sql();
            }

            @Override
            public String toString() {
                return "Table[schema=" + schema.name() + ", table=" + table.name() + ", columns="
                        + columns.stream().map(Identifier::name).toList() + "]";
            }
        }

        /** {@code (query)}: the query's text, without the parentheses. */
        record Query(String sql) implements Source {
            public Query {
                requireNonNull(sql, "sql is null");
            }
        }
    }

    /** A name as written: quoted names keep their case, unquoted ones are as typed. */
    public record Identifier(String name, boolean quoted) {
        public Identifier {
            requireNonNull(name, "name is null");
        }

        String sql() {
            return quoted ? "\"" + name.replace("\"", "\"\"") + "\"" : name;
        }
    }

    /** Whether {@code sql} is a COPY statement (to be parsed by {@link #parse}). */
    public static boolean isCopy(String sql) {
        String s = sql.strip();
        return s.length() >= 4 && s.regionMatches(true, 0, "COPY", 0, 4)
                && (s.length() == 4 || !Character.isLetterOrDigit(s.charAt(4)) && s.charAt(4) != '_');
    }

    /**
     * Parses a COPY statement.
     *
     * @throws PgException 42601 for a malformed statement, 0A000 for a form Riffle does not serve
     */
    public static CopyCommand parse(String sql) {
        return new Parser(sql).copy();
    }

    /** A token of the statement: a word, a quoted name, a string literal, or one punctuation character. */
    private record Token(Kind kind, String text, int start) {
        enum Kind { WORD, QUOTED_NAME, STRING, PUNCTUATION, END }

        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean isPunctuation(char c) {
            return kind == Kind.PUNCTUATION && text.charAt(0) == c;
        }
    }

    private static final class Parser {
        private final String sql;
        private int position;

        Parser(String sql) {
            this.sql = requireNonNull(sql, "sql is null");
        }

        CopyCommand copy() {
            expectWord("COPY");
            Source source;
            if (peek().isPunctuation('(')) {
                source = new Source.Query(parenthesized());
            } else {
                Identifier first = identifier("a table name");
                if (!peek().isPunctuation('.')) {
                    throw new PgException("42P01", "COPY needs a schema-qualified table (schema.table): Riffle has"
                            + " no default schema, got \"" + first.name() + "\"");
                }
                next();
                Identifier table = identifier("a table name after \"" + first.name() + ".\"");
                List<Identifier> columns = new ArrayList<>();
                if (peek().isPunctuation('(')) {
                    next();
                    do {
                        columns.add(identifier("a column name"));
                    } while (nextIfPunctuation(','));
                    expectPunctuation(')');
                }
                source = new Source.Table(first, table, columns);
            }
            Token direction = next();
            boolean in;
            if (direction.is("TO")) {
                in = false;
                endpoint("STDOUT", "TO");
            } else if (direction.is("FROM")) {
                in = true;
                endpoint("STDIN", "FROM");
            } else {
                throw syntax(direction, "TO or FROM");
            }
            CopyOptions options = options();
            if (peek().is("WHERE")) {
                throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve COPY FROM ... WHERE");
            }
            nextIfPunctuation(';');
            Token end = next();
            if (end.kind() != Token.Kind.END) {
                throw syntax(end, "the end of the statement");
            }
            return new CopyCommand(source, in, options);
        }

        private void endpoint(String expected, String direction) {
            Token target = next();
            if (target.is(expected)) {
                return;
            }
            if (target.kind() == Token.Kind.STRING || target.is("PROGRAM")) {
                throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve COPY " + direction
                        + " a file or program on the server: use COPY ... " + direction + " " + expected
                        + " (psql's \\copy reads and writes files on the client)");
            }
            throw syntax(target, expected);
        }

        private CopyOptions options() {
            String format = "text";
            Optional<Boolean> header = Optional.empty();
            Optional<Character> delimiter = Optional.empty();
            Optional<String> nullString = Optional.empty();
            Optional<Character> quote = Optional.empty();
            Optional<Character> escape = Optional.empty();
            nextIfWord("WITH");
            if (nextIfPunctuation('(')) {
                do {
                    Token name = next();
                    if (name.kind() != Token.Kind.WORD) {
                        throw syntax(name, "a COPY option name");
                    }
                    String option = name.text().toLowerCase(Locale.ROOT);
                    switch (option) {
                        case "format" -> format = word(next(), "a format name");
                        case "header" -> header = Optional.of(booleanOption(option));
                        case "delimiter" -> delimiter = Optional.of(character(option));
                        case "null" -> nullString = Optional.of(string(next(), "a NULL string"));
                        case "quote" -> quote = Optional.of(character(option));
                        case "escape" -> escape = Optional.of(character(option));
                        case "encoding" -> {
                            String encoding = string(next(), "an encoding name");
                            if (!encoding.replace("-", "").equalsIgnoreCase("UTF8")) {
                                throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle's COPY speaks UTF8"
                                        + " only, not " + encoding);
                            }
                        }
                        default -> throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve"
                                + " the COPY option " + option.toUpperCase(Locale.ROOT) + " (it serves FORMAT,"
                                + " HEADER, DELIMITER, NULL, QUOTE, ESCAPE and ENCODING 'UTF8')");
                    }
                } while (nextIfPunctuation(','));
                expectPunctuation(')');
            } else {
                // The old spelling: BINARY, DELIMITER [AS] 'c', NULL [AS] 's', CSV, HEADER, QUOTE [AS] 'c', ESCAPE [AS] 'c'.
                while (peek().kind() == Token.Kind.WORD && !peek().is("WHERE")) {
                    String option = next().text().toLowerCase(Locale.ROOT);
                    switch (option) {
                        case "csv" -> format = "csv";
                        case "binary" -> format = "binary";
                        case "header" -> header = Optional.of(true);
                        case "delimiter" -> {
                            nextIfWord("AS");
                            delimiter = Optional.of(character(option));
                        }
                        case "null" -> {
                            nextIfWord("AS");
                            nullString = Optional.of(string(next(), "a NULL string"));
                        }
                        case "quote" -> {
                            nextIfWord("AS");
                            quote = Optional.of(character(option));
                        }
                        case "escape" -> {
                            nextIfWord("AS");
                            escape = Optional.of(character(option));
                        }
                        default -> throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve"
                                + " the COPY option " + option.toUpperCase(Locale.ROOT));
                    }
                }
            }
            CopyOptions.Format chosen = switch (format.toLowerCase(Locale.ROOT)) {
                case "text" -> CopyOptions.Format.TEXT;
                case "csv" -> CopyOptions.Format.CSV;
                case "binary" -> throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve COPY"
                        + " in binary format; use FORMAT text or FORMAT csv");
                default -> throw new PgException("22023", "COPY format \"" + format + "\" not recognized");
            };
            if (chosen == CopyOptions.Format.TEXT && (quote.isPresent() || escape.isPresent())) {
                throw new PgException("0A000", "COPY QUOTE and ESCAPE are available only in CSV mode");
            }
            CopyOptions defaults = CopyOptions.defaults(chosen);
            char quoteChar = quote.orElse(defaults.quote());
            return new CopyOptions(chosen, header.orElse(false), delimiter.orElse(defaults.delimiter()),
                    nullString.orElse(defaults.nullString()), quoteChar, escape.orElse(quoteChar));
        }

        private boolean booleanOption(String option) {
            Token value = peek();
            if (value.kind() == Token.Kind.WORD || value.kind() == Token.Kind.STRING) {
                String text = next().text().toLowerCase(Locale.ROOT);
                return switch (text) {
                    case "true", "on", "1" -> true;
                    case "false", "off", "0" -> false;
                    case "match" -> throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve"
                            + " COPY HEADER MATCH");
                    default -> throw new PgException("22023", option + " requires a Boolean value, got " + text);
                };
            }
            return true; // HEADER alone
        }

        private char character(String option) {
            String value = string(next(), "a one-character string for " + option.toUpperCase(Locale.ROOT));
            // one byte, as PostgreSQL: COPY's lines are scanned byte by byte
            if (value.length() != 1 || value.charAt(0) > 0x7f) {
                throw new PgException("22023", "COPY " + option + " must be a single one-byte character, got \""
                        + value + "\"");
            }
            return value.charAt(0);
        }

        private static String string(Token token, String what) {
            if (token.kind() != Token.Kind.STRING) {
                throw syntax(token, what + " in quotes");
            }
            return token.text();
        }

        private static String word(Token token, String what) {
            if (token.kind() != Token.Kind.WORD && token.kind() != Token.Kind.STRING) {
                throw syntax(token, what);
            }
            return token.text();
        }

        private Identifier identifier(String what) {
            Token token = next();
            if (token.kind() == Token.Kind.QUOTED_NAME) {
                return new Identifier(token.text(), true);
            }
            if (token.kind() == Token.Kind.WORD) {
                return new Identifier(token.text(), false);
            }
            throw syntax(token, what);
        }

        /** The text inside the parentheses that start here (quotes, comments and nested parentheses skipped). */
        private String parenthesized() {
            skipSpace();
            int open = position;
            int depth = 0;
            int i = position;
            while (i < sql.length()) {
                int skipped = PostgresLexer.skipQuotedOrComment(sql, i);
                if (skipped != i) {
                    i = skipped;
                    continue;
                }
                char c = sql.charAt(i);
                if (c == '(') {
                    depth++;
                } else if (c == ')' && --depth == 0) {
                    position = i + 1;
                    return sql.substring(open + 1, i).strip();
                }
                i++;
            }
            throw new PgException("42601", "syntax error in COPY: the query in parentheses is not closed");
        }

        private void expectWord(String word) {
            Token token = next();
            if (!token.is(word)) {
                throw syntax(token, word);
            }
        }

        private void expectPunctuation(char c) {
            Token token = next();
            if (!token.isPunctuation(c)) {
                throw syntax(token, "\"" + c + "\"");
            }
        }

        private boolean nextIfPunctuation(char c) {
            if (peek().isPunctuation(c)) {
                next();
                return true;
            }
            return false;
        }

        private boolean nextIfWord(String word) {
            if (peek().is(word)) {
                next();
                return true;
            }
            return false;
        }

        private static PgException syntax(Token token, String expected) {
            String found = token.kind() == Token.Kind.END ? "the end of the statement" : "\"" + token.text() + "\"";
            return new PgException("42601", "syntax error in COPY at " + found + ": expected " + expected);
        }

        private Token peek() {
            int saved = position;
            Token token = next();
            position = saved;
            return token;
        }

        private void skipSpace() {
            while (position < sql.length()) {
                if (Character.isWhitespace(sql.charAt(position))) {
                    position++;
                    continue;
                }
                char c = sql.charAt(position);
                boolean comment = (c == '-' || c == '/') && PostgresLexer.skipQuotedOrComment(sql, position) != position;
                if (!comment) {
                    return;
                }
                position = PostgresLexer.skipQuotedOrComment(sql, position);
            }
        }

        private Token next() {
            skipSpace();
            if (position >= sql.length()) {
                return new Token(Token.Kind.END, "", position);
            }
            int start = position;
            char c = sql.charAt(position);
            if (c == '"') {
                int end = PostgresLexer.skipQuotedOrComment(sql, position);
                if (end > sql.length() || sql.charAt(end - 1) != '"' || end - start < 2) {
                    throw new PgException("42601", "syntax error in COPY: unterminated quoted identifier");
                }
                position = end;
                return new Token(Token.Kind.QUOTED_NAME, sql.substring(start + 1, end - 1).replace("\"\"", "\""), start);
            }
            boolean escaped = (c == 'E' || c == 'e') && position + 1 < sql.length() && sql.charAt(position + 1) == '\'';
            if (c == '\'' || escaped) {
                int open = escaped ? position + 1 : position;
                int end = PostgresLexer.skipQuotedOrComment(sql, open);
                if (end - open < 2 || sql.charAt(end - 1) != '\'') {
                    throw new PgException("42601", "syntax error in COPY: unterminated quoted string");
                }
                position = end;
                String body = sql.substring(open + 1, end - 1).replace("''", "'");
                return new Token(Token.Kind.STRING, escaped ? unescape(body) : body, start);
            }
            if (Character.isLetterOrDigit(c) || c == '_') {
                while (position < sql.length() && (Character.isLetterOrDigit(sql.charAt(position))
                        || sql.charAt(position) == '_' || sql.charAt(position) == '$')) {
                    position++;
                }
                return new Token(Token.Kind.WORD, sql.substring(start, position), start);
            }
            position++;
            return new Token(Token.Kind.PUNCTUATION, String.valueOf(c), start);
        }

        /** An E'...' string's backslash escapes (the ones a delimiter or NULL string would use). */
        private static String unescape(String body) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < body.length(); i++) {
                char c = body.charAt(i);
                if (c != '\\' || i + 1 == body.length()) {
                    text.append(c);
                    continue;
                }
                char e = body.charAt(++i);
                text.append(switch (e) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    default -> e;
                });
            }
            return text.toString();
        }
    }
}
