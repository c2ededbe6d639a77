package dev.riffle.gateway.http;

import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.principal.BasicAuthorization;
import dev.riffle.server.principal.Credentials;

/**
 * HTTP Basic authentication passed through to Fluss: with {@code --auth basic} every {@code /v1}
 * request carries {@code Authorization: Basic ...}, whose user and password choose (or open) that
 * principal's session, a SASL/PLAIN connection of its own, so Fluss ACLs decide what it may do. A
 * missing or malformed header, or credentials Fluss rejects, answer 401 with
 * {@code WWW-Authenticate: Basic realm="riffle"}. The header is read by {@link BasicAuthorization},
 * which {@code /mcp} shares.
 */
public final class BasicAuth {
    public static final String CHALLENGE = BasicAuthorization.CHALLENGE;

    private BasicAuth() {}

    /**
     * The user and password of an {@code Authorization: Basic base64(user:password)} header.
     *
     * @throws ApiException 401 {@code unauthenticated} when the header is missing or malformed
     */
    public static Credentials parse(String header) {
        try {
            return BasicAuthorization.parse(header);
        } catch (ServiceException e) {
            throw new ApiException(401, e.code(), e.getMessage());
        }
    }
}
