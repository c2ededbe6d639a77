package dev.riffle.core.exception;

/**
 * A SQL statement Riffle cannot run as written: what it asks of a Fluss table is not possible
 * (changing a primary-key column, a write whose key is not known exactly), a table definition
 * Fluss refuses, or a part of it left out (a parameter not bound); the message says which.
 */
public final class InvalidStatementException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidStatementException(String message) {
        super(message);
    }

    public InvalidStatementException(String message, Throwable cause) {
        super(message, cause);
    }
}
