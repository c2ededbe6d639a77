package dev.riffle.core.exception;

/**
 * A read whose options do not go together (a start offset for the current rows, a log-only read
 * of a primary-key table, a lake read of a table without a lake); the message says what would.
 */
public final class InvalidReadException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidReadException(String message) {
        super(message);
    }
}
