package dev.riffle.gateway.rows;

/** A value that does not fit its column; the caller adds the row and column to the message. */
final class BadValueException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BadValueException(String message) {
        super(message);
    }
}
