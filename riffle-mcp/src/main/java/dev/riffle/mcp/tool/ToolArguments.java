package dev.riffle.mcp.tool;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TablePath;

/**
 * The arguments of one tool call, read with the checks the tool's input schema states (the SDK
 * does not enforce it on the server): a missing, mistyped or out-of-range argument is an
 * {@link FailureKind#INVALID_ARGUMENT} that names it.
 *
 * <pre>{@code
 * TablePath table = arguments.table("table");    // "shop.orders"
 * int limit = arguments.integer("limit", 10, 1, 1000);
 * }</pre>
 */
public final class ToolArguments {
    private final String tool;
    private final Map<String, Object> values;

    public ToolArguments(String tool, Map<String, Object> values) {
        this.tool = requireNonNull(tool, "tool is null");
        this.values = values == null ? Map.of() : values;
    }

    /** A required, non-blank string. */
    public String string(String name) {
        return optionalString(name).orElseThrow(() -> invalid("needs the argument '" + name + "'"));
    }

    /** A string, when given (a blank one counts as absent). */
    public Optional<String> optionalString(String name) {
        Object value = values.get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            throw invalid("takes '" + name + "' as a string, got " + describe(value));
        }
        return text.isBlank() ? Optional.empty() : Optional.of(text);
    }

    /** A whole number in {@code [min, max]}, {@code otherwise} when absent. */
    public int integer(String name, int otherwise, int min, int max) {
        Object value = values.get(name);
        if (value == null) {
            return otherwise;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw invalid("takes '" + name + "' as a whole number, got " + describe(value));
        }
        long given = number.longValue();
        if (given < min || given > max) {
            throw invalid("takes '" + name + "' from " + min + " to " + max + ", got " + given);
        }
        return (int) given;
    }

    /** A required JSON object. */
    @SuppressWarnings("unchecked")
    public Map<String, Object> object(String name) {
        Object value = values.get(name);
        if (value == null) {
            throw invalid("needs the argument '" + name + "'");
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw invalid("takes '" + name + "' as a JSON object, got " + describe(value));
        }
        return (Map<String, Object>) map;
    }

    /** A required table name, {@code database.table}. */
    public TablePath table(String name) {
        String text = string(name).trim();
        int dot = text.indexOf('.');
        if (dot <= 0 || dot == text.length() - 1 || text.indexOf('.', dot + 1) >= 0) {
            throw invalid("takes '" + name + "' as database.table, got '" + text + "'");
        }
        return TablePath.of(text.substring(0, dot), text.substring(dot + 1));
    }

    /** A failure of this call's arguments. */
    public ServiceException invalid(String what) {
        return new ServiceException(FailureKind.INVALID_ARGUMENT, "invalid_argument", "Tool " + tool + " " + what);
    }

    private static String describe(Object value) {
        if (value instanceof String) {
            return "a string";
        }
        if (value instanceof Number) {
            return "the number " + value;
        }
        if (value instanceof Boolean) {
            return "a boolean";
        }
        if (value instanceof Map) {
            return "an object";
        }
        if (value instanceof java.util.List) {
            return "an array";
        }
        return value.getClass().getSimpleName();
    }
}
