package dev.riffle.core.exception;

/**
 * Start or stop offsets that cannot be read: a bucket the read does not cover, an offset below a
 * bucket's earliest, a timestamp in the future, a stop offset missing for a bucket read.
 */
public final class InvalidOffsetsException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidOffsetsException(String message) {
        super(message);
    }

    public InvalidOffsetsException(String message, Throwable cause) {
        super(message, cause);
    }
}
