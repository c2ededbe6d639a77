package dev.riffle.sql.engine;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.dialect.Dialect;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.metadata.TablePath;

/**
 * An {@code INSERT INTO [db.]t [(a, b, ...)] VALUES (...), ...} whose values are all parameters
 * or plain literals (strings, numbers, {@code NULL}, {@code TRUE}/{@code FALSE}): what drivers send
 * to load many rows (JDBC batches, ADBC's bulk ingest through Flight SQL, psycopg's
 * {@code executemany}, pandas' {@code to_sql}). Such a statement is a write of its rows to the table,
 * which a surface can do straight from the values it was sent instead of planning one statement per
 * row. Anything else in the statement (an expression, a typed literal, a cast, a sub-query, a
 * {@code RETURNING}) is not matched, and the statement runs as any other.
 *
 * <pre>{@code
 * InsertValues.match("INSERT INTO shop.orders (id, amount) VALUES (?, ?)")
 *     .ifPresent(insert -> ...);   // shop.orders, columns [id, amount], 2 parameters
 * InsertValues.parse("INSERT INTO orders VALUES (1, 'a'), (2, NULL)", Dialect.POSTGRESQL); // 2 rows of literals
 * }</pre>
 *
 * @param name the table: its name, or its database and name, as the dialect folds them
 * @param written the same as written, unquoted names not folded (PostgreSQL folds them to lower case; a
 *     Fluss table may have been created with capitals, which the engine finds ignoring case)
 * @param columns the listed columns, in order; empty when the statement lists none (all, in table order)
 * @param rows the rows' values, each as wide as the column list (or the table, without one)
 */
