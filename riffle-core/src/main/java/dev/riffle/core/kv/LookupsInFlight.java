package dev.riffle.core.kv;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.row.InternalRow;

/**
 * The lookups sent through one Fluss connection and not answered yet. Fluss puts a connection's
 * lookups into one bounded queue ({@code client.lookup.queue-size}) and blocks the thread that calls
 * {@link Lookuper#lookup} while it is full, as it is when a tablet server stops answering under
 * load. A thread that must never wait (a server's selector thread, which every other request
 * waits behind) asks {@link #hasRoom} first and leaves the lookup to another thread when the
 * lookups in flight fill half the queue: fewer in flight than the queue holds means the queue is
 * not full. Every {@link LookuperPool} of a connection counts here, whichever session it serves.
 *
 * <pre>{@code
 * if (!LookupsInFlight.of(connection).hasRoom()) {
 *     handOverToAPoolThread(request);
 * }
 * }</pre>
 */
public final class LookupsInFlight {
    private static final Map<Connection, LookupsInFlight> BY_CONNECTION =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final AtomicInteger count = new AtomicInteger();
    private final int room;

    LookupsInFlight(int queueSize) {
        this.room = queueSize / 2;
    }

    /** The lookups in flight through {@code connection} (its queue size read from its configuration). */
    public static LookupsInFlight of(Connection connection) {
        requireNonNull(connection, "connection is null");
        return BY_CONNECTION.computeIfAbsent(connection,
                c -> new LookupsInFlight(c.getConfiguration().get(ConfigOptions.CLIENT_LOOKUP_QUEUE_SIZE)));
    }

    /** Whether one more lookup can be sent now without waiting for room in Fluss's queue. */
    public boolean hasRoom() {
        return count.get() < room;
    }

    /** Lookups sent and not answered yet. */
    public int count() {
        return count.get();
    }

    /** {@code lookuper}, counting its lookups here until they are answered. */
    Lookuper counting(Lookuper lookuper) {
        requireNonNull(lookuper, "lookuper is null");
        return new Lookuper() {
            @Override
            public CompletableFuture<LookupResult> lookup(InternalRow key) {
                count.incrementAndGet();
                CompletableFuture<LookupResult> sent;
                try {
                    sent = lookuper.lookup(key);
                } catch (RuntimeException e) {
                    count.decrementAndGet();
                    throw e;
                }
                sent.whenComplete((result, failure) -> count.decrementAndGet());
                return sent;
            }
        };
    }
}
