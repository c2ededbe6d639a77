package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import com.google.protobuf.ByteString;
import dev.riffle.sql.statement.LookedUpRows;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * Point queries' key lookups started when their FlightInfo was asked for, each kept for the
 * {@code DoGet} of its ticket. Flight SQL runs a query in two calls (GetFlightInfo executes it,
 * DoGet fetches the answer with the ticket it returned; a prepared statement's parameters are bound
 * by a DoPut before), and a lookup waits out Fluss's lookup batch window before it is sent: started
 * at GetFlightInfo, that wait passes while the client reads the FlightInfo and asks for the
 * stream, instead of after. The answer is read between the client's execute and its fetch.
 *
 * <p>Bounded: at most {@code capacity} lookups are kept, each at most {@code keep}; past either,
 * or on another instance serving the ticket, DoGet runs the query as if nothing had been started.
 * A lookup no DoGet takes completes unread and is dropped.
 *
 * <pre>{@code
 * LookupsAhead ahead = new LookupsAhead(1024, Duration.ofSeconds(10));
 * ahead.offer(ticket, SqlStatements.lookUp(request, sql, parameters).orElseThrow());
 * ahead.take(ticket).ifPresent(found -> send(found.join().reader(allocator)));
 * }</pre>
 */
public final class LookupsAhead {
    private final int capacity;
    private final long keepNanos;
    private final LongSupplier clock;
    /** In the order offered, so the first to expire come first. */
    private final Map<ByteString, Kept> kept = new LinkedHashMap<>();

    private record Kept(CompletableFuture<LookedUpRows> answer, long offeredAt) {}

    public LookupsAhead(int capacity, Duration keep) {
        this(capacity, keep, System::nanoTime);
    }

    /** As above, the time read from {@code clock} (nanoseconds, as {@link System#nanoTime}). */
    LookupsAhead(int capacity, Duration keep, LongSupplier clock) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        requireNonNull(keep, "keep is null");
        if (keep.isNegative() || keep.isZero()) {
            throw new IllegalArgumentException("keep must be positive, got " + keep);
        }
        this.capacity = capacity;
        this.keepNanos = keep.toNanos();
        this.clock = requireNonNull(clock, "clock is null");
    }

    /**
     * Keeps {@code answer} for the DoGet of {@code ticket} (each execution's ticket is its own,
     * {@link QueryTicket#execution}), in place of an earlier one for the same ticket.
     *
     * @return false when {@code capacity} lookups are kept already: DoGet runs the query itself
     */
    public synchronized boolean offer(ByteString ticket, CompletableFuture<LookedUpRows> answer) {
        requireNonNull(ticket, "ticket is null");
        requireNonNull(answer, "answer is null");
        long now = clock.getAsLong();
        dropExpired(now);
        kept.remove(ticket);
        if (kept.size() >= capacity) {
            return false;
        }
        kept.put(ticket, new Kept(answer, now));
        return true;
    }

    /** The lookup kept for {@code ticket}, handed out once; empty when none is kept or it expired. */
    public synchronized Optional<CompletableFuture<LookedUpRows>> take(ByteString ticket) {
        requireNonNull(ticket, "ticket is null");
        dropExpired(clock.getAsLong());
        Kept found = kept.remove(ticket);
        return found == null ? Optional.empty() : Optional.of(found.answer());
    }

    /** Forgets the lookup kept for {@code ticket} (its query was cancelled); whether one was kept. */
    public synchronized boolean discard(ByteString ticket) {
        return kept.remove(requireNonNull(ticket, "ticket is null")) != null;
    }

    /** Forgets {@code answer} if it is still kept for {@code ticket} (not taken, not replaced). */
    public synchronized boolean discard(ByteString ticket, CompletableFuture<LookedUpRows> answer) {
        requireNonNull(ticket, "ticket is null");
        Kept found = kept.get(ticket);
        if (found == null || found.answer() != answer) {
            return false;
        }
        kept.remove(ticket);
        return true;
    }

    /** Whether another lookup would be kept now (fewer than {@code capacity} are, expired ones dropped). */
    public synchronized boolean hasRoom() {
        dropExpired(clock.getAsLong());
        return kept.size() < capacity;
    }

    /** How many lookups are kept now. */
    public synchronized int size() {
        dropExpired(clock.getAsLong());
        return kept.size();
    }

    private void dropExpired(long now) {
        for (Iterator<Kept> oldest = kept.values().iterator(); oldest.hasNext(); ) {
            if (now - oldest.next().offeredAt() < keepNanos) {
                return;
            }
            oldest.remove();
        }
    }
}
