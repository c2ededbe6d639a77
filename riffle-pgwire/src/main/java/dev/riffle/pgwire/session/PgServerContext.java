package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.session.Sessions;
import java.util.concurrent.Executor;

/**
 * What every connection of one server shares: the Riffle sessions statements run in, the
 * sessions reachable by cancel requests, the pool connection workers run on, and the limits.
 *
 * @param maxConnections how many clients may be connected at once
 * @param maxCopyRows the most rows one COPY FROM STDIN writes
 */
public record PgServerContext(Sessions sessions, CancelRegistry cancels, Executor workers, int maxConnections,
        int maxCopyRows) {
    public PgServerContext {
        requireNonNull(sessions, "sessions is null");
        requireNonNull(cancels, "cancels is null");
        requireNonNull(workers, "workers is null");
    }
}
