package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.LogExpiredException;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.exception.LogOffsetOutOfRangeException;
import org.apache.fluss.metadata.TableBucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A primary-key table's current rows (each bucket's latest KV snapshot with the log past it merged
 * over it), opened again from the then latest snapshots when the log a read needs expires between
 * looking the snapshots up and fetching the log: a segment can expire ({@code table.log.ttl}) while
 * the read starts, and a newer snapshot, taken meanwhile, no longer needs it. Only before the first
 * batch, so a reader never hands out a row twice; a few tries, a pause apart, then the
 * {@link LogExpiredException} that says what would help.
 *
 * <pre>{@code
 * TableReader rows = CurrentRowsReader.open(this::snapshotReader, 4, Duration.ofSeconds(1));
 * }</pre>
 */
final class CurrentRowsReader implements TableReader {
    private static final Logger LOG = LoggerFactory.getLogger(CurrentRowsReader.class);

    private final Supplier<TableReader> open;
    private final int attempts;
    private final Duration pause;
    private TableReader current;
    private int opened;
    private boolean started;

    private CurrentRowsReader(Supplier<TableReader> open, int attempts, Duration pause) {
        this.open = open;
        this.attempts = attempts;
        this.pause = pause;
    }

    /**
     * Opens the read with {@code open}, again (after {@code pause}) while it fails because the log
     * it needs expired, up to {@code attempts} opens in all.
     */
    static TableReader open(Supplier<TableReader> open, int attempts, Duration pause) {
        requireNonNull(open, "open is null");
        requireNonNull(pause, "pause is null");
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1, got " + attempts);
        }
        CurrentRowsReader reader = new CurrentRowsReader(open, attempts, pause);
        reader.reopen(null);
        return reader;
    }

    @Override
    public boolean hasNext() {
        if (started) {
            return current.hasNext();
        }
        while (true) {
            try {
                boolean more = current.hasNext();
                started = true;
                return more;
            } catch (RuntimeException e) {
                if (!expired(e)) {
                    throw e;
                }
                current.close();
                current = null;
                reopen(e);
            }
        }
    }

    /** Opens the read anew, pausing first when this is not the first try; fails when the tries are used up. */
    private void reopen(RuntimeException previous) {
        RuntimeException failure = previous;
        while (opened < attempts) {
            if (opened > 0) {
                LOG.info("The log past a KV snapshot expired as the read started ({}); reading again from the latest"
                        + " snapshots in {} ms (try {} of {})", failure.getMessage(), pause.toMillis(), opened + 1,
                        attempts);
                sleep();
            }
            opened++;
            try {
                current = open.get();
                return;
            } catch (RuntimeException e) {
                if (!expired(e)) {
                    throw e;
                }
                failure = e;
            }
        }
        if (failure instanceof LogExpiredException expired) {
            throw expired;
        }
        throw new LogExpiredException("The log past the latest KV snapshots expired while the read started, "
                + attempts + " times: " + failure.getMessage() + ". Wait for the next KV snapshot (kv.snapshot.interval),"
                + " keep the log longer (table.log.ttl), or read the table through its lake", failure);
    }

    private void sleep() {
        try {
            Thread.sleep(pause.toMillis()); // a newer KV snapshot has no event to wait on here
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting to read the current rows again", e);
        }
    }

    /** Whether a failure means the log the read needs is gone (expired past a snapshot), anywhere in its causes. */
    static boolean expired(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof LogExpiredException || t instanceof LogOffsetOutOfRangeException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    @Override
    public Schema schema() {
        return current.schema();
    }

    @Override
    public ReadBatch next() {
        if (!hasNext()) {
            throw new java.util.NoSuchElementException("The read has no more batches");
        }
        return current.next();
    }

    @Override
    public ReadProgress progress() {
        return current.progress();
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return current.logStopOffsets();
    }

    @Override
    public Map<TableBucket, Long> logStartOffsets() {
        return current.logStartOffsets();
    }

    @Override
    public Optional<Long> lakeSnapshotId() {
        return current.lakeSnapshotId();
    }

    @Override
    public boolean truncated() {
        return current.truncated();
    }

    @Override
    public BufferAllocator allocator() {
        return current.allocator();
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
        }
    }
}
