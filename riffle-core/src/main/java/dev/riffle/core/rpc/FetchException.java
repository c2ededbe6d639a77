package dev.riffle.core.rpc;

/** A bucket that cannot be read: the message names the table, the bucket, the offset and why. */
public final class FetchException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public FetchException(String message) {
        super(message);
    }

    /** With the server's error as the cause, so callers can tell an authorization failure from the rest. */
    public FetchException(String message, Throwable cause) {
        super(message, cause);
    }
}
