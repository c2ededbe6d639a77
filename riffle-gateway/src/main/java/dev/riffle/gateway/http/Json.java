package dev.riffle.gateway.http;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The gateway's JSON mapper, and small readers for request fields that fail with a 400 naming
 * the field and what it should have been.
 */
public final class Json {
    /**
     * Decimals stay exact both ways, a body is one document (trailing content is an error), and an
     * object that names a field twice is refused (which of the two was meant cannot be known).
     */
    public static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();

    private Json() {}

    /** Fails when the object has fields other than {@code known}. */
    public static void onlyFields(JsonNode object, String what, Set<String> known) {
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!known.contains(name)) {
                throw ApiException.badRequest("invalid_request", "Unknown field '" + name + "' in " + what
                        + "; known fields: " + known.stream().sorted().toList());
            }
        }
    }

    public static JsonNode requireObject(JsonNode node, String what) {
        if (node == null || !node.isObject()) {
            throw ApiException.badRequest("invalid_request", what + " must be a JSON object, got " + describe(node));
        }
        return node;
    }

    public static String requiredText(JsonNode object, String field, String what) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            throw ApiException.badRequest("invalid_request", "Field '" + field + "' is required in " + what);
        }
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw ApiException.badRequest("invalid_request", "Field '" + field + "' in " + what
                    + " must be a non-empty string, got " + describe(value));
        }
        return value.asText();
    }

    public static Optional<String> optionalText(JsonNode object, String field, String what) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isTextual()) {
            throw ApiException.badRequest("invalid_request", "Field '" + field + "' in " + what
                    + " must be a string, got " + describe(value));
        }
        return Optional.of(value.asText());
    }

    public static boolean optionalBoolean(JsonNode object, String field, String what, boolean absent) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return absent;
        }
        if (!value.isBoolean()) {
            throw ApiException.badRequest("invalid_request", "Field '" + field + "' in " + what
                    + " must be true or false, got " + describe(value));
        }
        return value.asBoolean();
    }

    public static Optional<Long> optionalLong(JsonNode object, String field, String what, long min) {
        JsonNode value = object.get(field);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < min) {
            throw ApiException.badRequest("invalid_request", "Field '" + field + "' in " + what
                    + " must be a whole number >= " + min + ", got " + describe(value));
        }
        return Optional.of(value.asLong());
    }

    /** A list of strings; absent or null gives an empty list. */
    public static List<String> stringList(JsonNode object, String field, String what) {
        JsonNode value = object.get(field);
        List<String> result = new ArrayList<>();
        if (value == null || value.isNull()) {
            return result;
        }
        if (!value.isArray()) {
            throw ApiException.badRequest("invalid_request", "Field '" + field + "' in " + what
                    + " must be an array of strings, got " + describe(value));
        }
        for (JsonNode element : value) {
            if (!element.isTextual()) {
                throw ApiException.badRequest("invalid_request", "Field '" + field + "' in " + what
                        + " must be an array of strings; it holds " + describe(element));
            }
            result.add(element.asText());
        }
        return result;
    }

    /** An object of string values; absent or null gives an empty map. */
    public static Map<String, String> stringMap(JsonNode object, String field, String what) {
        JsonNode value = object.get(field);
        Map<String, String> result = new LinkedHashMap<>();
        if (value == null || value.isNull()) {
            return result;
        }
        if (!value.isObject()) {
            throw ApiException.badRequest("invalid_request", "Field '" + field + "' in " + what
                    + " must be an object of strings, got " + describe(value));
        }
        value.fields().forEachRemaining(entry -> {
            JsonNode v = entry.getValue();
            if (!v.isValueNode() || v.isNull()) {
                throw ApiException.badRequest("invalid_request", "Field '" + field + "." + entry.getKey() + "' in "
                        + what + " must be a string, got " + describe(v));
            }
            result.put(entry.getKey(), v.asText());
        });
        return result;
    }

    /** A short description of a JSON value for error messages: its type and a clipped rendering. */
    public static String describe(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        String kind = node.isObject() ? "object" : node.isArray() ? "array" : node.isTextual() ? "string"
                : node.isBoolean() ? "boolean" : node.isNumber() ? "number" : node.isNull() ? "null" : "value";
        if (node.isNull()) {
            return "null";
        }
        String text = node.toString();
        return kind + " " + (text.length() > 60 ? text.substring(0, 57) + "..." : text);
    }
}
