package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A failure the client should see as it is: an HTTP status, a stable machine-readable code
 * ({@code table_not_found}) and a message naming the bad input. Extra details (the row index and
 * column of a bad row) travel beside them in the error envelope.
 */
public final class ApiException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;
    private final Map<String, Object> details;

    public ApiException(int status, String code, String message) {
        this(status, code, message, Map.of(), null);
    }

    public ApiException(int status, String code, String message, Map<String, Object> details, Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.status = status;
        this.code = requireNonNull(code, "code is null");
        this.details = new LinkedHashMap<>(details);
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(400, code, message);
    }

    public static ApiException notFound(String code, String message) {
        return new ApiException(404, code, message);
    }

    public static ApiException conflict(String code, String message) {
        return new ApiException(409, code, message);
    }

    /** A bad value in row {@code row} (0-based), column {@code column}: 400 {@code invalid_row}. */
    public static ApiException invalidRow(int row, String column, String problem) {
        return invalidValue("invalid_row", "Row", row, column, problem);
    }

    /**
     * A bad value in item {@code index} of a request (a row, a key; {@code -1} for the only one),
     * column {@code column}.
     */
    public static ApiException invalidValue(String code, String noun, int index, String column, String problem) {
        Map<String, Object> details = new LinkedHashMap<>();
        if (index >= 0) {
            details.put(noun.toLowerCase(java.util.Locale.ROOT), index);
        }
        details.put("column", column);
        String where = index >= 0 ? noun + " " + index + ", column '" : noun + " column '";
        return new ApiException(400, code, where + column + "': " + problem, details, null);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public Map<String, Object> details() {
        return details;
    }
}
