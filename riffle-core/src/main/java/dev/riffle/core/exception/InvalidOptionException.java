package dev.riffle.core.exception;

/**
 * A setting Riffle does not take: an unknown name, or a value outside what it allows (a driver
 * property, a statement limit, a session parameter, a table option); the message names the
 * setting and what it takes.
 */
public final class InvalidOptionException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidOptionException(String message) {
        super(message);
    }

    public InvalidOptionException(String message, Throwable cause) {
        super(message, cause);
    }
}
