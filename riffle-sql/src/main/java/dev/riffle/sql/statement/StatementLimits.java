package dev.riffle.sql.statement;

import dev.riffle.core.exception.InvalidOptionException;
import java.util.Properties;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * What one SQL statement may cost: before Riffle plans it, and while it runs.
 *
 * <p>Before planning: Calcite's parser takes time that grows with the square of an expression's
 * operators (a 160 KB {@code 1 + 1 + ...} parses for seconds), so a statement longer than
 * {@code maxSqlLength} characters is refused before it is parsed; and the code Calcite generates
 * for an {@code IN} list outgrows a Java method at about 5,000 values, so a longer list is refused,
 * naming the limit, before it is planned.
 *
 * <p>While running ({@link ExecutionGuard}): the rows its joins produce, the groups its aggregates
 * hold, and the rows its sorts, windows, set operations and join build sides hold. A statement
 * past one of them stops with a {@link StatementStoppedException} naming the budget, and what it
 * held is freed. The defaults of the last two follow the JVM's heap (one row or group per KiB of
 * {@code -Xmx}, at least 100,000): a Calcite row of a few columns takes a few hundred bytes, so
 * one statement holds at most about a quarter of the heap.
 *
 * <pre>{@code
 * DriverManager.getConnection("jdbc:riffle://127.0.0.1:9123;maxSqlLength=262144;maxInListSize=1000;maxJoinRows=1000000");
 * }</pre>
 *
 * @param maxSqlLength the longest statement accepted, in characters
 * @param maxInListSize the most values one {@code IN (...)} list may hold
 * @param maxJoinRows the most rows the joins of one execution may produce, together
 * @param maxGroups the most groups the aggregates of one execution may hold, together
 * @param maxHeldRows the most rows the sorts, windows, set operations and join build sides of one
 *     execution may hold, together
 */
