package dev.riffle.server.failure;

import dev.riffle.core.exception.ColumnNotFoundException;
import dev.riffle.core.exception.DatabaseNotFoundException;
import dev.riffle.core.exception.InvalidAlterationException;
import dev.riffle.core.exception.InvalidOffsetsException;
import dev.riffle.core.exception.InvalidOptionException;
import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.core.exception.InvalidStatementException;
import dev.riffle.core.exception.InvalidTypeException;
import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.exception.LogExpiredException;
import dev.riffle.core.exception.PartitionNotFoundException;
import dev.riffle.core.exception.RemoteStorageUnavailableException;
import dev.riffle.core.exception.TableNotFoundException;
import dev.riffle.core.exception.UnsupportedTableException;
import dev.riffle.core.log.CorruptLogException;
import dev.riffle.core.read.ReadTimeoutException;
import dev.riffle.core.rpc.FetchException;
import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.sql.statement.StatementStoppedException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import org.apache.fluss.exception.AuthenticationException;
import org.apache.fluss.exception.AuthorizationException;
import org.apache.fluss.exception.DatabaseAlreadyExistException;
import org.apache.fluss.exception.DatabaseNotEmptyException;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.exception.DisconnectException;
import org.apache.fluss.exception.InvalidAlterTableException;
import org.apache.fluss.exception.InvalidColumnProjectionException;
import org.apache.fluss.exception.InvalidConfigException;
import org.apache.fluss.exception.InvalidDatabaseException;
import org.apache.fluss.exception.InvalidPartitionException;
import org.apache.fluss.exception.InvalidReplicationFactorException;
import org.apache.fluss.exception.InvalidTableException;
import org.apache.fluss.exception.InvalidTargetColumnException;
import org.apache.fluss.exception.InvalidTimestampException;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.exception.NonPrimaryKeyTableException;
import org.apache.fluss.exception.PartitionAlreadyExistsException;
import org.apache.fluss.exception.PartitionNotExistException;
import org.apache.fluss.exception.RecordTooLargeException;
import org.apache.fluss.exception.TableAlreadyExistException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.exception.TableNotPartitionedException;
import org.apache.fluss.exception.TimeoutException;
import org.apache.fluss.exception.TooManyBucketsException;
import org.apache.fluss.exception.TooManyPartitionsException;
import org.apache.fluss.metadata.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that classifies what went wrong, for every surface: Riffle's own exceptions,
 * Fluss's, and the server layer's. Known failures keep their message; anything else is
 * {@link FailureKind#INTERNAL} with a message that carries only an id, under which the stack
 * trace is logged (never sent).
 *
 * <pre>{@code
 * Failure failure = Failures.classify(e);   // e.g. NOT_FOUND "table_not_found" "Table shop.x does not exist; ..."
 * }</pre>
 */
public final class Failures {
    private static final Logger LOG = LoggerFactory.getLogger(Failures.class);

    /** A classified failure: its kind, a stable code, and the message a client sees. */
    public record Failure(FailureKind kind, String code, String message, java.util.Map<String, Object> details) {}

    private Failures() {}

    public static Failure classify(Throwable failure) {
        Optional<Failure> stopped = stopped(failure);
        if (stopped.isPresent()) {
            return stopped.get();
        }
        Throwable e = FlussErrors.unwrap(failure);
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof ServiceException service) {
            return new Failure(service.kind(), service.code(), message, service.details());
        }
        // riffle-core's reader carries the server's error (an ACL denying the read, say) as the cause.
        if (e instanceof FetchException && e.getCause() != null) {
            Failure cause = classify(e.getCause());
            if (cause.kind() != FailureKind.INTERNAL) {
                return new Failure(cause.kind(), cause.code(), message, cause.details());
            }
        }
        Failure known = known(e, message);
        if (known != null) {
            return known;
        }
        // The Fluss client wraps some failures (opening a table, a connection) in its own runtime exceptions.
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof AuthenticationException || cause instanceof AuthorizationException) {
                return known(cause, cause.getMessage());
            }
        }
        String id = UUID.randomUUID().toString().substring(0, 8);
        LOG.error("Internal error {}", id, failure);
        return new Failure(FailureKind.INTERNAL, "internal_error",
                "Internal error; the server log has the details under error id " + id, java.util.Map.of());
    }

    /**
     * The failure of a statement its guard stopped, wherever in {@code failure}'s causes the stop
     * is: past its deadline a timeout, cancelled a cancel, over a budget too large.
     */
    static Optional<Failure> stopped(Throwable failure) {
        return StatementStoppedException.in(failure).map(stop -> switch (stop.reason()) {
            case TIMEOUT -> failure(FailureKind.TIMEOUT, "statement_timeout", stop.getMessage());
            case CANCELLED -> failure(FailureKind.CANCELLED, "statement_cancelled", stop.getMessage());
            case BUDGET -> failure(FailureKind.TOO_LARGE, "statement_budget_exceeded", stop.getMessage());
        });
    }

    private static Failure known(Throwable e, String message) {
        if (e instanceof TableNotFoundException || e instanceof TableNotExistException) {
            return failure(FailureKind.NOT_FOUND, "table_not_found", message);
        }
        if (e instanceof DatabaseNotExistException || e instanceof DatabaseNotFoundException) {
            return failure(FailureKind.NOT_FOUND, "database_not_found", message);
        }
        if (e instanceof PartitionNotFoundException) {
            return failure(FailureKind.INVALID_ARGUMENT, "partition_not_found", message);
        }
        if (e instanceof PartitionNotExistException) {
            return failure(FailureKind.NOT_FOUND, "partition_not_found", message);
        }
        if (e instanceof ColumnNotFoundException) {
            return failure(FailureKind.INVALID_ARGUMENT, "column_not_found", message);
        }
        if (e instanceof InvalidOffsetsException) {
            return failure(FailureKind.INVALID_ARGUMENT, "invalid_offsets", message);
        }
        if (e instanceof LogExpiredException) {
            return failure(FailureKind.CONFLICT, "log_expired", message);
        }
        if (e instanceof RemoteStorageUnavailableException) {
            return failure(FailureKind.UNAVAILABLE, "remote_storage_unavailable", message);
        }
        if (e instanceof InvalidTypeException) {
            return failure(FailureKind.INVALID_ARGUMENT, "invalid_type", message);
        }
        if (e instanceof InvalidAlterationException) {
            return failure(FailureKind.INVALID_ARGUMENT, "invalid_alteration", message);
        }
        if (e instanceof InvalidReadException) {
            return failure(FailureKind.INVALID_ARGUMENT, "invalid_request", message);
        }
        if (e instanceof InvalidValueException) {
            // A cause says more finely how the value does not fit (out of range, not a number, not a
            // regular expression), as it does when a statement computes such a value itself.
            Optional<Failure> finer = e.getCause() == null ? Optional.empty() : StatementFault.of(e.getCause(), message);
            return finer.orElseGet(() -> failure(FailureKind.INVALID_ARGUMENT, "invalid_value", message));
        }
        if (e instanceof InvalidStatementException) {
            return failure(FailureKind.INVALID_ARGUMENT, "invalid_statement", message);
        }
        if (e instanceof InvalidOptionException) {
            return failure(FailureKind.INVALID_ARGUMENT, "invalid_option", message);
        }
        if (e instanceof UnsupportedTableException) {
            return failure(FailureKind.INVALID_ARGUMENT, "unsupported", message);
        }
        if (e instanceof DatabaseAlreadyExistException) {
            return failure(FailureKind.CONFLICT, "database_exists", message);
        }
        if (e instanceof TableAlreadyExistException) {
            return failure(FailureKind.CONFLICT, "table_exists", message);
        }
        if (e instanceof PartitionAlreadyExistsException) {
            return failure(FailureKind.CONFLICT, "partition_exists", message);
        }
        if (e instanceof DatabaseNotEmptyException) {
            return failure(FailureKind.CONFLICT, "database_not_empty", message + " (drop it with ?cascade=true)");
        }
        if (e instanceof NonPrimaryKeyTableException) {
            return failure(FailureKind.INVALID_ARGUMENT, "not_a_primary_key_table", message);
        }
        if (e instanceof TableNotPartitionedException) {
            return failure(FailureKind.INVALID_ARGUMENT, "table_not_partitioned", message);
        }
        if (e instanceof InvalidTableException || e instanceof InvalidDatabaseException
                || e instanceof InvalidConfigException || e instanceof InvalidPartitionException
                || e instanceof InvalidReplicationFactorException || e instanceof TooManyBucketsException
                || e instanceof TooManyPartitionsException || e instanceof InvalidColumnProjectionException
                || e instanceof InvalidTargetColumnException || e instanceof InvalidTimestampException
                || e instanceof InvalidAlterTableException || e instanceof ValidationException) {
            return failure(FailureKind.INVALID_ARGUMENT, "invalid_request", message);
        }
        if (e instanceof RecordTooLargeException) {
            return failure(FailureKind.TOO_LARGE, "record_too_large", message);
        }
        if (e instanceof AuthenticationException) {
            return failure(FailureKind.UNAUTHENTICATED, "unauthenticated", message);
        }
        if (e instanceof AuthorizationException || e instanceof SecurityException) {
            return failure(FailureKind.PERMISSION_DENIED, "forbidden", message);
        }
        if (e instanceof ReadTimeoutException || e instanceof TimeoutException
                || e instanceof java.util.concurrent.TimeoutException) {
            return failure(FailureKind.TIMEOUT, "timeout", message);
        }
        if (e instanceof CancellationException) {
            return failure(FailureKind.CANCELLED, "cancelled", message);
        }
        if (e instanceof NetworkException || e instanceof DisconnectException) {
            return failure(FailureKind.UNAVAILABLE, "cluster_unavailable", "The Fluss cluster is not reachable: "
                    + message);
        }
        if (e instanceof CorruptLogException) {
            return failure(FailureKind.INTERNAL, "corrupt_log", message);
        }
        // What the Fluss client calls retriable (a leader not yet elected or not in its metadata, a
        // server that stopped answering) and still failed after Riffle's own retries is the
        // cluster's state at that moment: the caller may try again, so it is not an internal error.
        if (FlussErrors.isRetriable(e)) {
            return failure(FailureKind.UNAVAILABLE, "cluster_unavailable", "The Fluss cluster cannot serve this now"
                    + " (retry shortly): " + message);
        }
        return null;
    }

    private static Failure failure(FailureKind kind, String code, String message) {
        return new Failure(kind, code, message, java.util.Map.of());
    }

}
