package dev.riffle.core.write;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

/**
 * The acknowledgements of the rows one write sent, as one future and as counts: it completes once
 * every acknowledgement added has completed, normally when all did, else with the first failure
 * seen (as {@link CompletableFuture#allOf} would, so nothing the write sent is still in flight when
 * it answers). Unlike {@code allOf}, which builds a tree of relay futures over an array of every
 * row's future, each acknowledgement only counts down: for a request of a million rows, the
 * {@code allOf} tree cost about a sixth of the request thread's time. An acknowledgement stands
 * for one row, or for the rows of the batches it covers ({@link #add(CompletableFuture, long)}), so
 * a failure says how many rows may or may not be written ({@link #await}).
 *
 * <p>Rows are added by one thread; acknowledgements may complete on any.
 *
 * <pre>{@code
 * Acknowledgements acks = new Acknowledgements();
 * for (GenericRow row : rows) {
 *     acks.add(writer.append(row));
 * }
 * long written = acks.await(Duration.ofSeconds(30), "rows written to shop.orders");
 * }</pre>
 */
public final class Acknowledgements {
    private final CompletableFuture<Void> all = new CompletableFuture<>();
    /** Acknowledgements not yet completed, plus one held until {@link #all()} is asked for. */
    private final AtomicInteger pending = new AtomicInteger(1);
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private final AtomicLong failedRows = new AtomicLong();
    /** What a one-row acknowledgement does when it completes: one shared consumer, no object per row. */
    private final BiConsumer<Object, Throwable> onRowAcknowledged = (result, failure) -> acknowledged(failure, 1);
    private long rows;
    private boolean sealed;

    /** Counts {@code acknowledgement} in, for one row; refused once {@link #all()} was asked for. */
    public void add(CompletableFuture<?> acknowledgement) {
        requireNonNull(acknowledgement, "acknowledgement is null");
        seal(1);
        acknowledgement.whenComplete(onRowAcknowledged);
    }

    /**
     * Counts {@code acknowledgement} in, for {@code rows} rows (the batches it covers all succeed
     * or fail together); refused once {@link #all()} was asked for.
     */
    public void add(CompletableFuture<?> acknowledgement, long rows) {
        requireNonNull(acknowledgement, "acknowledgement is null");
        if (rows < 0) {
            throw new IllegalArgumentException("rows must not be negative, got " + rows);
        }
        seal(rows);
        acknowledgement.whenComplete((result, failure) -> acknowledged(failure, rows));
    }

    private void seal(long added) {
        if (sealed) {
            throw new IllegalStateException("An acknowledgement was added after all() was asked for");
        }
        rows += added;
        pending.incrementAndGet();
    }

    private void acknowledged(Throwable failure, long covered) {
        if (failure != null) {
            failedRows.addAndGet(covered);
            firstFailure.compareAndSet(null, failure);
        }
        release();
    }

    /** How many rows the acknowledgements added stand for. */
    public long count() {
        return rows;
    }

    /**
     * How many rows have a failed acknowledgement so far (all of them are counted once
     * {@link #all()} completed): those may or may not be written.
     */
    public long failures() {
        return failedRows.get();
    }

    /** Completes once every acknowledgement added has; no more may be added after this call. */
    public CompletableFuture<Void> all() {
        if (!sealed) {
            sealed = true;
            release();
        }
        return all;
    }

    /**
     * Waits at most {@code timeout} for every acknowledgement and returns the rows written; no
     * more may be added after this call.
     *
     * @param what the rows, as the failure's message names them ({@code "the rows written to shop.orders"})
     * @throws WriteNotAcknowledgedException when Fluss rejected rows or did not answer in time,
     *     saying how many rows were written and how many may or may not be
     */
    public long await(Duration timeout, String what) {
        requireNonNull(timeout, "timeout is null");
        requireNonNull(what, "what is null");
        try {
            all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return rows;
        } catch (ExecutionException e) {
            long failed = failures();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new WriteNotAcknowledgedException("Fluss rejected " + failed + " of the " + rows + " " + what + " ("
                    + cause.getMessage() + "): those may or may not be written; the other " + (rows - failed)
                    + " were written", rows - failed, failed, cause);
        } catch (TimeoutException e) {
            throw new WriteNotAcknowledgedException("Fluss did not acknowledge the " + rows + " " + what + " within "
                    + (timeout.toMillis() < 1_000 ? timeout.toMillis() + " ms" : timeout.toSeconds() + " s")
                    + ": they may or may not be written", 0, rows, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WriteNotAcknowledgedException("Interrupted while waiting for Fluss to acknowledge the " + rows
                    + " " + what + ": they may or may not be written", 0, rows, e);
        }
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
