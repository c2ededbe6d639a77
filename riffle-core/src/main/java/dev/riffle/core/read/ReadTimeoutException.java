package dev.riffle.core.read;

/** A bounded read that did not finish in time; the message names the buckets still behind. */
public final class ReadTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ReadTimeoutException(String message) {
        super(message);
    }
}
