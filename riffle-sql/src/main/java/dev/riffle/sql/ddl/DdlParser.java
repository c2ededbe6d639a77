package dev.riffle.sql.ddl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Parses the DDL Riffle runs itself ({@link DdlStatement}): Flink SQL's shape of
 * {@code CREATE TABLE} (the one Fluss users know), which Calcite's grammar has no room for
 * ({@code PARTITIONED BY}, {@code WITH (...)}, Fluss type strings such as {@code STRING} or
 * {@code TIMESTAMP_LTZ(3)}). Everything else goes to Calcite's parser.
 *
 * <p>Identifiers keep their case; quote them with {@code "..."} or {@code `...`} when they are
 * keywords or contain other characters.
 *
 * <pre>{@code
 * DdlStatement statement = DdlParser.parse(
 *         "CREATE TABLE shop.orders (id BIGINT, region STRING, PRIMARY KEY (id, region) NOT ENFORCED)"
 *                 + " PARTITIONED BY (region) WITH ('bucket.num' = '4')").orElseThrow();
 * }</pre>
 */
public final class DdlParser {
    private final String sql;
    private final List<Token> tokens;
    private int next;

    private DdlParser(String sql) {
        this.sql = sql;
        this.tokens = tokenize(sql);
    }

    /**
     * The statement if {@code sql} is DDL that Riffle runs (it starts with {@code CREATE},
     * {@code DROP} or {@code ALTER}), empty for anything else.
     *
     * @throws DdlSyntaxException when it starts like DDL but is not valid Riffle DDL
     */
    public static Optional<DdlStatement> parse(String sql) {
        DdlParser parser;
        try {
            parser = new DdlParser(sql);
        } catch (DdlSyntaxException e) {
            // not ours to judge unless it is DDL; Calcite reports its own syntax errors
            return firstWord(sql).filter(w -> w.equals("CREATE") || w.equals("DROP") || w.equals("ALTER")).isPresent()
                    ? rethrow(e) : Optional.empty();
        }
        if (parser.tokens.isEmpty()) {
            return Optional.empty();
        }
        Token first = parser.tokens.get(0);
        if (first.is("CREATE")) {
            return Optional.of(parser.create());
        }
        if (first.is("DROP")) {
            return Optional.of(parser.drop());
        }
        if (first.is("ALTER")) {
            return Optional.of(parser.alter());
        }
        return Optional.empty();
    }

    private static Optional<DdlStatement> rethrow(DdlSyntaxException e) {
        throw e;
    }

    private static Optional<String> firstWord(String sql) {
        String trimmed = sql.stripLeading();
        int end = 0;
        while (end < trimmed.length() && Character.isLetter(trimmed.charAt(end))) {
            end++;
        }
        return end == 0 ? Optional.empty() : Optional.of(trimmed.substring(0, end).toUpperCase(Locale.ROOT));
    }

    // ---- statements

    private DdlStatement create() {
        expectWord("CREATE");
        if (acceptWord("DATABASE") || acceptWord("SCHEMA")) {
            boolean ifNotExists = ifNotExists();
            String name = identifier("a database name");
            Optional<String> comment = acceptWord("COMMENT") ? Optional.of(string("the comment")) : Optional.empty();
            Map<String, String> options = acceptWord("WITH") ? options() : Map.of();
            end();
            return new DdlStatement.CreateDatabase(name, ifNotExists, comment, options);
        }
        if (acceptWord("TABLE")) {
            return createTable();
        }
        if (peekWord("UNIQUE") && next + 1 < tokens.size() && tokens.get(next + 1).is("INDEX")) {
            throw new UnsupportedOperationException("Fluss enforces no UNIQUE index: only a table's primary key makes"
                    + " its rows unique (a write with a key that is there updates that row)");
        }
        if (acceptWord("INDEX")) {
            return createIndex();
        }
        throw unsupported("CREATE " + peekText());
    }

