package dev.riffle.core.exception;

import static java.util.Objects.requireNonNull;

import org.apache.fluss.metadata.TablePath;

/**
 * A read or write named a table that does not exist; the message lists the tables of its
 * database (or says the database is missing too).
 */
public final class TableNotFoundException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient TablePath table;

    public TableNotFoundException(TablePath table, String message, Throwable cause) {
        super(message, cause);
        this.table = requireNonNull(table, "table is null");
    }

    public TablePath table() {
        return table;
    }
}
