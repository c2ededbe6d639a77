package dev.riffle.core.exception;

/**
 * A read named a column its table does not have, or named one twice; the message names the
 * column, the columns that exist and the table, as Fluss's own errors do.
 */
public final class ColumnNotFoundException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public ColumnNotFoundException(String message) {
        super(message);
    }
}