    private DdlStatement drop() {
        expectWord("DROP");
        if (acceptWord("DATABASE") || acceptWord("SCHEMA")) {
            boolean ifExists = ifExists();
            String name = identifier("a database name");
            boolean cascade = false;
            if (acceptWord("CASCADE")) {
                cascade = true;
            } else {
                acceptWord("RESTRICT");
            }
            end();
            return new DdlStatement.DropDatabase(name, ifExists, cascade);
        }
        if (acceptWord("TABLE")) {
            boolean ifExists = ifExists();
            List<String> name = qualifiedName();
            if (!acceptWord("CASCADE")) {
                acceptWord("RESTRICT");
            }
            end();
            return new DdlStatement.DropTable(database(name), name.get(name.size() - 1), ifExists);
        }
        if (acceptWord("INDEX")) {
            acceptWord("CONCURRENTLY");
            ifExists();
            List<String> name = qualifiedName();
            if (!acceptWord("CASCADE")) {
                acceptWord("RESTRICT");
            }
            end();
            return new DdlStatement.DropIndex(String.join(".", name));
        }
        throw unsupported("DROP " + peekText());
    }

    /**
     * {@code ALTER TABLE [IF EXISTS] [db.]t} then {@code ADD [COLUMN] c type [COMMENT '...']},
     * {@code ADD (c type [COMMENT '...'], ...)}, {@code SET ('k' = 'v', ...)} or
     * {@code RESET ('k', ...)}: Flink SQL's forms, which Fluss users know.
     */
    private DdlStatement alter() {
        expectWord("ALTER");
        if (!acceptWord("TABLE")) {
            throw unsupported("ALTER " + peekText());
        }
        boolean ifExists = ifExists();
        List<String> name = qualifiedName();
        List<DdlStatement.Alteration> changes = new ArrayList<>();
        if (acceptWord("ADD")) {
            if (acceptSymbol("(")) {
                do {
                    changes.add(new DdlStatement.AddColumn(column(List.of(), "ADD")));
                } while (acceptSymbol(","));
                expectSymbol(")");
            } else {
                acceptWord("COLUMN");
                changes.add(new DdlStatement.AddColumn(column(List.of(), "ADD")));
            }
        } else if (acceptWord("SET")) {
            options().forEach((key, value) -> changes.add(new DdlStatement.SetOption(key, value)));
        } else if (acceptWord("RESET")) {
            expectSymbol("(");
            do {
                changes.add(new DdlStatement.ResetOption(string("an option name in quotes, as in 'table.datalake.freshness'")));
            } while (acceptSymbol(","));
            expectSymbol(")");
        } else {
            throw error("ADD [COLUMN] ..., SET (...) or RESET (...) after ALTER TABLE " + String.join(".", name));
        }
        end();
        if (changes.isEmpty()) {
            throw error("at least one option in SET (...)");
        }
        return new DdlStatement.AlterTable(database(name), name.get(name.size() - 1), ifExists, changes);
    }

    /**
     * {@code CREATE INDEX [CONCURRENTLY] [IF NOT EXISTS] [name] ON [ONLY] [db.]t [USING method] (...)
     * [INCLUDE (...)] [WHERE ...]}: only the table is kept (see {@link DdlStatement.CreateIndex}).
     */
    private DdlStatement createIndex() {
        acceptWord("CONCURRENTLY");
        ifNotExists();
        Optional<String> name = peekWord("ON") ? Optional.empty() : Optional.of(identifier("an index name or ON"));
        expectWord("ON");
        acceptWord("ONLY");
        List<String> table = qualifiedName();
        if (acceptWord("USING")) {
            identifier("an index method");
        }
        if (!peekSymbolAt(0, "(")) {
            throw error("'(' and the indexed columns");
        }
        next = tokens.size(); // the columns, expressions, INCLUDE and WHERE: nothing to build
        return new DdlStatement.CreateIndex(name, database(table), table.get(table.size() - 1));
    }

