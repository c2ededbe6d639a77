package dev.riffle.core.kv;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.row.InternalRow;

/**
 * Room for the lookups sent through one Fluss connection. Fluss puts a connection's lookups into
 * one bounded queue ({@code client.lookup.queue-size}) and blocks the thread that calls
 * {@link Lookuper#lookup} while it is full, as it is when a tablet server stops answering under
 * load. Here every lookup of the connection's {@link LookuperPool}s holds one of as many permits
 * as that queue has places, from before it is sent until it is answered, so the queue is never
 * full when a lookup is sent: a thread that must never wait (a server's selector thread, which
 * every other request waits behind) {@linkplain #tryReserve reserves} the permits of the lookups
 * it is about to send, or leaves them to another thread; any other thread waits for a permit
 * instead of waiting in Fluss's queue.
 *
 * <pre>{@code
 * Optional<LookupsInFlight.Reservation> room = handles.lookupsInFlight().tryReserve(1);
 * if (room.isEmpty()) {
 *     handOverToAPoolThread(request);
 * } else {
 *     try (LookupsInFlight.Reservation reserved = room.get()) {
 *         found = lookUp(key); // takes the reserved permit
 *     }
 * }
 * }</pre>
 */
public final class LookupsInFlight {
    private static final Map<Connection, LookupsInFlight> BY_CONNECTION =
            Collections.synchronizedMap(new WeakHashMap<>());

    private final int capacity;
    private final Semaphore permits;
    /** The reservation the current thread's next lookups take their permits from. */
    private final ThreadLocal<Reservation> reserved = new ThreadLocal<>();

    LookupsInFlight(int queueSize) {
        if (queueSize < 1) {
            throw new IllegalArgumentException("A lookup queue holds at least one lookup, got " + queueSize);
        }
        this.capacity = queueSize;
        this.permits = new Semaphore(queueSize);
    }

    /**
     * The room of {@code connection}'s lookups (its queue size read from its configuration), shared
     * by every {@link LookuperPool} of it.
     */
    public static LookupsInFlight of(Connection connection) {
        requireNonNull(connection, "connection is null");
        return BY_CONNECTION.computeIfAbsent(connection,
                c -> new LookupsInFlight(c.getConfiguration().get(ConfigOptions.CLIENT_LOOKUP_QUEUE_SIZE)));
    }

    /**
     * Reserves, without waiting, the permits of {@code lookups} lookups the current thread is about
     * to send; empty when there is no room for them now. The thread's lookups take their permits
     * from the reservation until it is closed, which gives back what they did not take.
     */
    public Optional<Reservation> tryReserve(int lookups) {
        if (lookups < 0) {
            throw new IllegalArgumentException("lookups must not be negative, got " + lookups);
        }
        if (reserved.get() != null) {
            throw new IllegalStateException("This thread holds a reservation already");
        }
        if (lookups > capacity || !permits.tryAcquire(lookups)) {
            return Optional.empty();
        }
        Reservation reservation = new Reservation(lookups);
        reserved.set(reservation);
        return Optional.of(reservation);
    }

    /** Lookups sent and not answered yet, and permits reserved and not used yet. */
    public int count() {
        return capacity - permits.availablePermits();
    }

    /** Permits a thread reserved for the lookups it is about to send ({@link #tryReserve}). */
    public final class Reservation implements AutoCloseable {
        private int unused;

        private Reservation(int lookups) {
            this.unused = lookups;
        }

        /** Gives back the permits no lookup took; the thread's lookups wait for permits again. */
        @Override
        public void close() {
            if (reserved.get() == this) {
                reserved.remove();
                permits.release(unused);
                unused = 0;
            }
        }
    }

    /**
     * {@code lookuper}, each lookup holding a permit until answered: one of the thread's
     * reservation, or one waited for. The future it returns is its own, so a caller that cancels it
     * (or times it out) does not give back the permit of a lookup Fluss still holds.
     */
    Lookuper counting(Lookuper lookuper) {
        requireNonNull(lookuper, "lookuper is null");
        return key -> {
            take();
            CompletableFuture<LookupResult> sent;
            try {
                sent = lookuper.lookup(key);
            } catch (RuntimeException e) {
                permits.release();
                throw e;
            }
            CompletableFuture<LookupResult> answer = new CompletableFuture<>();
            sent.whenComplete((result, failure) -> {
                permits.release();
                if (failure != null) {
                    answer.completeExceptionally(failure);
                } else {
                    answer.complete(result);
                }
            });
            return answer;
        };
    }

    private void take() {
        Reservation reservation = reserved.get();
        if (reservation != null && reservation.unused > 0) {
            reservation.unused--;
            return;
        }
        if (reservation != null) {
            // A thread that must not wait sends more than it reserved: a defect of the caller.
            throw new IllegalStateException("A lookup beyond the reserved room would wait for Fluss's queue");
        }
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for room in the Fluss lookup queue", e);
        }
    }
}
