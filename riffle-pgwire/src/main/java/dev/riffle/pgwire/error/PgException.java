package dev.riffle.pgwire.error;

import static java.util.Objects.requireNonNull;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(PgException.class);

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

    /**
     * A statement the SQL engine could not plan: one whose parsing or planning recursed past the
     * stack (PostgreSQL's 54001), or one Calcite met a case it has no code for (an assertion of
     * its own fails): 0A000 with Calcite's words, not an internal error of the server.
     */
    public static PgException unplannable(Error e) {
        if (e instanceof StackOverflowError) {
            return new PgException("54001", "statement too complex: its expressions nest too deeply to plan");
        }
        LOG.warn("A statement the SQL engine cannot plan", e);
        return new PgException(FEATURE_NOT_SUPPORTED, "Riffle cannot run this statement: " + e.getMessage());
    }

    /** A statement as an error message quotes it: on one line, its first 80 characters. */
    public static String quoted(String sql) {
        String flat = sql.strip().replaceAll("\\s+", " ");
        return flat.length() > 80 ? flat.substring(0, 80) + "..." : flat;
    }
}
