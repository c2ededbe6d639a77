package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A whole JSON answer of a request answered outside Javalin (the point lookups): its status, its
 * body, the rows it read, and its error code when it is the error envelope. What the route's
 * metrics record once it is sent.
 *
 * <pre>{@code
 * JsonAnswer answer = failure == null ? JsonAnswer.ok(json, 1) : JsonAnswer.error(ErrorMapper.toApiException(failure));
 * }</pre>
 *
 * <p>Its {@code equals} compares the body by identity (a record's array component); answers are
 * sent, not compared.
 *
 * @param rows the rows it read, or -1 when it read none (an error)
 */
public record JsonAnswer(int status, byte[] json, long rows, Optional<String> errorCode) {
    public JsonAnswer {
        requireNonNull(json, "json is null");
        requireNonNull(errorCode, "errorCode is null");
    }

    /** A 200 with {@code json}, which holds {@code rows} rows. */
    public static JsonAnswer ok(byte[] json, long rows) {
        return new JsonAnswer(200, json, rows, Optional.empty());
    }

    /** The error envelope of {@code error}, with its status. */
    public static JsonAnswer error(ApiException error) {
        return new JsonAnswer(error.status(), Render.errorJson(error), -1, Optional.of(error.code()));
    }

    /** The error envelope of whatever {@code failure} is ({@link ErrorMapper}). */
    public static JsonAnswer failure(Throwable failure) {
        return error(ErrorMapper.toApiException(failure));
    }
}
