package dev.riffle.flight.auth;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.Sessions;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Optional;
import org.apache.arrow.flight.CallHeaders;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.auth2.Auth2Constants;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;

/**
 * Flight SQL authentication passed through to Fluss: a client's Basic credentials (the handshake
 * of the Flight SQL JDBC driver and ADBC, or a Basic header on any call) are checked by opening
 * that user's session, whose SASL/PLAIN connection Fluss accepts or refuses; the client then gets
 * a bearer token for its next calls. A token stands for the credentials it was issued for, so each
 * call runs on the principal's own connection and Fluss's ACLs decide what it may do.
 *
 * <pre>{@code
 * PrincipalAuthenticator auth = new PrincipalAuthenticator(sessions, Duration.ofHours(1), 100_000);
 * FlightServer.builder(allocator, location, producer).headerAuthenticator(auth);
 * }</pre>
 */
public final class PrincipalAuthenticator implements CallHeaderAuthenticator {
    private final Sessions sessions;
    private final long idleNanos;
    private final int maxTokens;
    private final SecureRandom random = new SecureRandom();
    /** Guarded by {@code this}; in access order, so the least recently used token goes first. */
    private final LinkedHashMap<String, Issued> tokens = new LinkedHashMap<>(16, 0.75f, true);

    private record Issued(Credentials credentials, long usedNanos) {}

    /**
     * @param idle how long a token stays good without use
     * @param maxTokens how many tokens are held (the least recently used is dropped past it)
     */
    public PrincipalAuthenticator(Sessions sessions, Duration idle, int maxTokens) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.idleNanos = requireNonNull(idle, "idle is null").toNanos();
        this.maxTokens = maxTokens;
    }

    @Override
    public AuthResult authenticate(CallHeaders headers) {
        String authorization = headers.get(Auth2Constants.AUTHORIZATION_HEADER);
        if (authorization == null) {
            throw CallStatus.UNAUTHENTICATED.withDescription("This server requires a Fluss user and password"
                    + " (Basic credentials, or the bearer token a handshake returned)").toRuntimeException();
        }
        if (authorization.startsWith(Auth2Constants.BEARER_PREFIX)) {
            String token = authorization.substring(Auth2Constants.BEARER_PREFIX.length()).trim();
            Credentials credentials = credentialsOf(token).orElseThrow(() -> CallStatus.UNAUTHENTICATED
                    .withDescription("The bearer token is unknown or expired; authenticate again").toRuntimeException());
            return new Result(credentials.user(), Optional.empty());
        }
        if (authorization.startsWith(Auth2Constants.BASIC_PREFIX)) {
            Credentials credentials = basic(authorization.substring(Auth2Constants.BASIC_PREFIX.length()).trim());
            try (Sessions.Lease ignored = sessions.acquire(Optional.of(credentials))) {
                // Opening the principal's session is the check: Fluss accepted the SASL/PLAIN login.
            } catch (RuntimeException e) {
                throw CallStatus.UNAUTHENTICATED.withDescription("Fluss rejected user '" + credentials.user() + "': "
                        + e.getMessage()).toRuntimeException();
            }
            return new Result(credentials.user(), Optional.of(issue(credentials)));
        }
        throw CallStatus.UNAUTHENTICATED.withDescription("Unsupported authorization scheme; use Basic or Bearer")
                .toRuntimeException();
    }

    /** The credentials a principal's calls run with (the ones its latest token stands for). */
    public synchronized Optional<Credentials> credentials(String user) {
        expire();
        Credentials latest = null;
        for (Issued issued : tokens.values()) {
            if (issued.credentials().user().equals(user)) {
                latest = issued.credentials();
            }
        }
        return Optional.ofNullable(latest);
    }

    private synchronized Optional<Credentials> credentialsOf(String token) {
        expire();
        Issued issued = tokens.get(token);
        if (issued == null) {
            return Optional.empty();
        }
        tokens.put(token, new Issued(issued.credentials(), System.nanoTime()));
        return Optional.of(issued.credentials());
    }

    private synchronized String issue(Credentials credentials) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        expire();
        while (tokens.size() >= maxTokens) {
            tokens.remove(tokens.keySet().iterator().next());
        }
        tokens.put(token, new Issued(credentials, System.nanoTime()));
        return token;
    }

    private void expire() {
        long now = System.nanoTime();
        tokens.values().removeIf(issued -> now - issued.usedNanos() > idleNanos);
    }

    private static Credentials basic(String encoded) {
        String decoded;
        try {
            decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw CallStatus.UNAUTHENTICATED.withDescription("The Basic credentials are not base64").toRuntimeException();
        }
        int colon = decoded.indexOf(':');
        if (colon <= 0) {
            throw CallStatus.UNAUTHENTICATED.withDescription("The Basic credentials name no user (user:password)")
                    .toRuntimeException();
        }
        return new Credentials(decoded.substring(0, colon), decoded.substring(colon + 1));
    }

    private record Result(String user, Optional<String> token) implements AuthResult {
        @Override
        public String getPeerIdentity() {
            return user;
        }

        @Override
        public void appendToOutgoingHeaders(CallHeaders outgoing) {
            token.ifPresent(t -> outgoing.insert(Auth2Constants.AUTHORIZATION_HEADER, Auth2Constants.BEARER_PREFIX + t));
        }
    }
}
