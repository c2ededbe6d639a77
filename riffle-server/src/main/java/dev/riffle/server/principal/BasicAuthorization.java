package dev.riffle.server.principal;

import static java.nio.charset.StandardCharsets.UTF_8;

import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import java.util.Base64;
import java.util.Locale;

/**
 * HTTP Basic credentials, for every HTTP surface (the gateway's routes and console, MCP at
 * {@code /mcp}): the user and password of {@code Authorization: Basic base64(user:password)},
 * which are passed through to Fluss as SASL/PLAIN.
 *
 * <pre>{@code
 * Credentials caller = BasicAuthorization.parse(request.getHeader("Authorization"));
 * }</pre>
 */
public final class BasicAuthorization {
    /** What a 401 answers in {@code WWW-Authenticate}. */
    public static final String CHALLENGE = "Basic realm=\"riffle\"";

    private BasicAuthorization() {}

    /**
     * @throws ServiceException {@link FailureKind#UNAUTHENTICATED} when the header is missing or malformed
     */
    public static Credentials parse(String header) {
        if (header == null || header.isBlank()) {
            throw unauthenticated("This server requires HTTP Basic authentication: send Authorization: Basic "
                    + "base64(user:password) with a Fluss SASL/PLAIN user");
        }
        String trimmed = header.trim();
        int space = trimmed.indexOf(' ');
        if (space < 0) {
            throw unauthenticated("The Authorization header has no credentials; send Basic base64(user:password)");
        }
        String scheme = trimmed.substring(0, space);
        if (!scheme.toLowerCase(Locale.ROOT).equals("basic")) {
            throw unauthenticated("Unsupported authorization scheme '" + scheme + "'; this server accepts Basic");
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

    private static ServiceException unauthenticated(String message) {
        return new ServiceException(FailureKind.UNAUTHENTICATED, "unauthenticated", message);
    }
}
