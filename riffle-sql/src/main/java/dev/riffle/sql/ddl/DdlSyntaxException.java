package dev.riffle.sql.ddl;

/** A DDL statement Riffle cannot parse; the message says where and what was expected. */
public final class DdlSyntaxException extends IllegalArgumentException {
    public DdlSyntaxException(String message) {
        super(message);
    }
}
