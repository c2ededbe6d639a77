package dev.riffle.pgwire.error;

import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.core.write.WriteNotAcknowledgedException;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.protocol.ProtocolException;
import dev.riffle.pgwire.types.InvalidParameterException;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.Failures;
import dev.riffle.server.failure.SqlFailures;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Failures as PostgreSQL ErrorResponses, classified as every Riffle surface classifies them
 * ({@link Failures}, {@link SqlFailures} for statements), with the SQLSTATE a PostgreSQL client
 * acts on: 42601 syntax error, 42P01 undefined table, 42703 undefined column, 22P02 a parameter
 * that is not a value of its type, 28P01 a password Fluss refuses, 42501 a Fluss ACL denial,
 * 22012 division by zero, 22003 a number out of range, 22007 a date or time that is none, 21000 a
 * subquery of more than one row, 42883 an unknown function, 42803 a grouping error, 0A000 what
 * Riffle does not serve, 40003 rows written together that Fluss did not all acknowledge, 57014 cancelled or timed out, 54000 a per-request limit, 53000 a busy server, XX000 an internal
 * error (whose message carries only an id; the stack trace stays in the server log).
 *
 * <pre>{@code
 * BackendMessage.ErrorResponse error = PgErrors.toError(e, Optional.of(sql));
 * }</pre>
 */
public final class PgErrors {
    private static final Pattern UNKNOWN_COLUMN = Pattern.compile(
            "Column '[^']+' not found|column '[^']+' not found|Unknown column|Unknown field|Field '[^']+' not found",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern SYNTAX = Pattern.compile(
            "Encountered \"|parse failed|Non-query expression encountered|Incorrect syntax|Lexical error"
                    + "|Unexpected end of|cannot parse|Parse error",
            Pattern.CASE_INSENSITIVE);

    private PgErrors() {}

    /** {@code failure} as an ERROR; {@code sql} is the statement it came from, if any. */
    public static BackendMessage.ErrorResponse toError(Throwable failure, Optional<String> sql) {
        Throwable e = FlussErrors.unwrap(failure);
        if (e instanceof PgException pg) {
            return error(pg.sqlState(), pg.getMessage());
        }
        if (e instanceof ProtocolException protocol) {
            return new BackendMessage.ErrorResponse("FATAL", protocol.sqlState(), protocol.getMessage());
        }
        if (e instanceof WriteNotAcknowledgedException unacknowledged) {
            return error("40003", unacknowledged.getMessage()); // statement_completion_unknown
        }
        if (e instanceof InvalidParameterException invalid) {
            return error("22P02", invalid.getMessage());
        }
        Failures.Failure classified = sql.isPresent() && e instanceof Exception exception
                ? SqlFailures.classify(exception, sql.get())
                : Failures.classify(e);
        return error(sqlState(classified, e), classified.message());
    }

    static String sqlState(Failures.Failure failure, Throwable e) {
        return switch (failure.kind()) {
            case NOT_FOUND -> switch (failure.code()) {
                case "table_not_found" -> "42P01";
                case "database_not_found" -> "3F000";
                default -> "42704";
            };
            case INVALID_ARGUMENT -> invalid(failure, e);
            case CONFLICT -> switch (failure.code()) {
                case "table_exists" -> "42P07";
                case "database_exists" -> "42P06";
                default -> "55000";
            };
            case UNAUTHENTICATED -> "28P01";
            case PERMISSION_DENIED -> "42501";
            case TOO_LARGE -> failure.code().equals("statement_too_complex") ? "54001" : "54000";
            case UNAVAILABLE -> "53000";
            case TIMEOUT, CANCELLED -> PgException.QUERY_CANCELED;
            case INTERNAL -> "XX000";
        };
    }

    private static String invalid(Failures.Failure failure, Throwable e) {
        switch (failure.code()) {
            case "division_by_zero":
                return "22012";
            case "numeric_out_of_range":
                return "22003";
            case "invalid_text_representation":
                return "22P02";
            case "invalid_datetime":
                return "22007";
            case "cardinality_violation":
                return "21000";
            case "feature_not_supported", "unsupported":
                return PgException.FEATURE_NOT_SUPPORTED;
            case "invalid_statement":
                // a statement that cannot run as written: PostgreSQL's class 42, as any statement
                // the SQL layer refuses
                return "42000";
            case "undefined_function":
                return "42883";
            case "grouping_error":
                return "42803";
            case "invalid_regular_expression":
                return "2201B";
            default:
                break;
        }
        if (failure.code().equals("column_not_found") || UNKNOWN_COLUMN.matcher(failure.message()).find()) {
            return "42703";
        }
        for (Throwable cause = e; cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getClass().getName().endsWith("SqlParseException")) {
                return "42601";
            }
        }
        if (SYNTAX.matcher(failure.message()).find()) {
            return "42601";
        }
        return failure.kind() == FailureKind.INVALID_ARGUMENT && failure.code().equals("sql_error") ? "42000" : "22023";
    }

    private static BackendMessage.ErrorResponse error(String sqlState, String message) {
        return new BackendMessage.ErrorResponse("ERROR", sqlState, message);
    }
}
