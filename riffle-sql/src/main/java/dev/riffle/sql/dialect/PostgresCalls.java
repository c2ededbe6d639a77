package dev.riffle.sql.dialect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlBasicTypeNameSpec;
import org.apache.calcite.sql.SqlBinaryOperator;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlCharStringLiteral;
import org.apache.calcite.sql.SqlDataTypeSpec;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlIntervalQualifier;
import org.apache.calcite.sql.SqlJsonConstructorNullClause;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlLiteral;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSyntax;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.fun.SqlBetweenOperator;
import org.apache.calcite.sql.fun.SqlLibraryOperators;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlShuttle;

/**
 * PostgreSQL's calls that mean in Calcite something Calcite spells otherwise, rewritten as a
 * statement is parsed: {@code now()} (and {@code transaction_timestamp()},
 * {@code statement_timestamp()}) is {@code CURRENT_TIMESTAMP}; {@code current_user},
 * {@code session_user} and {@code user} are the session's user; {@code current_catalog} is
 * {@code current_database()}; {@code date_trunc('day', ts)} is {@code FLOOR(ts TO DAY)};
 * {@code json_build_object(k, v, ...)} is {@code JSON_OBJECT(k VALUE v, ...)}; and a cast to
 * {@code regclass}, {@code regtype}, {@code regproc} or {@code regnamespace} (which in PostgreSQL
 * looks a name up) is a call of the function that looks it up ({@code 'shop.orders'::regclass} is
 * {@code regclass('shop.orders')}, {@code oid::regclass::text} the relation's name); {@code ~} and
 * {@code ~*} (and their negations) are {@code pg_regex_match}, which a statement's deadline stops.
 *
 * <pre>{@code
 * SqlNode rewritten = PostgresCalls.rewrite(parsed);
 * }</pre>
 */
public final class PostgresCalls {
    private static final Map<String, TimeUnit> UNITS = Map.ofEntries(Map.entry("microseconds", TimeUnit.MICROSECOND),
            Map.entry("milliseconds", TimeUnit.MILLISECOND), Map.entry("second", TimeUnit.SECOND),
            Map.entry("minute", TimeUnit.MINUTE), Map.entry("hour", TimeUnit.HOUR), Map.entry("day", TimeUnit.DAY),
            Map.entry("week", TimeUnit.WEEK), Map.entry("month", TimeUnit.MONTH), Map.entry("quarter", TimeUnit.QUARTER),
            Map.entry("year", TimeUnit.YEAR), Map.entry("decade", TimeUnit.DECADE),
            Map.entry("century", TimeUnit.CENTURY), Map.entry("millennium", TimeUnit.MILLENNIUM));

    /** PostgreSQL's names of {@code timestamp with time zone}, an instant: Calcite's {@code TIMESTAMP WITH LOCAL TIME ZONE}. */
    private static final Set<String> ZONED = Set.of("timestamptz", "timestamp_tz",
            "timestamp_with_time_zone");

    /** The catalogs' columns of PostgreSQL's vector types ({@code int2vector}, {@code oidvector}). */
    private static final Set<String> VECTOR_COLUMNS = Set.of("indkey", "indoption", "indclass",
            "indcollation", "proargtypes", "partattrs", "partclass", "partcollation", "stxkeys", "tgattr");

    private PostgresCalls() {}

