package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.auth.ScramUsers;
import dev.riffle.server.session.Sessions;
import io.netty.handler.ssl.SslContext;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * What every connection of one server shares: the Riffle sessions statements run in, the
 * sessions reachable by cancel requests, the pool connection workers run on, the limits, and how
 * clients log in.
 *
 * @param maxConnections how many clients may be connected at once
 * @param maxCopyRows the most rows one COPY FROM STDIN writes
 * @param scramUsers with authentication: the users who log in with SCRAM-SHA-256 (empty: a cleartext password)
 * @param tls the server's TLS settings; when present, clients must connect with TLS
 */
public record PgServerContext(Sessions sessions, CancelRegistry cancels, Executor workers, int maxConnections,
        int maxCopyRows, Optional<ScramUsers> scramUsers, Optional<SslContext> tls) {
    public PgServerContext {
        requireNonNull(sessions, "sessions is null");
        requireNonNull(cancels, "cancels is null");
        requireNonNull(workers, "workers is null");
        requireNonNull(scramUsers, "scramUsers is null");
        requireNonNull(tls, "tls is null");
    }
}
