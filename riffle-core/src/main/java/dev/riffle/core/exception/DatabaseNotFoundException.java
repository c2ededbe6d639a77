package dev.riffle.core.exception;

/** A read or write named a database that does not exist; the message lists the databases that do. */
public final class DatabaseNotFoundException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public DatabaseNotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
