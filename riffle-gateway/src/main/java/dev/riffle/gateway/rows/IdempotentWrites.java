package dev.riffle.gateway.rows;

import static java.util.Objects.requireNonNull;

import dev.riffle.gateway.http.ApiException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The answers of writes sent with an {@code Idempotency-Key} header, so that a client which lost
 * an answer (a dropped connection, a timeout on its side) can send the same request again and have
 * its rows written once. A key is scoped to the caller (the authenticated principal, or anonymous)
 * and the table; the first request with it writes, and every later request with the same key and
 * the same body gets that first request's answer without writing anything, including one that
 * arrives while the first is still writing (it waits for it). The same key with another body is
 * refused (422). A first request that fails before any row is handed to the writer (a bad body,
 * an unknown column) leaves no trace: sending it again runs it again. One that fails after writing
 * began is remembered as that failure, since some of its rows may be in the table.
 *
 * <pre>{@code
 * IdempotentWrites.Claim claim = writes.claim(scope, key, digest);   // Replay, or this request writes
 * }</pre>
 *
 * <p>Answers are kept in this gateway's memory for {@link #RETENTION} after they were given (at
 * most {@link #CAPACITY} of them, the oldest dropped first; a key still writing is never dropped): a client retrying through a load balancer must
 * reach the same gateway for the key to hold (sticky sessions), and a restarted gateway has
 * forgotten its keys.
 */
final class IdempotentWrites {
    static final Duration RETENTION = Duration.ofMinutes(15);
    static final int CAPACITY = 100_000;
    static final int MAX_KEY_LENGTH = 200;

    /** What a write answered: its status and JSON body. */
    record Answer(int status, byte[] json) {
        Answer {
            requireNonNull(json, "json is null");
        }
    }

    /** Whose key, for which table. */
    record Scope(Optional<String> principal, String table) {
        Scope {
            requireNonNull(principal, "principal is null");
            requireNonNull(table, "table is null");
        }
    }

    /** The outcome of {@link #claim}: either this request writes, or it is answered as an earlier one was. */
    sealed interface Claim permits Writes, Replay {}

    /** This request writes; it must end with {@link #answered} or {@link #forget}. */
    static final class Writes implements Claim {
        private final Entry entry;

        private Writes(Entry entry) {
            this.entry = entry;
        }
    }

    /** An earlier request with the same key and body answered this. */
    record Replay(Answer answer) implements Claim {}

    private static final class Entry {
        final byte[] digest;
        final CompletableFuture<Optional<Answer>> answer = new CompletableFuture<>();
        final Scope scope;
        final String key;
        /** When it was answered (the retention counts from then); set under the store's lock. */
        long answeredAt;

        Entry(Scope scope, String key, byte[] digest) {
            this.scope = scope;
            this.key = key;
            this.digest = digest;
        }
    }

    private record Id(Scope scope, String key) {}

    private final Map<Id, Entry> entries = new HashMap<>();
    /** Answered entries, oldest answer first: what expires. */
    private final ArrayDeque<Entry> answeredOrder = new ArrayDeque<>();
    private final LongSupplier nanoClock;

    IdempotentWrites() {
        this(System::nanoTime);
    }

    IdempotentWrites(LongSupplier nanoClock) {
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
    }

    /** The key of a request's header value, checked: 1 to 200 printable ASCII characters. */
    static String checkedKey(String header) {
        boolean printable = header.chars().allMatch(c -> c > 0x20 && c < 0x7f);
        if (header.isEmpty() || header.length() > MAX_KEY_LENGTH || !printable) {
            throw ApiException.badRequest("invalid_idempotency_key", "Idempotency-Key must be 1 to " + MAX_KEY_LENGTH
                    + " printable ASCII characters without spaces, got " + header.length() + " characters");
        }
        return header;
    }

    /**
     * Claims {@code key} for a request whose body has {@code digest}, waiting (up to {@code wait})
     * while an earlier request with the key is still writing.
     *
     * @throws ApiException 422 when the key was used with another body; 409 when the earlier request
     *     is still writing after {@code wait}
     */
    Claim claim(Scope scope, String key, byte[] digest, Duration wait) throws InterruptedException {
        long deadline = nanoClock.getAsLong() + wait.toNanos();
        while (true) {
            Entry entry;
            synchronized (this) {
                expire();
                Id id = new Id(scope, key);
                entry = entries.get(id);
                if (entry == null) {
                    Entry mine = new Entry(scope, key, digest.clone());
                    entries.put(id, mine);
                    return new Writes(mine);
                }
            }
            if (!Arrays.equals(entry.digest, digest)) {
                throw new ApiException(422, "idempotency_key_reused", "Idempotency-Key '" + key + "' was used for"
                        + " another request to this table (another body or columns); use a new key for new rows");
            }
            Optional<Answer> answer;
            try {
                long remaining = deadline - nanoClock.getAsLong();
                answer = entry.answer.get(Math.max(0, remaining), java.util.concurrent.TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                throw new ApiException(409, "idempotency_key_in_use", "A request with Idempotency-Key '" + key
                        + "' is still writing; ask again once it has answered");
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException("An idempotency entry never fails", e);
            }
            if (answer.isPresent()) {
                return new Replay(answer.get());
            }
            // The earlier request failed before writing and was forgotten: claim the key afresh.
        }
    }

    /** Records what the claiming request answered; later requests with its key get this answer. */
    void answered(Writes claim, Answer answer) {
        requireNonNull(answer, "answer is null");
        synchronized (this) {
            claim.entry.answeredAt = nanoClock.getAsLong();
            answeredOrder.addLast(claim.entry);
            expire();
        }
        claim.entry.answer.complete(Optional.of(answer));
    }

    /** Forgets the claim of a request that failed before writing: the key may be used again. */
    void forget(Writes claim) {
        synchronized (this) {
            entries.remove(new Id(claim.entry.scope, claim.entry.key), claim.entry);
        }
        claim.entry.answer.complete(Optional.empty());
    }

    /** How many keys are remembered (answered or still writing). */
    synchronized int size() {
        expire();
        return entries.size();
    }

    /** Drops answers older than {@link #RETENTION}, and the oldest answers past {@link #CAPACITY}. */
    private void expire() {
        long now = nanoClock.getAsLong();
        while (!answeredOrder.isEmpty() && (answeredOrder.size() > CAPACITY
                || now - answeredOrder.peekFirst().answeredAt > RETENTION.toNanos())) {
            Entry old = answeredOrder.pollFirst();
            entries.remove(new Id(old.scope, old.key), old);
        }
    }
}
