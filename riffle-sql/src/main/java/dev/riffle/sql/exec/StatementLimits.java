package dev.riffle.sql.exec;

import java.util.Properties;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.util.SqlBasicVisitor;

/**
 * What one SQL statement may cost before Riffle plans it. Calcite's parser takes time that grows
 * with the square of an expression's operators (a 160 KB {@code 1 + 1 + ...} parses for seconds),
 * so a statement longer than {@code maxSqlLength} characters is refused before it is parsed; and
 * the code Calcite generates for an {@code IN} list outgrows a Java method at about 5,000 values,
 * so a longer list is refused, naming the limit, before it is planned.
 *
 * <pre>{@code
 * DriverManager.getConnection("jdbc:riffle://127.0.0.1:9123;maxSqlLength=262144;maxInListSize=1000");
 * }</pre>
 *
 * @param maxSqlLength the longest statement accepted, in characters
 * @param maxInListSize the most values one {@code IN (...)} list may hold
 */
public record StatementLimits(int maxSqlLength, int maxInListSize) {
    /** The driver property that sets {@link #maxSqlLength}. */
    public static final String MAX_SQL_LENGTH = "maxSqlLength";
    /** The driver property that sets {@link #maxInListSize}. */
    public static final String MAX_IN_LIST_SIZE = "maxInListSize";
    /**
     * 64 Ki characters (any hand-written or generated query; 64 Ki characters of chained additions
     * parse in about half a second) and 4,096 values per {@code IN} list.
     */
    public static final StatementLimits DEFAULT = new StatementLimits(65_536, 4_096);

    public StatementLimits {
        if (maxSqlLength < 1) {
            throw new IllegalArgumentException(MAX_SQL_LENGTH + " must be at least 1, got " + maxSqlLength);
        }
        if (maxInListSize < 1) {
            throw new IllegalArgumentException(MAX_IN_LIST_SIZE + " must be at least 1, got " + maxInListSize);
        }
    }

    /** These limits with another {@link #maxSqlLength}. */
    public StatementLimits withMaxSqlLength(int characters) {
        return new StatementLimits(characters, maxInListSize);
    }

    /** The limits the driver properties set (removing them from {@code properties}), else the defaults. */
    public static StatementLimits take(Properties properties) {
        return new StatementLimits(number(properties, MAX_SQL_LENGTH, DEFAULT.maxSqlLength()),
                number(properties, MAX_IN_LIST_SIZE, DEFAULT.maxInListSize()));
    }

    private static int number(Properties properties, String name, int otherwise) {
        Object value = properties.remove(name);
        if (value == null) {
            return otherwise;
        }
        try {
            return Integer.parseInt(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The driver property " + name + " takes a whole number, got '"
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
