package dev.riffle.gateway;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.Map;

/** An answer read by {@link RawConnection}: its status, headers (names in lower case) and whole body. */
record RawResponse(int status, Map<String, String> headers, byte[] body) {
    String text() {
        return new String(body, UTF_8);
    }

    JsonNode json() {
        try {
            return Api.JSON.readTree(body);
        } catch (IOException e) {
            throw new AssertionError("Not JSON: " + text(), e);
        }
    }
}
