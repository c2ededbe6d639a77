package dev.riffle.gateway.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.DupDetector;
import com.fasterxml.jackson.core.json.JsonReadContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
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

    /** Reads one value out of a longer document: what follows the value is the caller's to read. */
    private static final ObjectReader VALUE_IN_STREAM = MAPPER.reader()
            .without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    /**
     * A parser that streams {@code in} as {@link #MAPPER} reads a document, except that it leaves
     * finding a name given twice in an object to its caller, who reads the objects field by field
     * and knows each row's names already (Jackson's check costs a set per object); the values read
     * through {@link #valueAt} are checked as in a document. Doubles are parsed with Jackson's fast
     * parser, which rounds as the JDK's does.
     */
    public static JsonParser streamingParser(InputStream in) throws IOException {
        JsonParser parser = MAPPER.createParser(in);
        parser.disable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        parser.enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER.mappedFeature());
        return parser;
    }

    /**
     * The value starting at {@code parser}'s current token, read as {@link #MAPPER} reads it in a
     * whole document (decimals exact, a name given twice in one of its objects refused); the parser
     * is left on the value's last token. For a parser that streams a body value by value
     * ({@link #streamingParser}).
     */
    public static JsonNode valueAt(JsonParser parser) throws IOException {
        if ((parser.currentToken() == JsonToken.START_OBJECT || parser.currentToken() == JsonToken.START_ARRAY)
                && parser.getParsingContext() instanceof JsonReadContext nested && nested.getDupDetector() == null) {
            // The nested value's context was opened by the token just read; the objects within it
            // inherit its detector.
            nested.withDupDetector(DupDetector.rootDetector(parser));
        }
        return VALUE_IN_STREAM.readTree(parser);
    }

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
