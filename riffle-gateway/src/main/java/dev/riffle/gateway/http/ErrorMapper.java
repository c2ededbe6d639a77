package dev.riffle.gateway.http;

import dev.riffle.core.fetch.FetchException;
import dev.riffle.core.read.ReadTimeoutException;
import io.javalin.http.HttpResponseException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.fluss.exception.AuthenticationException;
import org.apache.fluss.exception.AuthorizationException;
import org.apache.fluss.exception.DatabaseAlreadyExistException;
import org.apache.fluss.exception.DatabaseNotEmptyException;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.exception.DisconnectException;
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
 * The one place that turns an exception into what the client sees. Known failures keep their
 * message; anything unexpected becomes a 500 whose message carries only an id to find the stack
 * trace in the gateway's log (never the trace itself).
 */
public final class ErrorMapper {
    private static final Logger LOG = LoggerFactory.getLogger(ErrorMapper.class);

    private ErrorMapper() {}

    public static ApiException toApiException(Throwable failure) {
        Throwable e = unwrap(failure);
        if (e instanceof ApiException api) {
            return api;
        }
        if (e instanceof HttpResponseException http) {
            return fromJavalin(http);
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        // riffle-core's reader carries the server's error (an ACL denying the read, say) as the cause
        if (e instanceof FetchException && e.getCause() != null) {
            ApiException mapped = toApiException(e.getCause());
            if (mapped.status() != 500) {
                return new ApiException(mapped.status(), mapped.code(), message, mapped.details(), e);
            }
        }
        if (e instanceof DatabaseNotExistException) {
            return new ApiException(404, "database_not_found", message);
        }
        if (e instanceof TableNotExistException) {
            return new ApiException(404, "table_not_found", message);
        }
        if (e instanceof PartitionNotExistException) {
            return new ApiException(404, "partition_not_found", message);
        }
        if (e instanceof DatabaseAlreadyExistException) {
            return new ApiException(409, "database_exists", message);
        }
        if (e instanceof TableAlreadyExistException) {
            return new ApiException(409, "table_exists", message);
        }
        if (e instanceof PartitionAlreadyExistsException) {
            return new ApiException(409, "partition_exists", message);
        }
        if (e instanceof DatabaseNotEmptyException) {
            return new ApiException(409, "database_not_empty", message + " (drop it with ?cascade=true)");
        }
        if (e instanceof NonPrimaryKeyTableException) {
            return new ApiException(400, "not_a_primary_key_table", message);
        }
        if (e instanceof TableNotPartitionedException) {
            return new ApiException(400, "table_not_partitioned", message);
        }
        if (e instanceof InvalidTableException || e instanceof InvalidDatabaseException
                || e instanceof InvalidConfigException || e instanceof InvalidPartitionException
                || e instanceof InvalidReplicationFactorException || e instanceof TooManyBucketsException
                || e instanceof TooManyPartitionsException || e instanceof InvalidColumnProjectionException
                || e instanceof InvalidTargetColumnException || e instanceof InvalidTimestampException
                || e instanceof ValidationException || e instanceof IllegalArgumentException) {
            return new ApiException(400, "invalid_request", message);
        }
        if (e instanceof RecordTooLargeException) {
            return new ApiException(413, "record_too_large", message);
        }
        if (e instanceof AuthenticationException) {
            return new ApiException(401, "unauthenticated", message);
        }
        if (e instanceof AuthorizationException) {
            return new ApiException(403, "forbidden", message);
        }
        if (e instanceof ReadTimeoutException || e instanceof TimeoutException
                || e instanceof java.util.concurrent.TimeoutException) {
            return new ApiException(504, "timeout", message);
        }
        if (e instanceof NetworkException || e instanceof DisconnectException) {
            return new ApiException(503, "cluster_unavailable", "The Fluss cluster is not reachable: " + message);
        }
        // The Fluss client wraps some failures (opening a table, a connection) in its own runtime exceptions.
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof AuthenticationException || cause instanceof AuthorizationException) {
                ApiException mapped = toApiException(cause);
                if (mapped.status() != 500) {
                    return mapped;
                }
            }
        }
        String id = UUID.randomUUID().toString().substring(0, 8);
        LOG.error("Internal error {}", id, failure);
        return new ApiException(500, "internal_error",
                "Internal error; the gateway log has the details under error id " + id);
    }

    /** The failure inside the wrappers that futures and reflection put around it. */
    public static Throwable unwrap(Throwable failure) {
        Throwable e = failure;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static ApiException fromJavalin(HttpResponseException http) {
        int status = http.getStatus();
        String code = switch (status) {
            case 404 -> "route_not_found";
            case 405 -> "method_not_allowed";
            case 413 -> "payload_too_large";
            case 415 -> "unsupported_media_type";
            default -> "http_" + status;
        };
        Map<String, Object> details = Map.of();
        return new ApiException(status, code, http.getMessage(), details, http);
    }
}
