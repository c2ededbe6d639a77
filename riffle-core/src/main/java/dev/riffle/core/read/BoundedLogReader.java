package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidOffsetsException;
import dev.riffle.core.merge.LogTail;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * Reads every subscribed bucket of an {@link ArrowLogScanner} up to stop offsets fixed at
 * creation, then ends: the JVM's counterpart of fluss-rust's {@code RecordBatchLogReader}.
 *
 * <pre>{@code
 * try (BoundedLogReader reader = riffle.table("shop.orders").read().until(StoppingOffsets.latest()).createReader()) {
 *     while (reader.hasNext()) {
 *         try (LogBatch batch = reader.next()) {
 *             System.out.println(batch.bucket().getBucket() + "@" + batch.baseOffset() + " " + batch.rowCount());
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Semantics: a batch that crosses its bucket's stop offset is sliced; a batch with no rows is
 * never returned; a bucket whose start is at or past its stop is not read at all. Every
 * subscribed bucket needs a stop offset and every stop offset needs a subscribed bucket, or
 * creation fails (an unsubscribed bucket would otherwise be waited for forever). While the reader
 * is open it holds the scanner; {@link #close()} unsubscribes the buckets not finished and frees
 * the scanner for reuse (or closes it, when the reader created it).
 *
 * <p>It is a {@link TableReader} whose batches are {@link LogBatch}es (which keep bucket,
 * partition and base offset), and the {@link LogTail} a keyed merge folds; the rows can also be
 * collected, taken as an Arrow reader, written as an Arrow IPC stream, or exported through the
 * Arrow C data interface (DuckDB, Polars, ...).
 */
public final class BoundedLogReader implements TableReader, LogTail {
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(500);

    private final ArrowLogScanner scanner;
    private final boolean ownsScanner;
    private final StopOffsetTracker tracker;
    private final Map<TableBucket, Long> startOffsets;
    private final Optional<Duration> timeout;
    private final long startedNanos;
    private final int bucketCount;
    private final ArrayDeque<LogBatch> pending = new ArrayDeque<>();
    private long rowsRead;
    private long bytesRead;
    private boolean closed;

    private BoundedLogReader(ArrowLogScanner scanner, boolean ownsScanner, Map<TableBucket, Long> stopOffsets,
            Optional<Duration> timeout) {
        this.scanner = scanner;
        this.ownsScanner = ownsScanner;
        this.timeout = timeout;
        this.tracker = new StopOffsetTracker(stopOffsets);
        this.startOffsets = Map.copyOf(scanner.subscriptions());
        this.bucketCount = stopOffsets.size();
        this.startedNanos = System.nanoTime();
    }

    /**
     * A reader over the scanner's current subscriptions, stopping at {@code stopOffsets}
     * (exclusive, one per subscribed bucket). The scanner stays open when the reader closes.
     *
     * @param timeout how long the whole read may take; past it {@link #hasNext()} fails naming
     *     the buckets not yet caught up
     * @throws IllegalStateException when nothing is subscribed, or the scanner has an active reader
     * @throws IllegalArgumentException when a stop offset names a bucket that is not subscribed,
     *     or a subscribed bucket has no stop offset
     */
    public static BoundedLogReader create(ArrowLogScanner scanner, Map<TableBucket, Long> stopOffsets,
            Optional<Duration> timeout) {
        return create(scanner, false, stopOffsets, timeout);
    }

    /**
     * As {@link #create(ArrowLogScanner, Map, Optional)}; with {@code ownsScanner} the reader closes
     * the scanner when it closes (for a scanner made just for this read).
     */
    public static BoundedLogReader create(ArrowLogScanner scanner, boolean ownsScanner, Map<TableBucket, Long> stopOffsets,
            Optional<Duration> timeout) {
        return create(scanner, ownsScanner, stopOffsets, timeout, false);
    }

    /**
     * As above; {@code emptyScope} says that no bucket is in scope on purpose (a partitioned table
     * with no partitions yet), so the reader is empty rather than a caller's mistake.
     */
    static BoundedLogReader create(ArrowLogScanner scanner, boolean ownsScanner, Map<TableBucket, Long> stopOffsets,
            Optional<Duration> timeout, boolean emptyScope) {
        requireNonNull(scanner, "scanner is null");
        requireNonNull(stopOffsets, "stopOffsets is null");
        requireNonNull(timeout, "timeout is null");
        Map<TableBucket, Long> subscribed = scanner.subscriptions();
        String table = scanner.table().getTablePath().toString();
        if (subscribed.isEmpty() && !emptyScope) {
            throw new IllegalStateException("Nothing to read: the scanner of " + table
                    + " has no subscribed buckets; subscribe buckets before creating a bounded reader");
        }
        for (TableBucket bucket : stopOffsets.keySet()) {
            if (!subscribed.containsKey(bucket)) {
                throw new InvalidOffsetsException("A stop offset is given for " + describe(bucket) + " of " + table
                        + ", which is not subscribed; subscribed: " + describeAll(subscribed.keySet()));
            }
        }
        for (TableBucket bucket : subscribed.keySet()) {
            if (!stopOffsets.containsKey(bucket)) {
                throw new InvalidOffsetsException("No stop offset for subscribed " + describe(bucket) + " of "
                        + table + "; a bounded read needs one for every subscribed bucket");
            }
        }
        BoundedLogReader reader = new BoundedLogReader(scanner, ownsScanner, stopOffsets, timeout);
        scanner.acquire(reader);
        stopOffsets.forEach((bucket, stop) -> scanner.fetchUntilAsOwner(reader, bucket, stop));
        subscribed.forEach((bucket, position) -> reader.tracker.advance(bucket, position));
        reader.unsubscribeFinished();
        return reader;
    }

    /**
     * Where each bucket's read started. With {@link LogBatch#endOffset()} of the last batch seen per
     * bucket, this tells where to resume a read that was cut short (e.g. paging).
     */
    public Map<TableBucket, Long> startOffsets() {
        return startOffsets;
    }

    @Override
    public Map<TableBucket, Long> logStartOffsets() {
        return startOffsets;
    }

    /** The stop offset of every bucket the reader covers, captured at creation (exclusive). */
    public Map<TableBucket, Long> stopOffsets() {
        return tracker.stops();
    }

    /** The same as {@link #stopOffsets()}: the whole read is the log. */
    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return tracker.stops();
    }

    @Override
    public BufferAllocator allocator() {
        return scanner.allocator();
    }

    /** The schema of every batch. */
    @Override
    public Schema schema() {
        return scanner.schema();
    }

    /** Rows and Arrow bytes returned so far, and how many buckets are done. */
    @Override
    public ReadProgress progress() {
        return new ReadProgress(rowsRead, bytesRead, bucketCount - tracker.unfinishedCount(), bucketCount);
    }

    /**
     * Whether another batch follows; blocks until one arrives or every bucket reached its stop.
     *
     * @throws ReadTimeoutException when the timeout passes first
     */
    @Override
    public boolean hasNext() {
        if (closed) {
            return false;
        }
        try {
            while (pending.isEmpty() && !tracker.allFinished()) {
                checkTimeout();
                for (LogBatch batch : scanner.pollAsOwner(this, POLL_TIMEOUT)) {
                    accept(batch);
                }
                scanner.subscriptions().forEach(tracker::advance);
                unsubscribeFinished();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading " + scanner.table().getTablePath(), e);
        }
        return !pending.isEmpty();
    }

    /** The next batch; the caller owns it and must close it. */
    @Override
    public LogBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The bounded read of " + scanner.table().getTablePath() + " has ended");
        }
        LogBatch batch = pending.poll();
        rowsRead += batch.rowCount();
        bytesRead += batch.bufferBytes();
        return batch;
    }

    /** Every remaining batch, in memory. Close the result to free it. */
    public LogBatches collectAll() {
        List<LogBatch> batches = new ArrayList<>();
        try {
            while (hasNext()) {
                batches.add(next());
            }
        } catch (RuntimeException e) {
            batches.forEach(LogBatch::close);
            throw e;
        }
        return new LogBatches(schema(), batches);
    }

    /**
     * Ends the read: batches not handed out are freed, buckets not finished are unsubscribed, and
     * the scanner is free for another reader (or closed, when this reader created it).
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        pending.forEach(LogBatch::close);
        pending.clear();
        try {
            for (TableBucket bucket : scanner.subscriptions().keySet()) {
                scanner.unsubscribeAsOwner(this, bucket);
            }
        } finally {
            scanner.release(this);
            if (ownsScanner) {
                scanner.close();
            }
        }
    }

    private void accept(LogBatch batch) {
        Optional<StopOffsetTracker.Keep> keep = tracker.accept(batch.bucket(), batch.baseOffset(), batch.rowCount());
        if (keep.isEmpty()) {
            batch.close();
        } else if (keep.get().from() == 0 && keep.get().length() == batch.rowCount()) {
            pending.add(batch);
        } else {
            try (batch) {
                pending.add(batch.slice(keep.get().from(), keep.get().length()));
            }
        }
    }

    private void unsubscribeFinished() {
        for (TableBucket bucket : scanner.subscriptions().keySet()) {
            if (tracker.isFinished(bucket)) {
                scanner.unsubscribeAsOwner(this, bucket);
            }
        }
    }

    private void checkTimeout() {
        if (timeout.isEmpty()) {
            return;
        }
        long elapsed = System.nanoTime() - startedNanos;
        if (elapsed > timeout.get().toNanos()) {
            Map<TableBucket, Long> positions = scanner.subscriptions();
            String behind = new TreeMap<>(tracker.unfinished().entrySet().stream().collect(Collectors.toMap(
                            e -> describe(e.getKey()), e -> "at " + positions.getOrDefault(e.getKey(), -1L)
                                    + ", stop " + e.getValue())))
                    .toString();
            throw new ReadTimeoutException("The bounded read of " + scanner.table().getTablePath()
                    + " did not finish within " + timeout.get() + "; buckets not caught up: " + behind);
        }
    }

    private static String describe(TableBucket bucket) {
        return "bucket " + bucket.getBucket()
                + (bucket.getPartitionId() == null ? "" : " (partition id " + bucket.getPartitionId() + ")");
    }

    private static String describeAll(java.util.Collection<TableBucket> buckets) {
        return buckets.stream().map(BoundedLogReader::describe).sorted().collect(Collectors.joining(", ", "[", "]"));
    }
}
