package dev.riffle.server.failure;

import dev.riffle.server.failure.Failures.Failure;
import java.sql.SQLException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.fluss.exception.AuthenticationException;
import org.apache.fluss.exception.AuthorizationException;

/**
 * A failed SQL statement, classified once for every surface (HTTP, Flight SQL, PostgreSQL): a
 * Fluss failure beneath the SQL layer is classified as the other requests classify it (an ACL
 * that denies the caller stays a permission failure however deep Calcite wraps it); an unknown
 * table is not found; any other failure of the statement itself is an invalid argument, with the
 * reason Calcite buries in its causes; a failure of the server (a busy pool) keeps its own kind.
 *
 * <pre>{@code
 * Failure failure = SqlFailures.classify(e, sql); // e.g. NOT_FOUND "table_not_found" "Object 'x' not found within 'shop'"
 * }</pre>
 */
public final class SqlFailures {
    /** Calcite's messages quote the whole statement; the client sent it and needs only its start. */
    private static final int QUOTED_SQL = 200;
    private static final Pattern TABLE_NOT_FOUND = Pattern.compile("(Object|Table) '([^']+)' not found");

    private SqlFailures() {}

    public static Failure classify(Exception e, String sql) {
        java.util.Optional<Failure> stopped = Failures.stopped(e);
        if (stopped.isPresent()) {
            return stopped.get();
        }
        Failure fluss = flussFailure(e);
        if (fluss != null) {
            return fluss;
        }
        String message = sql.length() > QUOTED_SQL ? message(e).replace(sql, sql.substring(0, QUOTED_SQL) + "...")
                : message(e);
        Matcher notFound = TABLE_NOT_FOUND.matcher(message);
        if (notFound.find()) {
            return new Failure(FailureKind.NOT_FOUND, "table_not_found", message, Map.of());
        }
        java.util.Optional<Failure> fault = StatementFault.of(e, message);
        if (fault.isPresent()) {
            return fault.get();
        }
        if (e instanceof ServiceException || (!(e instanceof SQLException) && !(e instanceof IllegalArgumentException))) {
            // A failure of the server itself (a busy pool, say), not of the statement.
            return Failures.classify(e);
        }
        return new Failure(FailureKind.INVALID_ARGUMENT, "sql_error", message, Map.of());
    }

    private static Failure flussFailure(Exception e) {
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof AuthorizationException || cause instanceof AuthenticationException
                    || cause instanceof SecurityException) {
                return Failures.classify(cause);
            }
        }
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getClass().getName().startsWith("org.apache.fluss.exception.")
                    || cause.getClass().getName().startsWith("dev.riffle.core.exception.")) {
                Failure mapped = Failures.classify(cause);
                if (mapped.kind() != FailureKind.INTERNAL) {
                    return mapped;
                }
            }
        }
        return null;
    }

    /**
     * The driver's message with the reason beneath it: Calcite says "Error while preparing
     * statement [..]" and puts the why ("Object 'x' not found within 'db'") in the causes.
     */
    private static String message(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        String reason = null;
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !message.contains(cause.getMessage())) {
                reason = cause.getMessage();
            }
        }
        return withoutAlternatives(reason == null ? message : message + ": " + reason);
    }

    /**
     * A syntax error as the parser words it, without the list of every token it would have taken
     * ("Was expecting one of: ..." runs to a hundred lines): where, and what it met, says enough.
     */
    static String withoutAlternatives(String message) {
        int list = message.indexOf("\nWas expecting");
        return list < 0 ? message : message.substring(0, list).strip();
    }
}