public record InsertValues(List<String> name, List<String> written, Optional<List<String>> columns,
        List<List<Value>> rows) {

    /** One value of a row: a parameter or a literal. */
    public sealed interface Value {
        /** The {@code position}-th {@code ?} of the statement (from 0). */
        record Parameter(int position) implements Value {}

        /** A string literal's characters: text its column's type reads, as PostgreSQL reads a quoted literal. */
        record Literal(String text) implements Value {
            public Literal {
                requireNonNull(text, "text is null");
            }
        }

        /** A number literal, as written ({@code -1.5e3}): a number, which only numeric columns take as it is. */
        record Number(String text) implements Value {
            public Number {
                requireNonNull(text, "text is null");
            }
        }

        /** {@code TRUE} or {@code FALSE}. */
        record Bool(boolean value) implements Value {}

        /** {@code NULL}. */
        record Null() implements Value {}
    }

    public InsertValues {
        name = List.copyOf(name);
        written = List.copyOf(written);
        if (name.isEmpty() || name.size() > 2 || written.size() != name.size()) {
            throw new IllegalArgumentException("A table is named by its name or its database and name: " + name);
        }
        requireNonNull(columns, "columns is null");
        columns = columns.map(List::copyOf);
        rows = rows.stream().map(List::copyOf).toList();
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("An INSERT ... VALUES has at least one row");
        }
    }

    /** The table, when the statement named its database. */
    public Optional<TablePath> qualified() {
        return name.size() == 2 ? Optional.of(TablePath.of(name.get(0), name.get(1))) : Optional.empty();
    }

    /** The table, named with its database ({@link #match} only matches such statements). */
    public TablePath table() {
        return qualified().orElseThrow(() -> new IllegalStateException("The INSERT names no database: " + name));
    }

    /** How many {@code ?} the statement has. */
    public int parameters() {
        return (int) rows.stream().flatMap(List::stream).filter(Value.Parameter.class::isInstance).count();
    }

    /**
     * The statement, when it is a one-row {@code INSERT ... VALUES} of parameters only into a table
     * named with its database (Riffle's own dialect).
     */
    public static Optional<InsertValues> match(String sql) {
        return parse(sql, Dialect.CALCITE).filter(insert -> insert.qualified().isPresent() && insert.rows().size() == 1
                && insert.rows().get(0).stream().allMatch(Value.Parameter.class::isInstance));
    }

    /** The statement, when it is an {@code INSERT ... VALUES} of parameters and plain literals only. */
    public static Optional<InsertValues> parse(String sql, Dialect dialect) {
        requireNonNull(sql, "sql is null");
        requireNonNull(dialect, "dialect is null");
        if (!startsWithInsert(sql)) {
            return Optional.empty(); // most statements are not: nothing more to read
        }
        // Read by a scanner of this one shape rather than by Calcite's parser, which costs more
        // than the rest of a one-row INSERT's work; whatever it does not know is left to the engine.
        return new Scanner(sql, dialect == Dialect.POSTGRESQL).insert();
    }

    private static boolean startsWithInsert(String sql) {
        int i = 0;
        while (i < sql.length() && Character.isWhitespace(sql.charAt(i))) {
            i++;
        }
        return sql.regionMatches(true, i, "INSERT", 0, 6);
    }

    /**
     * Reads {@code INSERT INTO name [(column, ...)] VALUES (value, ...)[, (value, ...)]...[;]} where a
     * value is {@code ?}, {@code NULL}, {@code TRUE}, {@code FALSE}, a signed number or a
     * {@code '...'} string (quotes doubled inside, backslashes as they are, as PostgreSQL's standard
     * strings); names are plain identifiers (folded to lower case when {@code foldUnquoted}) or
     * {@code "..."}. Comments, other literals and anything else end the match.
     */
    private static final class Scanner {
        private final String sql;
        private final boolean foldUnquoted;
        private int at;
        private int parameters;
        /** The last identifier read, as written (unfolded). */
        private String lastWritten = "";

        Scanner(String sql, boolean foldUnquoted) {
            this.sql = sql;
            this.foldUnquoted = foldUnquoted;
        }

        Optional<InsertValues> insert() {
            if (!word("INSERT") || !word("INTO")) {
                return Optional.empty();
            }
            List<String> name = new ArrayList<>();
            List<String> written = new ArrayList<>();
            Optional<String> part = identifier();
            if (part.isEmpty()) {
                return Optional.empty();
            }
            name.add(part.get());
            written.add(lastWritten);
            if (symbol('.')) {
                part = identifier();
                if (part.isEmpty()) {
                    return Optional.empty();
                }
                name.add(part.get());
                written.add(lastWritten);
            }
            Optional<List<String>> columns = Optional.empty();
            if (symbol('(')) {
                List<String> listed = new ArrayList<>();
                do {
                    Optional<String> column = identifier();
                    if (column.isEmpty()) {
                        return Optional.empty();
                    }
                    listed.add(column.get());
                } while (symbol(','));
                if (!symbol(')')) {
                    return Optional.empty();
                }
                columns = Optional.of(listed);
            }
            if (!word("VALUES")) {
                return Optional.empty();
            }
            List<List<Value>> rows = new ArrayList<>();
            do {
                if (!symbol('(')) {
                    return Optional.empty();
                }
                List<Value> row = new ArrayList<>();
                do {
                    Optional<Value> value = value();
                    if (value.isEmpty()) {
                        return Optional.empty();
                    }
                    row.add(value.get());
                } while (symbol(','));
                if (!symbol(')') || !rows.isEmpty() && row.size() != rows.get(0).size()) {
                    return Optional.empty(); // rows of different widths: the engine says what is wrong
                }
                rows.add(row);
            } while (symbol(','));
            symbol(';');
            skipSpace();
            if (at != sql.length() || columns.isPresent() && columns.get().size() != rows.get(0).size()) {
                return Optional.empty();
            }
            return Optional.of(new InsertValues(name, written, columns, rows));
        }

        private Optional<Value> value() {
            skipSpace();
            if (symbol('?')) {
                return Optional.of(new Value.Parameter(parameters++));
            }
            if (at < sql.length() && sql.charAt(at) == '\'') {
                return string().map(Value.Literal::new);
            }
            if (word("NULL")) {
                return Optional.of(new Value.Null());
            }
            if (word("TRUE")) {
                return Optional.of(new Value.Bool(true));
            }
            if (word("FALSE")) {
                return Optional.of(new Value.Bool(false));
            }
            return number().map(Value.Number::new);
        }

        /** {@code [+-]digits[.digits][e[+-]digits]}, followed by neither a name nor another number. */
        private Optional<String> number() {
            int start = at;
            boolean negative = false;
            if (at < sql.length() && (sql.charAt(at) == '-' || sql.charAt(at) == '+')) {
                negative = sql.charAt(at) == '-';
                at++;
                skipSpace();
            }
            int digits = at;
            int whole = digitsAt();
            int fraction = 0;
            if (at < sql.length() && sql.charAt(at) == '.') {
                at++;
                fraction = digitsAt();
            }
            if (whole + fraction == 0) {
                at = start;
                return Optional.empty();
            }
            if (at < sql.length() && (sql.charAt(at) == 'e' || sql.charAt(at) == 'E')) {
                at++;
                if (at < sql.length() && (sql.charAt(at) == '-' || sql.charAt(at) == '+')) {
                    at++;
                }
                if (digitsAt() == 0) {
                    at = start;
                    return Optional.empty();
                }
            }
            if (at < sql.length() && (Character.isLetterOrDigit(sql.charAt(at)) || sql.charAt(at) == '_'
                    || sql.charAt(at) == '.' || sql.charAt(at) == '$')) {
                at = start;
                return Optional.empty();
            }
            return Optional.of((negative ? "-" : "") + sql.substring(digits, at));
        }

        private int digitsAt() {
            int start = at;
            while (at < sql.length() && sql.charAt(at) >= '0' && sql.charAt(at) <= '9') {
                at++;
            }
            return at - start;
        }

        /** A {@code '...'} string; a string continued on the next line ({@code 'a'\n'b'}) is left to the engine. */
        private Optional<String> string() {
            StringBuilder text = new StringBuilder();
            at++;
            while (at < sql.length()) {
                char c = sql.charAt(at++);
                if (c == '\'') {
                    if (at < sql.length() && sql.charAt(at) == '\'') {
                        text.append('\'');
                        at++;
                        continue;
                    }
                    int after = at;
                    skipSpace();
                    if (at < sql.length() && sql.charAt(at) == '\'') {
                        return Optional.empty();
                    }
                    at = after;
                    return Optional.of(text.toString());
                }
                text.append(c);
            }
            return Optional.empty();
        }

        private Optional<String> identifier() {
            skipSpace();
            if (at >= sql.length()) {
                return Optional.empty();
            }
            char first = sql.charAt(at);
            if (first == '"') {
                StringBuilder name = new StringBuilder();
                at++;
                while (at < sql.length()) {
                    char c = sql.charAt(at++);
                    if (c == '"') {
                        if (at < sql.length() && sql.charAt(at) == '"') {
                            name.append('"');
                            at++;
                            continue;
                        }
                        lastWritten = name.toString();
                        return name.isEmpty() ? Optional.empty() : Optional.of(lastWritten);
                    }
                    name.append(c);
                }
                return Optional.empty();
            }
            if (!(Character.isLetter(first) || first == '_')) {
                return Optional.empty();
            }
            int start = at;
            while (at < sql.length() && (Character.isLetterOrDigit(sql.charAt(at)) || sql.charAt(at) == '_'
                    || sql.charAt(at) == '$')) {
                at++;
            }
            String name = sql.substring(start, at);
            if (RESERVED.contains(name.toUpperCase(java.util.Locale.ROOT))) {
                at = start;
                return Optional.empty();
            }
            lastWritten = name;
            return Optional.of(foldUnquoted ? name.toLowerCase(java.util.Locale.ROOT) : name);
        }

        private boolean word(String word) {
            skipSpace();
            int end = at + word.length();
            if (sql.regionMatches(true, at, word, 0, word.length()) && (end == sql.length()
                    || !(Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_'
                            || sql.charAt(end) == '$'))) {
                at = end;
                return true;
            }
            return false;
        }

        private boolean symbol(char symbol) {
            skipSpace();
            if (at < sql.length() && sql.charAt(at) == symbol) {
                at++;
                return true;
            }
            return false;
        }

        private void skipSpace() {
            while (at < sql.length() && Character.isWhitespace(sql.charAt(at))) {
                at++;
            }
        }
    }

    /** Words that are no table or column name without quotes: where one stands, the engine reads the statement. */
    private static final java.util.Set<String> RESERVED = java.util.Set.of("VALUES", "SELECT", "DEFAULT", "TABLE",
            "WITH", "RETURNING", "ON", "OVERRIDING", "AS", "INTO", "NULL", "TRUE", "FALSE");
}
