package dev.riffle.pgwire.protocol;

/**
 * A client broke the protocol (a wrong length, an unknown startup code, a truncated field): the
 * connection cannot continue, so the server answers a FATAL error and closes it.
 */
public final class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String sqlState;

    public ProtocolException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    /** {@code 08P01} (protocol_violation) or {@code 54000} (a message over the size limit). */
    public String sqlState() {
        return sqlState;
    }
}
