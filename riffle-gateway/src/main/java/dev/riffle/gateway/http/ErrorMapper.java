package dev.riffle.gateway.http;

import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.Failures;
import io.javalin.http.HttpResponseException;
import java.util.Map;

/**
 * The one place that turns an exception into what an HTTP client sees: the server layer's
 * classification ({@link Failures}) as a status, with its code and message. Anything unexpected is
 * a 500 whose message carries only an id to find the stack trace in the log (never the trace).
 */
public final class ErrorMapper {
    private ErrorMapper() {}

    public static ApiException toApiException(Throwable failure) {
        Throwable e = FlussErrors.unwrap(failure);
        if (e instanceof ApiException api) {
            return api;
        }
        if (e instanceof HttpResponseException http) {
            return fromJavalin(http);
        }
        Failures.Failure classified = Failures.classify(e);
        return new ApiException(status(classified.kind()), classified.code(), classified.message(),
                classified.details(), e);
    }

    /** The HTTP status of each kind of failure. */
    public static int status(FailureKind kind) {
        return switch (kind) {
            case INVALID_ARGUMENT -> 400;
            case UNAUTHENTICATED -> 401;
            case PERMISSION_DENIED -> 403;
            case NOT_FOUND -> 404;
            case CONFLICT -> 409;
            case TOO_LARGE -> 413;
            case CANCELLED -> 499;
            case UNAVAILABLE -> 503;
            case TIMEOUT -> 504;
            case INTERNAL -> 500;
        };
    }

    private static ApiException fromJavalin(HttpResponseException http) {
        int status = http.getStatus();
        String code = switch (status) {
            case 404 -> "route_not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 413 -> "payload_too_large";
            case 415 -> "unsupported_media_type";
            default -> "http_" + status;
        };
        return new ApiException(status, code, http.getMessage(), Map.of(), http);
    }
}
