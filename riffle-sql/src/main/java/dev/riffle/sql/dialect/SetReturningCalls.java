package dev.riffle.sql.dialect;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.JoinType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlNumericLiteral;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.dialect.PostgresqlSqlDialect;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * PostgreSQL's set-returning functions in a select list, which Calcite takes only in a FROM
 * clause, moved there: the calls over one array ({@code unnest(a)}, {@code generate_subscripts(a, 1)},
 * {@code information_schema._pg_expandarray(a)}, which PostgreSQL runs in lockstep) become one
 * {@code CROSS JOIN UNNEST(a) WITH ORDINALITY AS s(x, n)}, and {@code generate_series(...)} a
 * {@code CROSS JOIN LATERAL TABLE(generate_series(...))}; each call is then the column it yields.
 * {@code _pg_expandarray(a)} kept whole (pgjdbc's {@code AS keys}, read outside as
 * {@code (result.keys).x}) is its two fields as two columns, {@code keys$x} and {@code keys$n}, and
 * the reads of its fields are reads of them. Calls over two different arrays (PostgreSQL zips
 * them) are refused.
 *
 * <pre>{@code
 * SELECT unnest(ix.indkey) attnum, generate_subscripts(ix.indkey, 1) ord FROM pg_index ix
 *   -- SELECT s.x AS attnum, s.n AS ord FROM pg_index ix CROSS JOIN UNNEST(ix.indkey) WITH ORDINALITY AS s(x, n)
 * }</pre>
 */
public final class SetReturningCalls {
    /** What {@link PostgresSyntax} calls {@code unnest} in an expression (Calcite reserves the word). */
    static final String UNNEST = "pg_unnest";

    private static final Set<String> OVER_ARRAY = Set.of(UNNEST, "generate_subscripts", "_pg_expandarray");
    /** Table functions PostgreSQL also calls in a select list (psql's {@code IN (SELECT pg_partition_ancestors(...))}). */
    private static final Set<String> TABLE_FUNCTIONS = Set.of("generate_series", "pg_partition_ancestors");
    private static final String ELEMENT = "x";
    private static final String ORDINAL = "n";

    private SetReturningCalls() {}

