package dev.riffle.local;

/**
 * A problem starting or running the embedded cluster that the user can fix: a port in use, a
 * data directory that cannot be written, a cluster that did not become ready. The message is
 * one line that names the problem; the cause, if any, carries the detail for the log.
 */
public final class LocalClusterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public LocalClusterException(String message) {
        super(message);
    }

    public LocalClusterException(String message, Throwable cause) {
        super(message, cause);
    }
}
