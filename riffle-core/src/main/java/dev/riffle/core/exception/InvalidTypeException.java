package dev.riffle.core.exception;

/** A column type written in a form that is not a Fluss type; the message names the column and the types there are. */
public final class InvalidTypeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidTypeException(String message) {
        super(message);
    }

    public InvalidTypeException(String message, Throwable cause) {
        super(message, cause);
    }
}