public record StatementLimits(int maxSqlLength, int maxInListSize, long maxJoinRows, long maxGroups,
        long maxHeldRows) {
    /** The driver property that sets {@link #maxSqlLength}. */
    public static final String MAX_SQL_LENGTH = "maxSqlLength";
    /** The driver property that sets {@link #maxInListSize}. */
    public static final String MAX_IN_LIST_SIZE = "maxInListSize";
    /** The driver property that sets {@link #maxJoinRows}. */
    public static final String MAX_JOIN_ROWS = "maxJoinRows";
    /** The driver property that sets {@link #maxGroups}. */
    public static final String MAX_GROUPS = "maxGroups";
    /** The driver property that sets {@link #maxHeldRows}. */
    public static final String MAX_HELD_ROWS = "maxHeldRows";
    /**
     * The rows joins may produce by default: 100 million, which Calcite's row-at-a-time joins take
     * tens of seconds to make (a cross join of three 10,000-row tables would make 10^12).
     */
    public static final long DEFAULT_MAX_JOIN_ROWS = 100_000_000L;
    /** The rows or groups held by default: one per KiB of the JVM's maximum heap, at least 100,000. */
    public static final long DEFAULT_MAX_HELD = Math.max(100_000L, Runtime.getRuntime().maxMemory() / 1024);
    /**
     * 64 Ki characters (any hand-written or generated query; 64 Ki characters of chained additions
     * parse in about half a second), 4,096 values per {@code IN} list, and the default budgets.
     */
    public static final StatementLimits DEFAULT = new StatementLimits(65_536, 4_096, DEFAULT_MAX_JOIN_ROWS,
            DEFAULT_MAX_HELD, DEFAULT_MAX_HELD);

    public StatementLimits {
        if (maxSqlLength < 1) {
            throw new InvalidOptionException(MAX_SQL_LENGTH + " must be at least 1, got " + maxSqlLength);
        }
        if (maxInListSize < 1) {
            throw new InvalidOptionException(MAX_IN_LIST_SIZE + " must be at least 1, got " + maxInListSize);
        }
        if (maxJoinRows < 1) {
            throw new InvalidOptionException(MAX_JOIN_ROWS + " must be at least 1, got " + maxJoinRows);
        }
        if (maxGroups < 1) {
            throw new InvalidOptionException(MAX_GROUPS + " must be at least 1, got " + maxGroups);
        }
        if (maxHeldRows < 1) {
            throw new InvalidOptionException(MAX_HELD_ROWS + " must be at least 1, got " + maxHeldRows);
        }
    }

    /** These limits with another {@link #maxSqlLength}. */
    public StatementLimits withMaxSqlLength(int characters) {
        return new StatementLimits(characters, maxInListSize, maxJoinRows, maxGroups, maxHeldRows);
    }

    /** These limits with other budgets for what an execution builds. */
    public StatementLimits withBudgets(long joinRows, long groups, long heldRows) {
        return new StatementLimits(maxSqlLength, maxInListSize, joinRows, groups, heldRows);
    }

    /** The limits the driver properties set (removing them from {@code properties}), else the defaults. */
    public static StatementLimits take(Properties properties) {
        return new StatementLimits((int) number(properties, MAX_SQL_LENGTH, DEFAULT.maxSqlLength(), Integer.MAX_VALUE),
                (int) number(properties, MAX_IN_LIST_SIZE, DEFAULT.maxInListSize(), Integer.MAX_VALUE),
                number(properties, MAX_JOIN_ROWS, DEFAULT.maxJoinRows(), Long.MAX_VALUE),
                number(properties, MAX_GROUPS, DEFAULT.maxGroups(), Long.MAX_VALUE),
                number(properties, MAX_HELD_ROWS, DEFAULT.maxHeldRows(), Long.MAX_VALUE));
    }

    /** These limits as the driver properties that set them (for a server's pooled connections). */
    public Properties toProperties() {
        Properties properties = new Properties();
        properties.setProperty(MAX_SQL_LENGTH, Integer.toString(maxSqlLength));
        properties.setProperty(MAX_IN_LIST_SIZE, Integer.toString(maxInListSize));
        properties.setProperty(MAX_JOIN_ROWS, Long.toString(maxJoinRows));
        properties.setProperty(MAX_GROUPS, Long.toString(maxGroups));
        properties.setProperty(MAX_HELD_ROWS, Long.toString(maxHeldRows));
        return properties;
    }

    private static long number(Properties properties, String name, long otherwise, long max) {
        Object value = properties.remove(name);
        if (value == null) {
            return otherwise;
        }
        try {
            long parsed = Long.parseLong(value.toString().trim());
            if (parsed > max) {
                throw new InvalidOptionException("The driver property " + name + " takes at most " + max + ", got "
                        + value);
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw new InvalidOptionException("The driver property " + name + " takes a whole number, got '"
                    + value + "'", e);
        }
    }

    /**
     * Refuses a parsed statement with an {@code IN} list longer than {@link #maxInListSize}.
     *
     * @throws StatementTooLargeException naming the list's size and the limit
     */
    public void check(SqlNode statement) {
        statement.accept(new SqlBasicVisitor<Void>() {
            @Override
            public Void visit(SqlCall call) {
                if ((call.getKind() == SqlKind.IN || call.getKind() == SqlKind.NOT_IN) && call.operandCount() == 2
                        && call.operand(1) instanceof SqlNodeList list && list.size() > maxInListSize) {
                    throw new StatementTooLargeException("An IN list of " + list.size() + " values; Riffle takes "
                            + "at most " + maxInListSize + " per list (the driver property " + MAX_IN_LIST_SIZE
                            + "); read the keys from a table, or split the statement");
                }
                return super.visit(call);
            }
        });
    }

    /**
     * Refuses {@code sql} when it is too long.
     *
     * @throws StatementTooLargeException naming the length and the limit
     */
    public void check(String sql) {
        if (sql != null && sql.length() > maxSqlLength) {
            throw new StatementTooLargeException("The statement is " + sql.length() + " characters long; Riffle "
                    + "takes statements of at most " + maxSqlLength + " (the driver property " + MAX_SQL_LENGTH + ")");
        }
    }

    /** A statement over one of the connection's limits. */
    public static final class StatementTooLargeException extends IllegalArgumentException {
        StatementTooLargeException(String message) {
            super(message);
        }
    }
}
