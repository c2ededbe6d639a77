package dev.riffle.core.write;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * The acknowledgements of the rows one request wrote, as one future: it completes once every
 * acknowledgement added has completed, normally when all did, else with the first failure seen
 * (as {@link CompletableFuture#allOf} would, so nothing the request sent is still in flight when
 * it answers). Unlike {@code allOf}, which builds a tree of relay futures over an array of every
 * row's future, each acknowledgement only counts down: for a request of a million rows, the
 * {@code allOf} tree cost about a sixth of the request thread's time.
 *
 * <p>Rows are added by one thread; acknowledgements may complete on any.
 *
 * <pre>{@code
 * Acknowledgements acks = new Acknowledgements();
 * for (GenericRow row : rows) {
 *     acks.add(writer.append(row));
 * }
 * request.await(acks.all(), "Writing " + acks.count() + " rows");
 * }</pre>
 */
public final class Acknowledgements {
    private final CompletableFuture<Void> all = new CompletableFuture<>();
    /** Acknowledgements not yet completed, plus one held until {@link #all()} is asked for. */
    private final AtomicInteger pending = new AtomicInteger(1);
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private final AtomicInteger failures = new AtomicInteger();
    private final BiConsumer<Object, Throwable> onAcknowledged = (result, failure) -> {
        if (failure != null) {
            failures.incrementAndGet();
            firstFailure.compareAndSet(null, failure);
        }
        release();
    };
    private int count;
    private boolean sealed;

    /** Counts {@code acknowledgement} in; refused once {@link #all()} was asked for. */
    public void add(CompletableFuture<?> acknowledgement) {
        requireNonNull(acknowledgement, "acknowledgement is null");
        if (sealed) {
            throw new IllegalStateException("An acknowledgement was added after all() was asked for");
        }
        count++;
        pending.incrementAndGet();
        acknowledgement.whenComplete(onAcknowledged);
    }

    /** How many acknowledgements were added. */
    public int count() {
        return count;
    }

    /**
     * How many acknowledgements completed with a failure so far (all of them are counted once
     * {@link #all()} completed): the rows of those may or may not be written.
     */
    public int failures() {
        return failures.get();
    }

    /** Completes once every acknowledgement added has; no more may be added after this call. */
    public CompletableFuture<Void> all() {
        if (!sealed) {
            sealed = true;
            release();
        }
        return all;
    }

    private void release() {
        if (pending.decrementAndGet() == 0) {
            Throwable failure = firstFailure.get();
            if (failure == null) {
                all.complete(null);
            } else {
                all.completeExceptionally(failure);
            }
        }
    }
}