    private DdlStatement createTable() {
        boolean ifNotExists = ifNotExists();
        List<String> name = qualifiedName();
        expectSymbol("(");
        List<DdlStatement.Column> columns = new ArrayList<>();
        List<String> primaryKey = new ArrayList<>();
        do {
            if (peekWord("CONSTRAINT") && !peekSymbolAt(1, ",") && !peekSymbolAt(1, ")")) {
                next++;
                identifier("a constraint name"); // a primary key is named <table>_pkey, as PostgreSQL names it
                if (!peekWord("PRIMARY")) {
                    throw unenforceable(peekText());
                }
            }
            if ((peekWord("UNIQUE") || peekWord("FOREIGN") || peekWord("CHECK") || peekWord("EXCLUDE"))
                    && !peekSymbolAt(1, ",") && !peekSymbolAt(1, ")")) {
                throw unenforceable(peekText());
            }
            if (peekWord("PRIMARY") && !peekSymbolAt(1, ",") && !peekSymbolAt(1, ")")) {
                next++;
                expectWord("KEY");
                if (!primaryKey.isEmpty()) {
                    throw error("a second PRIMARY KEY");
                }
                primaryKey.addAll(identifierList("the primary-key columns"));
                notEnforced();
            } else {
                columns.add(column(primaryKey, "CREATE"));
            }
        } while (acceptSymbol(","));
        expectSymbol(")");
        Optional<String> comment = Optional.empty();
        List<String> partitionKeys = List.of();
        Map<String, String> options = Map.of();
        while (!atEnd()) {
            if (comment.isEmpty() && acceptWord("COMMENT")) {
                comment = Optional.of(string("the table comment"));
            } else if (partitionKeys.isEmpty() && acceptWord("PARTITIONED")) {
                expectWord("BY");
                partitionKeys = identifierList("the partition keys");
            } else if (options.isEmpty() && acceptWord("WITH")) {
                options = options();
            } else {
                throw error("COMMENT, PARTITIONED BY (...) or WITH (...) after the column list");
            }
        }
        return new DdlStatement.CreateTable(database(name), name.get(name.size() - 1), ifNotExists, columns,
                primaryKey, partitionKeys, comment, options);
    }

    /**
     * {@code name type [NOT NULL] [PRIMARY KEY [NOT ENFORCED]] [COMMENT '...']}; the type is kept as
     * text. A {@code PRIMARY KEY} is allowed only in {@code CREATE TABLE}.
     */
    private DdlStatement.Column column(List<String> primaryKey, String statement) {
        String name = identifier("a column name or PRIMARY KEY (...)");
        int typeStart = position();
        int depth = 0;
        int typeEnd = typeStart;
        Optional<String> comment = Optional.empty();
        while (!atEnd()) {
            Token token = tokens.get(next);
            if (depth == 0 && (token.isSymbol(",") || token.isSymbol(")"))) {
                break;
            }
            if (depth == 0 && token.is("COMMENT")) {
                next++;
                comment = Optional.of(string("the comment of column " + name));
                continue;
            }
            if (depth == 0 && token.is("CONSTRAINT")) {
                next++;
                identifier("a constraint name");
                continue;
            }
            if (depth == 0 && (token.is("UNIQUE") || token.is("REFERENCES") || token.is("CHECK")
                    || token.is("DEFAULT") || token.is("GENERATED"))) {
                throw unenforceable(token.text().toUpperCase(Locale.ROOT) + " (on column " + name + ")");
            }
            if (depth == 0 && token.is("NULL") && !(next > 0 && tokens.get(next - 1).is("NOT"))) {
                next++; // NULL: the column may be null, as every column may unless NOT NULL
                continue;
            }
            if (depth == 0 && token.is("PRIMARY")) {
                if (!statement.equals("CREATE")) {
                    throw new DdlSyntaxException("Syntax error at " + where(token.start()) + ": a column added with"
                            + " ALTER TABLE cannot be part of the primary key (Fluss keys are fixed at CREATE TABLE)");
                }
                next++;
                expectWord("KEY");
                if (!primaryKey.isEmpty()) {
                    throw error("a second PRIMARY KEY");
                }
                primaryKey.add(name);
                notEnforced();
                continue;
            }
            if (token.isSymbol("(") || token.isSymbol("<")) {
                depth++;
            } else if (token.isSymbol(")") || token.isSymbol(">")) {
                depth--;
            }
            next++;
            typeEnd = token.end();
        }
        String type = sql.substring(typeStart, typeEnd).strip();
        if (type.isEmpty()) {
            throw error("the type of column " + name);
        }
        return new DdlStatement.Column(name, type, comment);
    }

