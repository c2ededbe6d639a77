package dev.riffle.gateway.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import io.javalin.http.Context;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;

/**
 * HTTP Basic authentication passed through to Fluss: every {@code /v1} request must carry
 * {@code Authorization: Basic ...}; its user and password open (or reuse) that principal's
 * SASL/PLAIN connection, and the request runs on it, so Fluss ACLs decide what it may do. A
 * missing or malformed header, or credentials Fluss rejects, answer 401 with
 * {@code WWW-Authenticate: Basic realm="riffle"}. {@code POST /v1/sql} runs on the caller's own
 * JDBC connection, opened with the same credentials ({@link #credentials(Context)}).
 */
public final class BasicAuth {
    public static final String CHALLENGE = "Basic realm=\"riffle\"";
    private static final String LEASE = BasicAuth.class.getName() + ".lease";
    private static final String CREDENTIALS = BasicAuth.class.getName() + ".credentials";

    private final PrincipalConnections connections;
    private final Backend backend;

    /** A user and password from an {@code Authorization} header. */
    public record Credentials(String user, String password) {
        public Credentials {
            requireNonNull(user, "user is null");
            requireNonNull(password, "password is null");
        }

        @Override
        public String toString() {
            return "Credentials[user=" + user + "]"; // never the password
        }
    }

    public BasicAuth(PrincipalConnections connections, Backend backend) {
        this.connections = requireNonNull(connections, "connections is null");
        this.backend = requireNonNull(backend, "backend is null");
    }

    /** Before a request: authenticate it and bind its principal's connection to the handler's thread. */
    public void before(Context ctx) {
        try {
            Credentials credentials = parse(ctx.header("Authorization"));
            PrincipalConnections.Lease lease = connections.acquire(credentials.user(), credentials.password());
            ctx.attribute(LEASE, lease);
            ctx.attribute(CREDENTIALS, credentials);
            backend.bind(lease.connection());
        } catch (ApiException e) {
            if (e.status() == 401) {
                ctx.header("WWW-Authenticate", CHALLENGE);
            }
            throw e;
        }
    }

    /**
     * The credentials this request authenticated with (empty without {@code --auth basic}), for
     * resources of the caller's own other than its Fluss connection (its JDBC connection).
     */
    public static Optional<Credentials> credentials(Context ctx) {
        return Optional.ofNullable(ctx.attribute(CREDENTIALS));
    }

    /** After a request (also a failed one): unbind and hand the connection back. */
    public void after(Context ctx) {
        backend.unbind();
        ctx.attribute(CREDENTIALS, null);
        PrincipalConnections.Lease lease = ctx.attribute(LEASE);
        if (lease != null) {
            ctx.attribute(LEASE, null);
            lease.close();
        }
    }

    /** Closes every principal's connection (once the server has stopped). */
    public void close() {
        connections.close();
    }

    /** How many principals have a connection open now. */
    public int principals() {
        return connections.size();
    }

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
