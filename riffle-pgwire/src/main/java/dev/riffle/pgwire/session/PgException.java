package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

/**
 * A failure the PostgreSQL layer itself decides the SQLSTATE of (an unknown prepared statement,
 * a cancelled query, a statement Riffle does not serve), sent as an ErrorResponse.
 *
 * <pre>{@code
 * throw new PgException("26000", "prepared statement \"s1\" does not exist");
 * }</pre>
 */
public final class PgException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** canceling statement due to user request. */
    public static final String QUERY_CANCELED = "57014";
    public static final String FEATURE_NOT_SUPPORTED = "0A000";
    public static final String PROTOCOL_VIOLATION = "08P01";

    private final String sqlState;

    public PgException(String sqlState, String message) {
        super(requireNonNull(message, "message is null"));
        this.sqlState = requireNonNull(sqlState, "sqlState is null");
    }

    public String sqlState() {
        return sqlState;
    }
}
