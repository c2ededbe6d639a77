package dev.riffle.gateway.http;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.riffle.server.principal.Credentials;
import java.util.Base64;
import java.util.Locale;

/**
 * HTTP Basic authentication passed through to Fluss: with {@code --auth basic} every {@code /v1}
 * request carries {@code Authorization: Basic ...}, whose user and password choose (or open) that
 * principal's session, a SASL/PLAIN connection of its own, so Fluss ACLs decide what it may do. A
 * missing or malformed header, or credentials Fluss rejects, answer 401 with
 * {@code WWW-Authenticate: Basic realm="riffle"}.
 */
public final class BasicAuth {
    public static final String CHALLENGE = "Basic realm=\"riffle\"";

    private BasicAuth() {}

    /**
     * The user and password of an {@code Authorization: Basic base64(user:password)} header.
     *
     * @throws ApiException 401 {@code unauthenticated} when the header is missing or malformed
     */
    public static Credentials parse(String header) {
        if (header == null || header.isBlank()) {
            throw unauthenticated("This gateway requires HTTP Basic authentication: send Authorization: Basic "
                    + "base64(user:password) with a Fluss SASL/PLAIN user");
        }
        String trimmed = header.trim();
        int space = trimmed.indexOf(' ');
        if (space < 0) {
            throw unauthenticated("The Authorization header has no credentials; send Basic base64(user:password)");
        }
        String scheme = trimmed.substring(0, space);
        if (!scheme.toLowerCase(Locale.ROOT).equals("basic")) {
            throw unauthenticated("Unsupported authorization scheme '" + scheme + "'; this gateway accepts Basic");
        }
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(trimmed.substring(space + 1).trim()), UTF_8);
        } catch (IllegalArgumentException e) {
            throw unauthenticated("The Basic credentials are not valid base64");
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            throw unauthenticated("The Basic credentials must be user:password with a non-empty user");
        }
        return new Credentials(decoded.substring(0, colon), decoded.substring(colon + 1));
    }

    private static ApiException unauthenticated(String message) {
        return new ApiException(401, "unauthenticated", message);
    }
}
