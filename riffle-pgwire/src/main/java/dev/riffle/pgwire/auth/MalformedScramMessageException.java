package dev.riffle.pgwire.auth;

import static java.util.Objects.requireNonNull;

/**
 * A SCRAM message that does not follow RFC 5802 as PostgreSQL speaks it (a missing attribute, a
 * nonce that is not the one agreed, channel binding the server did not offer, bytes that are not
 * UTF-8). The exchange cannot go on: the server answers a FATAL protocol violation and closes the
 * connection.
 *
 * <pre>{@code
 * throw new MalformedScramMessageException("the client-final-message has no proof (p=)");
 * }</pre>
 */
public final class MalformedScramMessageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MalformedScramMessageException(String detail) {
        super("malformed SCRAM message: " + requireNonNull(detail, "detail is null"));
    }
}