    private void notEnforced() {
        if (acceptWord("NOT")) {
            expectWord("ENFORCED");
        }
    }

    private Map<String, String> options() {
        expectSymbol("(");
        Map<String, String> options = new LinkedHashMap<>();
        if (acceptSymbol(")")) {
            return options;
        }
        do {
            String key = string("an option name in quotes, as in 'bucket.num'");
            expectSymbol("=");
            String value = string("the value of option '" + key + "' in quotes");
            if (options.put(key, value) != null) {
                throw error("option '" + key + "' only once");
            }
        } while (acceptSymbol(","));
        expectSymbol(")");
        return options;
    }

    private boolean ifNotExists() {
        if (acceptWord("IF")) {
            expectWord("NOT");
            expectWord("EXISTS");
            return true;
        }
        return false;
    }

    private boolean ifExists() {
        if (acceptWord("IF")) {
            expectWord("EXISTS");
            return true;
        }
        return false;
    }

    private List<String> qualifiedName() {
        List<String> parts = new ArrayList<>();
        parts.add(identifier("a table name"));
        while (acceptSymbol(".")) {
            parts.add(identifier("a table name after '.'"));
        }
        if (parts.size() > 2) {
            throw new DdlSyntaxException("Table name " + String.join(".", parts) + " has " + parts.size()
                    + " parts; Fluss tables are named database.table");
        }
        return parts;
    }

    private static Optional<String> database(List<String> name) {
        return name.size() == 2 ? Optional.of(name.get(0)) : Optional.empty();
    }

    private List<String> identifierList(String what) {
        expectSymbol("(");
        List<String> names = new ArrayList<>();
        do {
            names.add(identifier(what));
        } while (acceptSymbol(","));
        expectSymbol(")");
        return names;
    }

    // ---- tokens

    private String identifier(String what) {
        if (atEnd()) {
            throw error(what);
        }
        Token token = tokens.get(next);
        if (token.kind() != Kind.WORD && token.kind() != Kind.QUOTED_IDENTIFIER) {
            throw error(what);
        }
        next++;
        return token.text();
    }

    private String string(String what) {
        if (atEnd() || tokens.get(next).kind() != Kind.STRING) {
            throw error(what);
        }
        return tokens.get(next++).text();
    }

    private boolean peekWord(String word) {
        return !atEnd() && tokens.get(next).is(word);
    }

    private boolean peekSymbolAt(int ahead, String symbol) {
        return next + ahead < tokens.size() && tokens.get(next + ahead).isSymbol(symbol);
    }

    private boolean acceptWord(String word) {
        if (peekWord(word)) {
            next++;
            return true;
        }
        return false;
    }

    private void expectWord(String word) {
        if (!acceptWord(word)) {
            throw error(word);
        }
    }

    private boolean acceptSymbol(String symbol) {
        if (!atEnd() && tokens.get(next).isSymbol(symbol)) {
            next++;
            return true;
        }
        return false;
    }

    private void expectSymbol(String symbol) {
        if (!acceptSymbol(symbol)) {
            throw error("'" + symbol + "'");
        }
    }

    private void end() {
        if (!atEnd()) {
            throw error("the end of the statement");
        }
    }

    private boolean atEnd() {
        return next >= tokens.size();
    }

