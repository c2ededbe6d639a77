package dev.riffle.sql.exec;

import java.util.Properties;

/**
 * What one SQL statement may cost before Riffle plans it, checked on the text alone: Calcite's
 * parser takes time that grows with the square of an expression's operators (a 160 KB
 * {@code 1 + 1 + ...} parses for seconds), so a statement longer than {@code maxSqlLength}
 * characters is refused before it is parsed.
 *
 * <pre>{@code
 * DriverManager.getConnection("jdbc:riffle://127.0.0.1:9123;maxSqlLength=262144");
 * }</pre>
 *
 * @param maxSqlLength the longest statement accepted, in characters
 */
public record StatementLimits(int maxSqlLength) {
    /** The driver property that sets {@link #maxSqlLength}. */
    public static final String MAX_SQL_LENGTH = "maxSqlLength";
    /** 64 Ki characters: any hand-written or generated query, parsed in well under a second. */
    public static final StatementLimits DEFAULT = new StatementLimits(65_536);

    public StatementLimits {
        if (maxSqlLength < 1) {
            throw new IllegalArgumentException(MAX_SQL_LENGTH + " must be at least 1, got " + maxSqlLength);
        }
    }

    /** The limits the driver properties set (removing them from {@code properties}), else the defaults. */
    public static StatementLimits take(Properties properties) {
        Object value = properties.remove(MAX_SQL_LENGTH);
        if (value == null) {
            return DEFAULT;
        }
        try {
            return new StatementLimits(Integer.parseInt(value.toString().trim()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The driver property " + MAX_SQL_LENGTH + " takes a whole number of "
                    + "characters, got '" + value + "'", e);
        }
    }

    /**
     * Refuses {@code sql} when it is too long.
     *
     * @throws StatementTooLongException naming the length and the limit
     */
    public void check(String sql) {
        if (sql != null && sql.length() > maxSqlLength) {
            throw new StatementTooLongException("The statement is " + sql.length() + " characters long; Riffle "
                    + "takes statements of at most " + maxSqlLength + " (the driver property " + MAX_SQL_LENGTH + ")");
        }
    }

    /** A statement longer than the connection's {@link #maxSqlLength}. */
    public static final class StatementTooLongException extends IllegalArgumentException {
        StatementTooLongException(String message) {
            super(message);
        }
    }
}
