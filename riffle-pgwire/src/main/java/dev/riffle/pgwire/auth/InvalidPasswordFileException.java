package dev.riffle.pgwire.auth;

import static java.util.Objects.requireNonNull;

/**
 * A password file (or map) the PostgreSQL server cannot use: a line that is not
 * {@code user:password}, an empty user or password, a user named twice. The message names the
 * file and line, never the password.
 *
 * <pre>{@code
 * throw new InvalidPasswordFileException("users.txt, line 3: expected user:password");
 * }</pre>
 */
public final class InvalidPasswordFileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public InvalidPasswordFileException(String message) {
        super(requireNonNull(message, "message is null"));
    }
}