    private int position() {
        return atEnd() ? sql.length() : tokens.get(next).start();
    }

    private String peekText() {
        return atEnd() ? "" : tokens.get(next).text().toUpperCase(Locale.ROOT);
    }

    private DdlSyntaxException error(String expected) {
        String found = atEnd() ? "the end of the statement" : "'" + tokens.get(next).text() + "'";
        return new DdlSyntaxException("Syntax error at " + where(position()) + ": expected " + expected + " but found "
                + found);
    }

    /** A constraint Fluss would not keep: refused rather than accepted and broken. */
    private static UnsupportedOperationException unenforceable(String constraint) {
        return new UnsupportedOperationException("Fluss keeps no " + constraint.strip() + " constraint: a table's"
                + " primary key is the one it keeps (its rows are unique by it; a write with a key that is there"
                + " updates that row); columns have no defaults, checks or references");
    }

    private DdlSyntaxException unsupported(String statement) {
        return new DdlSyntaxException("Unsupported statement " + statement.strip() + "; Riffle runs CREATE/DROP DATABASE"
                + " (or SCHEMA), CREATE/DROP TABLE, ALTER TABLE ... ADD [COLUMN] / SET (...) / RESET (...) and"
                + " CREATE/DROP INDEX (which do nothing: Fluss has no secondary indexes)");
    }

    private String where(int offset) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset && i < sql.length(); i++) {
            if (sql.charAt(i) == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return "line " + line + ", column " + column;
    }

    private enum Kind { WORD, QUOTED_IDENTIFIER, STRING, NUMBER, SYMBOL }

    /** A token and where it is in the statement; {@code text} is unquoted for strings and quoted identifiers. */
    private record Token(Kind kind, String text, int start, int end) {
        boolean is(String word) {
            return kind == Kind.WORD && text.equalsIgnoreCase(word);
        }

        boolean isSymbol(String symbol) {
            return kind == Kind.SYMBOL && text.equals(symbol);
        }
    }

    private List<Token> tokenize(String text) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int close = text.indexOf("*/", i + 2);
                if (close < 0) {
                    throw new DdlSyntaxException("Unterminated comment at " + where(i));
                }
                i = close + 2;
            } else if (c == ';') {
                // a trailing semicolon ends the statement; anything after it is a second statement
                int start = i++;
                while (i < n && Character.isWhitespace(text.charAt(i))) {
                    i++;
                }
                if (i < n) {
                    throw new DdlSyntaxException("Syntax error at " + where(start)
                            + ": one statement at a time, found more after ';'");
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                int start = i;
                StringBuilder value = new StringBuilder();
                i++;
                while (true) {
                    if (i >= n) {
                        throw new DdlSyntaxException("Unterminated " + (c == '\'' ? "string" : "quoted identifier")
                                + " starting at " + where(start));
                    }
                    char d = text.charAt(i);
                    if (d == c) {
                        if (i + 1 < n && text.charAt(i + 1) == c) {
                            value.append(c);
                            i += 2;
                            continue;
                        }
                        i++;
                        break;
                    }
                    value.append(d);
                    i++;
                }
                out.add(new Token(c == '\'' ? Kind.STRING : Kind.QUOTED_IDENTIFIER, value.toString(), start, i));
            } else if (Character.isLetter(c) || c == '_') {
                int start = i;
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_'
                        || text.charAt(i) == '$')) {
                    i++;
                }
                out.add(new Token(Kind.WORD, text.substring(start, i), start, i));
            } else if (Character.isDigit(c)) {
                int start = i;
                while (i < n && (Character.isDigit(text.charAt(i)) || text.charAt(i) == '.')) {
                    i++;
                }
                out.add(new Token(Kind.NUMBER, text.substring(start, i), start, i));
            } else {
                out.add(new Token(Kind.SYMBOL, String.valueOf(c), i, i + 1));
                i++;
            }
        }
        return out;
    }
}
