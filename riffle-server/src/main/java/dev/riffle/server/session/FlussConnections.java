package dev.riffle.server.session;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The Fluss connections one process holds open, counted by who holds them: a principal's session
 * (by the principal's name), the server's own connection ({@value #SERVER}), the tiering service
 * ({@value #TIERING}). Every connection costs the cluster a client (its metadata updates, its
 * writer and lookup threads), so {@code /metrics} shows this count, and it is how an operator
 * checks that a principal who comes in over HTTP, Flight SQL and PostgreSQL has one connection,
 * not three.
 *
 * <pre>{@code
 * FlussConnections connections = runtime.connections();
 * try (FlussConnections.Held held = connections.opened(FlussConnections.TIERING)) {
 *     // ... the tiering service's connection is open ...
 * }
 * Map<String, Integer> open = connections.byOwner();   // {"server"=1}
 * }</pre>
 */
public final class FlussConnections {
    /** The owner name of a server's own connection (its metadata, its lake, requests without authentication). */
    public static final String SERVER = "server";
    /** The owner name of the tiering service's connection. */
    public static final String TIERING = "tiering";

    private final Map<String, Integer> open = new ConcurrentHashMap<>();

    /** One open connection, counted until it is closed; closing twice counts once. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    /** Counts one more connection held by {@code owner}; close the result when the connection closes. */
    public Held opened(String owner) {
        requireNonNull(owner, "owner is null");
        open.merge(owner, 1, Integer::sum);
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
            if (released.compareAndSet(false, true)) {
                open.computeIfPresent(owner, (name, count) -> count == 1 ? null : count - 1);
            }
        };
    }

    /** The connections open now, by owner, in name order; owners with none are left out. */
    public Map<String, Integer> byOwner() {
        return new TreeMap<>(open);
    }

    /** How many connections are open now, whoever holds them. */
    public int total() {
        return byOwner().values().stream().mapToInt(Integer::intValue).sum();
    }
}
