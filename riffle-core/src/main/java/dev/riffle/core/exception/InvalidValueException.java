package dev.riffle.core.exception;

/**
 * A value that does not fit the column it is written to (out of range, more decimal digits than
 * the type keeps, the wrong length, a null where none is allowed); the message says which and why.
 */
public final class InvalidValueException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidValueException(String message) {
        super(message);
    }

    /** @param cause how it does not fit, when a parser or arithmetic said so (a number out of range, text that is no number) */
    public InvalidValueException(String message, Throwable cause) {
        super(message, cause);
    }
}
