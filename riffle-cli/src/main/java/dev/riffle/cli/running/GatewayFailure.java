package dev.riffle.cli.running;

import static java.util.Objects.requireNonNull;

/**
 * An error answer of a running gateway: its HTTP status, and the code and message of its error
 * envelope ({@code {"error": {"code": "table_not_found", "message": "..."}}}), which the command
 * prints as it prints its own failures.
 */
public final class GatewayFailure extends RuntimeException {
    private final int status;
    private final String code;

    public GatewayFailure(int status, String code, String message) {
        super(requireNonNull(message, "message is null"));
        this.status = status;
        this.code = requireNonNull(code, "code is null");
    }

    /** The HTTP status, e.g. 404. */
    public int status() {
        return status;
    }

    /** The error's code, e.g. {@code table_not_found}. */
    public String code() {
        return code;
    }
}
