package dev.riffle.core.log;

/** Log bytes that do not follow the Fluss record batch format Riffle understands. */
public final class CorruptLogException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CorruptLogException(String message) {
        super(message);
    }

    public CorruptLogException(String message, Throwable cause) {
        super(message, cause);
    }
}
