package dev.riffle.sql.dialect;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * The names PostgreSQL gives the columns of a query that the query does not name: a function
 * call is named after the function ({@code count}, {@code sum}, {@code coalesce}), a cast after its
 * operand when that has a name and else after the type ({@code id::text} is {@code id},
 * {@code 1::int} is {@code int4}), {@code CASE} is {@code case}, and anything else (an operator, a
 * constant) {@code ?column?}. Riffle names columns so on every surface (PostgreSQL, HTTP JSON keys,
 * Flight SQL schemas, JDBC labels) instead of Calcite's {@code EXPR$0}, by giving each unnamed
 * select item its name before the statement is validated ({@link #name}).
 *
 * <pre>{@code
 * SqlNode named = ColumnNames.name(parsed);   // SELECT count(*), 1 + 1 -> SELECT count(*) AS "count", 1 + 1 AS "?column?"
 * }</pre>
 */
public final class ColumnNames {
    /** PostgreSQL's name for a column it cannot name. */
    public static final String UNNAMED = "?column?";

    /** PostgreSQL's names of the types a cast may name a column after. */
    private static final Map<String, String> TYPES = Map.ofEntries(
            Map.entry("INTEGER", "int4"), Map.entry("INT", "int4"), Map.entry("BIGINT", "int8"),
            Map.entry("SMALLINT", "int2"), Map.entry("TINYINT", "int2"), Map.entry("DOUBLE", "float8"),
            Map.entry("FLOAT", "float8"), Map.entry("REAL", "float4"), Map.entry("DECIMAL", "numeric"),
            Map.entry("NUMERIC", "numeric"), Map.entry("BOOLEAN", "bool"), Map.entry("VARCHAR", "varchar"),
            Map.entry("CHAR", "bpchar"), Map.entry("VARBINARY", "bytea"), Map.entry("BINARY", "bytea"),
            Map.entry("DATE", "date"), Map.entry("TIME", "time"), Map.entry("TIMESTAMP", "timestamp"));

    private ColumnNames() {}

    /**
     * {@code statement} with every unnamed item of every select list in it (subqueries too) given
     * PostgreSQL's name as an alias; items that have a name keep it. The tree is changed in place
     * and returned.
     */
    public static SqlNode name(SqlNode statement) {
        statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getSelectList() != null) {
                    nameItems(select.getSelectList());
                }
                for (SqlNode operand : call.getOperandList()) {
                    if (operand != null) {
                        operand.accept(this);
                    }
                }
                return call;
            }

            @Override
            public SqlNode visit(SqlNodeList list) {
                for (SqlNode node : list) {
                    if (node != null) {
                        node.accept(this);
                    }
                }
                return list;
            }
        });
        return statement;
    }

    private static void nameItems(SqlNodeList items) {
        Set<String> taken = new HashSet<>();
        for (SqlNode item : items) {
            explicit(item).ifPresent(taken::add);
        }
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            if (explicit(item).isPresent() || isStar(item)) {
                continue;
            }
            // Names stay unique within a select list, as Calcite needs them to be: count, count0, count1
            String base = of(item);
            String name = base;
            for (int n = 0; !taken.add(name); n++) {
                name = base + n;
            }
            items.set(i, SqlStdOperatorTable.AS.createCall(SqlParserPos.ZERO, item,
                    new SqlIdentifier(name, SqlParserPos.ZERO)));
        }
    }

    /** The name an item has of its own: its alias, or the column an identifier names. */
    private static Optional<String> explicit(SqlNode item) {
        if (item.getKind() == SqlKind.AS) {
            List<SqlNode> operands = ((SqlCall) item).getOperandList();
            return Optional.of(((SqlIdentifier) operands.get(1)).getSimple());
        }
        if (item instanceof SqlIdentifier identifier && !identifier.isStar()) {
            return Optional.of(identifier.names.get(identifier.names.size() - 1));
        }
        return Optional.empty();
    }

    private static boolean isStar(SqlNode item) {
        return item instanceof SqlIdentifier identifier && identifier.isStar();
    }

    /** PostgreSQL's name for the select item {@code node}, which has no alias. */
    public static String of(SqlNode node) {
        if (node instanceof SqlIdentifier identifier) {
            return identifier.isStar() ? UNNAMED : identifier.names.get(identifier.names.size() - 1);
        }
        if (!(node instanceof SqlCall call)) {
            return UNNAMED; // a literal, a dynamic parameter
        }
        SqlKind kind = call.getKind();
        if (kind == SqlKind.CAST && call.getOperator() == SqlLibraryOperators.INFIX_CAST
                && call.operand(0) instanceof SqlBasicCall inner
                && inner.getOperator() instanceof SqlBinaryOperator && inner.getKind() != SqlKind.CAST) {
            return UNNAMED; // a > b::t, which the parser reads (a > b)::t: PostgresCalls puts the cast back on b
        }
        if (kind == SqlKind.CAST) {
            // the name of what is cast, if it has one; else the outermost type ('x'::regclass::text is text)
            SqlNode cast = call.operand(0);
            while (cast instanceof SqlCall inner && inner.getKind() == SqlKind.CAST) {
                cast = inner.operand(0);
            }
            String operand = of(cast);
            if (!operand.equals(UNNAMED)) {
                return operand;
            }
            return call.operand(1) instanceof SqlDataTypeSpec type ? typeName(type) : UNNAMED;
        }
        if (kind == SqlKind.CASE) {
            return "case";
        }
        if (kind == SqlKind.OVER || kind == SqlKind.FILTER || kind == SqlKind.WITHIN_GROUP
                || kind == SqlKind.RESPECT_NULLS || kind == SqlKind.IGNORE_NULLS) {
            return of(call.operand(0));
        }
        if (kind == SqlKind.ARRAY_VALUE_CONSTRUCTOR) {
            return "array";
        }
        if (kind == SqlKind.ROW) {
            return "row";
        }
        if (kind == SqlKind.EXISTS) {
            return "exists";
        }
        if (kind == SqlKind.DOT && call.operand(1) instanceof SqlIdentifier field) {
            return field.getSimple(); // (f(x)).n is n
        }
        if (kind == SqlKind.SCALAR_QUERY && call.operand(0) instanceof SqlSelect select
                && select.getSelectList() != null && select.getSelectList().size() == 1) {
            SqlNode inner = select.getSelectList().get(0);
            return explicit(inner).orElseGet(() -> of(inner));
        }
        if (call.getOperator() instanceof SqlFunction function) {
            String name = function.getName().toLowerCase(Locale.ROOT);
            return name.equals(SetReturningCalls.UNNEST) ? "unnest" : name;
        }
        return UNNAMED;
    }

    private static String typeName(SqlDataTypeSpec type) {
        String name = type.getTypeName().getSimple().toUpperCase(Locale.ROOT);
        return TYPES.getOrDefault(name, name.toLowerCase(Locale.ROOT));
    }
}
