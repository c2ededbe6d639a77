package dev.riffle.core.exception;

/**
 * Rows a read needs are no longer in Fluss: the log of a bucket expired ({@code table.log.ttl})
 * past what its KV snapshot covers, so the bucket's current rows cannot be rebuilt from Fluss
 * alone. Reads fail with this rather than answer without the keys that lived in the expired
 * segments; the message says which bucket and what would help.
 */
public final class LogExpiredException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public LogExpiredException(String message, Throwable cause) {
        super(message, cause);
    }
}