    /** {@code statement} with PostgreSQL's calls written as Calcite takes them. */
    public static SqlNode rewrite(SqlNode statement) {
        SqlNode rewritten = statement.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call.getKind() == SqlKind.AS) {
                    // an alias (AS current_user, AS user) is a name, not the session's value
                    List<SqlNode> operands = new ArrayList<>(call.getOperandList());
                    SqlNode value = operands.get(0).accept(this);
                    operands.set(0, value == null ? operands.get(0) : value);
                    return call.getOperator().createCall(call.getFunctionQuantifier(), call.getParserPosition(),
                            operands);
                }
                SqlNode visited = super.visit(call);
                return visited instanceof SqlCall rewrittenCall ? call(rewrittenCall) : visited;
            }

            @Override
            public SqlNode visit(SqlIdentifier identifier) {
                return niladic(identifier).orElse(identifier);
            }
        });
        SqlNode result = rewritten == null ? statement : rewritten;
        result.accept(new SqlShuttle() {
            @Override
            public SqlNode visit(SqlCall call) {
                if (call instanceof SqlSelect select && select.getSelectList() != null) {
                    shownByName(select.getSelectList());
                }
                return super.visit(call);
            }
        });
        return result;
    }

    /**
     * A {@code regclass} or {@code regtype} a select list answers is shown by its name, as
     * PostgreSQL's output of those types is ({@code SELECT inhparent::regclass} shows
     * {@code shop.daily}); anywhere else it is the OID it stands for, to compare and join.
     */
    private static void shownByName(SqlNodeList items) {
        for (int i = 0; i < items.size(); i++) {
            SqlNode item = items.get(i);
            SqlCall as = item.getKind() == SqlKind.AS ? (SqlCall) item : null;
            SqlNode value = as == null ? item : as.operand(0);
            if (!(value instanceof SqlBasicCall call) || !(call.getOperator() instanceof SqlUnresolvedFunction)) {
                continue;
            }
            SqlParserPos pos = call.getParserPosition();
            SqlNode shown = switch (call.getOperator().getName().toLowerCase(Locale.ROOT)) {
                case "regclass" -> function("regclass_name", pos, call);
                case "regtype" -> function("format_type", pos, call, SqlLiteral.createNull(pos));
                default -> null;
            };
            if (shown != null) {
                if (as == null) {
                    items.set(i, shown);
                } else {
                    as.setOperand(0, shown);
                }
            }
        }
    }

    /** The session's values PostgreSQL writes as bare words: {@code current_user}, {@code current_schema}, ... */
    private static Optional<SqlNode> niladic(SqlIdentifier identifier) {
        if (!identifier.isSimple() || identifier.isComponentQuoted(0)) {
            return Optional.empty();
        }
        SqlParserPos pos = identifier.getParserPosition();
        return switch (identifier.getSimple().toLowerCase(Locale.ROOT)) {
            case "current_user", "session_user", "user", "current_role" -> Optional.of(function("current_user", pos));
            case "current_catalog" -> Optional.of(function("current_database", pos));
            case "current_schema" -> Optional.of(function("current_schema", pos));
            default -> Optional.empty();
        };
    }

    private static SqlNode call(SqlCall call) {
        SqlParserPos pos = call.getParserPosition();
        SqlOperator operator = call.getOperator();
        String name = operator.getName().toLowerCase(Locale.ROOT);
        if (operator == SqlStdOperatorTable.CURRENT_USER || operator == SqlStdOperatorTable.SESSION_USER
                || operator == SqlStdOperatorTable.USER || operator == SqlStdOperatorTable.CURRENT_ROLE) {
            return function("current_user", pos);
        }
        if (operator == SqlStdOperatorTable.CURRENT_CATALOG) {
            return function("current_database", pos);
        }
        if (operator == SqlLibraryOperators.INFIX_CAST && call.operandCount() == 2
                && call.operand(0) instanceof SqlBasicCall inner && inner.getOperator() instanceof SqlBinaryOperator
                && inner.operandCount() == 2) {
            // PostgreSQL's :: binds tighter than any operator: a = b::t is a = (b::t), not (a = b)::t
            SqlNode right = call(operator.createCall(pos, inner.operand(1), call.operand(1)));
            return inner.getOperator().createCall(inner.getParserPosition(), inner.operand(0), right);
        }
        if (call.getKind() == SqlKind.POSIX_REGEX_CASE_SENSITIVE || call.getKind() == SqlKind.POSIX_REGEX_CASE_INSENSITIVE) {
            // matched through the statement's guard: a pattern that backtracks for ever stops at the deadline
            SqlNode match = function("pg_regex_match", pos, call.operand(0), call.operand(1), SqlLiteral.createBoolean(
                    call.getKind() == SqlKind.POSIX_REGEX_CASE_INSENSITIVE, pos));
            return operator.getName().startsWith("NEGATED") ? SqlStdOperatorTable.NOT.createCall(pos, match) : match;
        }
        if (call.getKind() == SqlKind.BETWEEN && call.getOperator() instanceof SqlBetweenOperator between
                && between.flag == SqlBetweenOperator.Flag.ASYMMETRIC
                && (timestampText(call.operand(1)) || timestampText(call.operand(2)))) {
            // at BETWEEN '2017-04-21T05:01:17Z' AND ... (Grafana's time filter) as the two comparisons,
            // whose strings the PostgreSQL type coercion reads as PostgreSQL reads them
            SqlNode value = call.operand(0);
            return between.isNegated()
                    ? SqlStdOperatorTable.OR.createCall(pos, SqlStdOperatorTable.LESS_THAN.createCall(pos, value,
                            call.operand(1)), SqlStdOperatorTable.GREATER_THAN.createCall(pos, value, call.operand(2)))
                    : SqlStdOperatorTable.AND.createCall(pos, SqlStdOperatorTable.GREATER_THAN_OR_EQUAL.createCall(pos,
                            value, call.operand(1)), SqlStdOperatorTable.LESS_THAN_OR_EQUAL.createCall(pos, value,
                            call.operand(2)));
        }
        if (call.getKind() == SqlKind.CAST && call.operandCount() == 2 && call.operand(1) instanceof SqlDataTypeSpec type) {
            return cast(call, type, pos);
        }
        if (call.getOperator().getSyntax() != SqlSyntax.FUNCTION) {
            return call;
        }
        switch (name) {
            case "now", "transaction_timestamp", "statement_timestamp", "clock_timestamp" -> {
                if (call.operandCount() == 0) {
                    // an instant, as PostgreSQL's timestamptz: comparable with Fluss's TIMESTAMP_LTZ columns
                    return SqlStdOperatorTable.CAST.createCall(pos, SqlStdOperatorTable.CURRENT_TIMESTAMP.createCall(pos,
                            SqlLiteral.createExactNumeric("3", pos)), new SqlDataTypeSpec(
                                    new SqlBasicTypeNameSpec(
                                            SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3, pos),
                                    pos));
                }
            }
            case "date_trunc" -> {
                Optional<TimeUnit> unit = call.operandCount() == 2 && call.operand(0) instanceof SqlCharStringLiteral text
                        ? Optional.ofNullable(UNITS.get(text.getValueAs(String.class).toLowerCase(Locale.ROOT)))
                        : Optional.empty();
                if (unit.isPresent()) {
                    return SqlStdOperatorTable.FLOOR.createCall(pos, call.operand(1),
                            new SqlIntervalQualifier(unit.get(), null, pos));
                }
            }
            case "json_build_object" -> {
                List<SqlNode> operands = new ArrayList<>();
                operands.add(SqlLiteral.createSymbol(SqlJsonConstructorNullClause.NULL_ON_NULL, pos));
                operands.addAll(call.getOperandList());
                return SqlStdOperatorTable.JSON_OBJECT.createCall(pos, operands);
            }
            default -> {
                return call;
            }
        }
        return call;
    }

    private static SqlNode cast(SqlCall call, SqlDataTypeSpec type, SqlParserPos pos) {
        String target = typeName(type);
        SqlNode operand = call.operand(0);
        boolean zoned = ZONED.contains(target);
        if (zoned || target.equals("timestamp")) {
            // '2024-06-01T10:00:00'::timestamp, '...+02'::timestamptz: as PostgreSQL reads them
            // PostgreSQL's timestamps keep microseconds unless told otherwise; Calcite's keep seconds
            SqlDataTypeSpec to = new SqlDataTypeSpec(new SqlBasicTypeNameSpec(zoned
                    ? SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                    : SqlTypeName.TIMESTAMP, precision(type, 6), pos), pos);
            SqlNode value = operand instanceof SqlCharStringLiteral text
                    ? PostgresDateTimes.timestamp(text.getValueAs(String.class), zoned)
                            .<SqlNode>map(t -> SqlLiteral.createCharString(t, text.getParserPosition())).orElse(operand)
                    : operand;
            return SqlStdOperatorTable.CAST.createCall(pos, value, to);
        }
        if ((target.equals("bool") || target.equals("boolean")) && operand instanceof SqlCharStringLiteral text) {
            Optional<Boolean> value = PostgresTypeCoercion.bool(text.getValueAs(String.class));
            if (value.isPresent()) {
                return SqlLiteral.createBoolean(value.get(), pos);
            }
        }
        switch (target) {
            case "regclass", "regtype", "regproc", "regprocedure", "regnamespace" -> {
                return function(target.equals("regprocedure") ? "regproc" : target, pos, operand);
            }
            case "text", "varchar", "name", "bpchar" -> {
                // a relation's OID shown as a relation: its name
                if (operand instanceof SqlBasicCall inner && inner.getOperator() instanceof SqlUnresolvedFunction
                        && inner.getOperator().getName().equalsIgnoreCase("regclass") && inner.operandCount() == 1) {
                    return function("regclass_name", pos, inner);
                }
                // an int2vector or oidvector of the catalogs (ix.indkey::varchar) is its numbers
                // separated by spaces; Calcite casts no array to text
                if (operand instanceof SqlIdentifier column && VECTOR_COLUMNS.contains(
                        column.names.get(column.names.size() - 1).toLowerCase(Locale.ROOT))) {
                    return function("array_to_string", pos, operand, SqlLiteral.createCharString(" ", pos));
                }
                return call;
            }
            default -> {
                return call;
            }
        }
    }

    /** Whether {@code node} is a string PostgreSQL reads as a timestamp and Calcite does not ({@code T}, a zone). */
    private static boolean timestampText(SqlNode node) {
        if (!(node instanceof SqlCharStringLiteral literal)) {
            return false;
        }
        String text = literal.getValueAs(String.class);
        return PostgresDateTimes.timestamp(text, false).isPresent() && !text.strip().equals(
                PostgresDateTimes.timestamp(text, false).get());
    }

    /** The precision a type spec gives, else {@code otherwise}. */
    private static int precision(SqlDataTypeSpec type, int otherwise) {
        return type.getTypeNameSpec() instanceof SqlBasicTypeNameSpec basic
                && basic.getPrecision() >= 0 ? basic.getPrecision() : otherwise;
    }

    private static String typeName(SqlDataTypeSpec type) {
        SqlIdentifier identifier = type.getTypeNameSpec().getTypeName();
        return identifier.names.get(identifier.names.size() - 1).toLowerCase(Locale.ROOT);
    }

    private static SqlNode function(String name, SqlParserPos pos, SqlNode... operands) {
        SqlIdentifier identifier = new SqlIdentifier(name, pos);
        return new SqlBasicCall(new SqlUnresolvedFunction(identifier, null, null, null, null,
                SqlFunctionCategory.USER_DEFINED_FUNCTION), operands, pos);
    }
}
