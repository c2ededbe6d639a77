package dev.riffle.server.failure;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * A failure the server layer decides itself (a busy SQL pool, missing credentials, a request over
 * a limit), with its kind and a stable code; each surface answers it as it answers any other.
 *
 * <pre>{@code
 * throw new ServiceException(FailureKind.UNAVAILABLE, "busy", "Every SQL connection stayed busy for PT60S");
 * }</pre>
 */
public class ServiceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final FailureKind kind;
    private final String code;
    private final transient Map<String, Object> details;

    public ServiceException(FailureKind kind, String code, String message) {
        this(kind, code, message, Map.of(), null);
    }

    public ServiceException(FailureKind kind, String code, String message, Map<String, Object> details,
            Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.kind = requireNonNull(kind, "kind is null");
        this.code = requireNonNull(code, "code is null");
        this.details = Map.copyOf(details);
    }

    public FailureKind kind() {
        return kind;
    }

    /** A stable, machine-readable name of the failure ({@code table_not_found}, {@code busy}, ...). */
    public String code() {
        return code;
    }

    /** Extra fields a client can act on (a row index, a column). */
    public Map<String, Object> details() {
        return details;
    }
}