    public static SqlNode rewrite(SqlNode statement) {
        statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getFrom() != null) {
                    select.setFrom(scalarsInFrom(select.getFrom()));
                }
                if (call instanceof SqlJoin join) {
                    join.setLeft(scalarsInFrom(join.getLeft()));
                    join.setRight(scalarsInFrom(join.getRight()));
                }
                return super.visit(call);
            }
        });
        Set<String> composites = new HashSet<>();
        int[] aliases = {0};
        SqlNode moved = statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                SqlNode visited = super.visit(call);
                return visited instanceof SqlSelect select ? move(select, composites, aliases) : visited;
            }
        });
        if (moved == null) {
            moved = statement;
        }
        if (composites.isEmpty()) {
            return moved;
        }
        SqlNode read = moved.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlIdentifier identifier) {
                return fieldRead(identifier, composites);
            }

            @Override
            public SqlNode visit(SqlCall call) {
                // (result.keys).x is parsed as the field x of the column result.keys
                if (call.getKind() == SqlKind.DOT && call.operand(0) instanceof SqlIdentifier composite
                        && call.operand(1) instanceof SqlIdentifier field && field.isSimple()) {
                    List<String> names = new ArrayList<>(composite.names);
                    names.add(field.getSimple());
                    SqlIdentifier whole = new SqlIdentifier(names, call.getParserPosition());
                    SqlNode column = fieldRead(whole, composites);
                    if (column != whole) {
                        return column;
                    }
                }
                return super.visit(call);
            }
        });
        return read == null ? moved : read;
    }

    /**
     * A function that returns one value, called in a FROM clause ({@code string_to_array(...) s},
     * Grafana's), is in PostgreSQL a table of one row whose one column the alias names too:
     * {@code (SELECT string_to_array(...) AS s) AS s}. Table functions stay as they are.
     */
    private static SqlNode scalarsInFrom(SqlNode from) {
        if (from.getKind() != SqlKind.AS || !(from instanceof SqlCall as)
                || as.operand(0).getKind() != SqlKind.COLLECTION_TABLE
                || !(((SqlCall) as.operand(0)).operand(0) instanceof SqlCall function)
                || TABLE_FUNCTIONS.contains(name(function)) || as.operandCount() > 3) {
            return from;
        }
        SqlParserPos pos = from.getParserPosition();
        SqlIdentifier alias = as.operand(1);
        String column = as.operandCount() == 3 ? ((SqlIdentifier) as.operand(2)).getSimple() : alias.getSimple();
        SqlSelect row = new SqlSelect(pos, null, new SqlNodeList(List.of(as(function, column, pos)), pos), null, null,
                null, null, null, null, null, null, null);
        return SqlStdOperatorTable.AS.createCall(pos, row, alias);
    }

    /** {@code q.keys.x} of a composite {@code keys}: the column {@code q."keys$x"}. */
    private static SqlNode fieldRead(SqlIdentifier identifier, Set<String> composites) {
        List<String> names = identifier.names;
        int size = names.size();
        if (size < 2) {
            return identifier;
        }
        String field = names.get(size - 1);
        String composite = names.get(size - 2);
        if (!(field.equals(ELEMENT) || field.equals(ORDINAL)) || !composites.contains(composite)) {
            return identifier;
        }
        List<String> column = new ArrayList<>(names.subList(0, size - 2));
        column.add(composite + "$" + field);
        return new SqlIdentifier(column, identifier.getParserPosition());
    }

    private static SqlNode move(SqlSelect select, Set<String> composites, int[] aliases) {
        SqlNodeList items = select.getSelectList();
        if (items == null) {
            return select;
        }
        Map<String, SqlNode> sources = new LinkedHashMap<>(); // the one array or series, by its text
        for (SqlNode item : items) {
            collect(item, sources);
        }
        if (sources.isEmpty()) {
            return select;
        }
        if (sources.size() > 1) {
            throw new UnsupportedOperationException("Riffle runs the set-returning functions of a select list over"
                    + " one array or series at a time (PostgreSQL would run " + String.join(" and ", sources.values()
                            .stream().map(source -> source.toSqlString(PostgresqlSqlDialect.DEFAULT).getSql()).toList())
                    + " side by side); move all but one into the FROM clause");
        }
        SqlParserPos pos = select.getParserPosition();
        SqlNode source = sources.values().iterator().next();
        String alias = "pg_srf" + (aliases[0]++);
        boolean series = source instanceof SqlCall call && TABLE_FUNCTIONS.contains(name(call));
        SqlNode table = series
                ? SqlStdOperatorTable.AS.createCall(pos, lateral(SqlStdOperatorTable.COLLECTION_TABLE.createCall(pos,
                        tableFunction((SqlCall) source)), select.getFrom() != null), new SqlIdentifier(alias, pos), new SqlIdentifier(ELEMENT, pos))
                : SqlStdOperatorTable.AS.createCall(pos, SqlStdOperatorTable.UNNEST_WITH_ORDINALITY.createCall(pos,
                        source), new SqlIdentifier(alias, pos), new SqlIdentifier(ELEMENT, pos),
                        new SqlIdentifier(ORDINAL, pos));
        List<SqlNode> rewritten = new ArrayList<>();
        for (SqlNode item : items) {
            rewritten.addAll(replace(item, alias, composites));
        }
        select.setSelectList(new SqlNodeList(rewritten, items.getParserPosition()));
        select.setFrom(select.getFrom() == null ? table : new SqlJoin(pos, select.getFrom(),
                SqlLiteral.createBoolean(false, pos), JoinType.CROSS.symbol(pos), table,
                JoinConditionType.NONE.symbol(pos), null));
        return select;
    }

    /** The call as a FROM clause makes it: looked up among table functions. */
    private static SqlNode tableFunction(SqlCall call) {
        SqlIdentifier name = call.getOperator() instanceof SqlFunction function && function.getSqlIdentifier() != null
                ? function.getSqlIdentifier() : new SqlIdentifier(call.getOperator().getName(), call.getParserPosition());
        return new SqlBasicCall(new SqlUnresolvedFunction(name, null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_TABLE_FUNCTION), call.getOperandList(), call.getParserPosition());
    }

    private static SqlNode lateral(SqlNode table, boolean lateral) {
        return lateral ? SqlStdOperatorTable.LATERAL.createCall(table.getParserPosition(), table) : table;
    }

    /** The arrays (or series) of the set-returning calls in {@code node}, not looking into subqueries. */
    private static void collect(SqlNode node, Map<String, SqlNode> sources) {
        if (!(node instanceof SqlCall call) || node instanceof SqlSelect || node.getKind() == SqlKind.UNION
                || node.getKind() == SqlKind.WITH) {
            return;
        }
        Optional<SqlNode> source = source(call);
        if (source.isPresent()) {
            sources.putIfAbsent(source.get().toString(), source.get());
            return;
        }
        for (SqlNode operand : call.getOperandList()) {
            collect(operand, sources);
        }
    }

    private static Optional<SqlNode> source(SqlCall call) {
        if (!(call instanceof SqlBasicCall) || call.getOperator().getKind() != SqlKind.OTHER_FUNCTION) {
            return Optional.empty();
        }
        String name = name(call);
        if (TABLE_FUNCTIONS.contains(name)) {
            return Optional.of(call);
        }
        if (!OVER_ARRAY.contains(name) || call.operandCount() < 1) {
            return Optional.empty();
        }
        if (name.equals("generate_subscripts") && !(call.operandCount() == 2
                && call.operand(1) instanceof SqlNumericLiteral dimension && dimension.intValue(true) == 1)) {
            throw new UnsupportedOperationException("Riffle's arrays have one dimension: generate_subscripts takes"
                    + " dimension 1");
        }
        return Optional.of(call.operand(0));
    }

    /** A select item with its set-returning calls as the columns they yield (two for a whole composite). */
    private static List<SqlNode> replace(SqlNode item, String alias, Set<String> composites) {
        SqlParserPos pos = item.getParserPosition();
        SqlNode expression = item;
        Optional<String> name = Optional.empty();
        if (item.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) item;
            expression = as.operand(0);
            name = Optional.of(((SqlIdentifier) as.operand(1)).getSimple());
        }
        if (expression instanceof SqlCall call && source(call).isPresent() && name(call).equals("_pg_expandarray")) {
            String composite = name.orElse("_pg_expandarray");
            composites.add(composite);
            return List.of(as(column(alias, ELEMENT, pos), composite + "$" + ELEMENT, pos),
                    as(column(alias, ORDINAL, pos), composite + "$" + ORDINAL, pos));
        }
        String named = name.orElseGet(() -> defaultName(item));
        SqlNode replaced = expression.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect) {
                    return call;
                }
                if (call.getKind() == SqlKind.DOT && call.operand(0) instanceof SqlCall inner && source(inner).isPresent()
                        && call.operand(1) instanceof SqlIdentifier field) {
                    return column(alias, field.getSimple().equals(ORDINAL) ? ORDINAL : ELEMENT, pos);
                }
                if (source(call).isPresent()) {
                    return column(alias, name(call).equals("generate_subscripts") ? ORDINAL : ELEMENT, pos);
                }
                return super.visit(call);
            }
        });
        return List.of(named.isEmpty() ? replaced : as(replaced, named, pos));
    }

    /** PostgreSQL's name of a select item that is one set-returning call (its function's), else none. */
    private static String defaultName(SqlNode item) {
        if (item instanceof SqlCall call && source(call).isPresent()) {
            String name = name(call);
            return name.equals(UNNEST) ? "unnest" : name;
        }
        if (item instanceof SqlCall dot && dot.getKind() == SqlKind.DOT && dot.operand(1) instanceof SqlIdentifier field) {
            return field.getSimple();
        }
        return "";
    }

    private static String name(SqlCall call) {
        return call.getOperator().getName().toLowerCase(Locale.ROOT);
    }

    private static SqlNode column(String alias, String field, SqlParserPos pos) {
        return new SqlIdentifier(List.of(alias, field), pos);
    }

    private static SqlNode as(SqlNode expression, String name, SqlParserPos pos) {
        return SqlStdOperatorTable.AS.createCall(pos, expression, new SqlIdentifier(name, pos));
    }
}
