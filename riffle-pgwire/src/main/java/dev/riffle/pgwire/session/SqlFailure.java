package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

/**
 * A statement's failure in the SQL layer, carried to the error mapping with the statement it came
 * from (the ErrorResponse quotes it, and classifies the failure as the statement's, not the
 * server's).
 *
 * <pre>{@code
 * throw new SqlFailure(sqlException, "SELECT 1 / 0");
 * }</pre>
 */
final class SqlFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String sql;

    SqlFailure(Exception cause, String sql) {
        super(cause.getMessage(), requireNonNull(cause, "cause is null"));
        this.sql = requireNonNull(sql, "sql is null");
    }

    String sql() {
        return sql;
    }
}
