package dev.riffle.core.exception;

/**
 * A table Riffle cannot read this way: a log format other than ARROW for Riffle's own log reader,
 * a lake format without a plugin, a cluster that names no lake.
 */
public final class UnsupportedTableException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    public UnsupportedTableException(String message) {
        super(message);
    }

    public UnsupportedTableException(String message, Throwable cause) {
        super(message, cause);
    }
}
