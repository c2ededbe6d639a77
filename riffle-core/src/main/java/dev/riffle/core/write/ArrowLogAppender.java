package dev.riffle.core.write;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.log.LogBatchEncoder;
import dev.riffle.core.rpc.LogProducer;
import dev.riffle.core.types.ArrowBufferBytes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.metadata.LogFormat;
import org.apache.fluss.metadata.TableInfo;

/**
 * Appends Arrow batches to a log table as Fluss log batches Riffle encodes from the vectors
 * themselves ({@link LogBatchEncoder}) and sends with Fluss's ProduceLog RPC ({@link LogProducer}), instead of handing
 * every row to Fluss's {@code AppendWriter}, which copies each into its own Arrow batches.
 *
 * <p>It writes as Fluss's idempotent writer does: a writer id from the cluster, a sequence per
 * bucket and batch from 0, one batch in flight per bucket, and a batch whose answer did not come
 * (a timeout, a leader that moved) sent again with the same writer id and sequence, which the
 * leader answers as written if it wrote it already. A batch that fails for good fails its append
 * and every batch queued behind it in its bucket (their sequences no longer follow), and the next
 * append starts a new writer id.
 *
 * <p>It takes log tables in the ARROW format that are not partitioned and have no bucket key (their
 * rows may go to any bucket: each batch goes to the next bucket in turn); {@link #takes} says so.
 *
 * <pre>{@code
 * ArrowLogAppender appender = new ArrowLogAppender(connection, tableInfo);
 * appender.append(List.of(root), Duration.ofSeconds(60)).join(); // root: the table's columns in order
 * }</pre>
 */
public final class ArrowLogAppender {
    /**
     * The most Arrow data one Fluss batch holds, before compression: a larger caller's batch is sent
     * as several, so that a reader's fetch (a few MiB) never has to take one batch many times its size.
     */
    static final long MAX_BATCH_BYTES = 4L << 20;
    /**
     * A writer this long without a batch is replaced before its next: a tablet server forgets a
     * writer after {@code server.writer-id.expiration-time} (7 days unless set) without writes,
     * and would then refuse its next sequence as out of order.
     */
    private static final long WRITER_IDLE_NANOS = TimeUnit.HOURS.toNanos(1);

    private final LogProducer producer;
    private final TableInfo table;
    private final LogBatchEncoder encoder;
    private final Bucket[] buckets;
    private final AtomicInteger nextBucket = new AtomicInteger();
    private final AtomicLong batchesQueued = new AtomicLong();
    /** The writer whose sequences the buckets follow; replaced after a batch failed for good. */
    private Writer writer;

    /**
     * One writer id; for each bucket the next sequence to give (guarded by the bucket's queue) and
     * whether a batch of the bucket failed for good (then the bucket's later sequences no longer
     * follow, and the next append starts a new writer).
     */
    private static final class Writer {
        final long id;
        final int[] nextSequence;
        final AtomicIntegerArray failedBuckets;
        volatile boolean failed;
        volatile long lastUsedNanos = System.nanoTime();

        Writer(long id, int buckets) {
            this.id = id;
            this.nextSequence = new int[buckets];
            this.failedBuckets = new AtomicIntegerArray(buckets);
        }

        void markFailed(int bucket) {
            failedBuckets.set(bucket, 1);
            failed = true;
        }

        boolean hasFailed(int bucket) {
            return failedBuckets.get(bucket) != 0;
        }
    }

    /** The batches of one bucket go out one at a time, in sequence order. */
    private static final class Bucket {
        CompletableFuture<Void> last = CompletableFuture.completedFuture(null);
    }

    public ArrowLogAppender(FlussConnection connection, TableInfo table) {
        requireNonNull(connection, "connection is null");
        this.table = requireNonNull(table, "table is null");
        if (!takes(table)) {
            throw new IllegalArgumentException(table.getTablePath() + " is not a log table in the ARROW format without"
                    + " partitions and bucket key, which is what Riffle encodes batches for");
        }
        this.producer = new LogProducer(connection, table);
        this.encoder = LogBatchEncoder.forTable(table);
        this.buckets = new Bucket[table.getNumBuckets()];
        for (int b = 0; b < buckets.length; b++) {
            buckets[b] = new Bucket();
        }
    }

    /** Whether this appender can write {@code table}'s rows. */
    public static boolean takes(TableInfo table) {
        return !table.hasPrimaryKey() && !table.isPartitioned() && !table.hasBucketKey()
                && table.getTableConfig().getLogFormat() == LogFormat.ARROW;
    }

    /**
     * Appends {@code batches} (each the table's columns in order, in the Arrow types Fluss writes
     * them as), each as one Fluss batch to the next bucket in turn. The batches are encoded before
     * this returns, so the caller may close them then; the future completes once every batch is
     * acknowledged by its leader and its replicas, or fails with the first batch that failed. A
     * batch is sent again after retriable failures until {@code timeout} has passed since this
     * call; a batch still queued then fails without being sent.
     */
    public CompletableFuture<Void> append(List<VectorSchemaRoot> batches, Duration timeout) {
        requireNonNull(batches, "batches is null");
        requireNonNull(timeout, "timeout is null");
        // One deadline for the whole append: a batch still queued behind others when it passes
        // fails without being sent (one in flight then may still be written; its answer is
        // awaited a few seconds longer).
        long deadline = System.nanoTime() + timeout.toNanos();
        List<CompletableFuture<Void>> acknowledged = new ArrayList<>(batches.size());
        try {
            for (VectorSchemaRoot batch : batches) {
                int rows = batch.getRowCount();
                if (rows == 0) {
                    continue;
                }
                long bytes = ArrowBufferBytes.of(batch);
                if (bytes <= MAX_BATCH_BYTES) {
                    acknowledged.add(enqueue(nextBucket(), batch, deadline));
                    continue;
                }
                int sliceRows = (int) Math.max(1, rows * MAX_BATCH_BYTES / bytes);
                for (int start = 0; start < rows; start += sliceRows) {
                    try (VectorSchemaRoot slice = batch.slice(start, Math.min(sliceRows, rows - start))) {
                        acknowledged.add(enqueue(nextBucket(), slice, deadline));
                    }
                }
            }
        } catch (RuntimeException e) {
            // The batches queued before this one go out all the same: the failure is answered once
            // they are done, and says their rows may have been written.
            RuntimeException failure = new FlussRuntimeException("Appending to " + table.getTablePath() + " failed"
                    + " after " + acknowledged.size() + " of its batches were queued, whose rows may have been"
                    + " written: " + e.getMessage(), e);
            return CompletableFuture.allOf(acknowledged.toArray(CompletableFuture[]::new))
                    .handle((done, ignored) -> null)
                    .thenCompose(ignored -> CompletableFuture.failedFuture(failure));
        }
        return CompletableFuture.allOf(acknowledged.toArray(CompletableFuture[]::new));
    }

    /** How many batches were queued to be sent (slices counted one by one). */
    long batchesQueued() {
        return batchesQueued.get();
    }

    private int nextBucket() {
        return Math.floorMod(nextBucket.getAndIncrement(), buckets.length);
    }

    private CompletableFuture<Void> enqueue(int bucket, VectorSchemaRoot batch, long deadline) {
        Writer current = writer(deadline);
        Bucket queue = buckets[bucket];
        // The sequence is given, the batch encoded with it and queued behind the bucket's last in
        // one step, so the bucket's batches go out in the order of their sequences.
        synchronized (queue) {
            int sequence = current.nextSequence[bucket];
            byte[] bytes = encoder.encode(batch, table.getSchemaId(), current.id, sequence);
            current.nextSequence[bucket] = sequence == Integer.MAX_VALUE ? 0 : sequence + 1;
            CompletableFuture<Void> sent = queue.last.handle((previous, failure) -> null)
                    .thenCompose(ignored -> {
                        if (current.hasFailed(bucket)) {
                            return CompletableFuture.failedFuture(new FlussRuntimeException("A batch sent before this"
                                    + " one to bucket " + bucket + " of " + table.getTablePath() + " failed, so this"
                                    + " one was not sent; nothing of it was written"));
                        }
                        if (System.nanoTime() - deadline > 0) {
                            return CompletableFuture.failedFuture(new FlussRuntimeException("The append to "
                                    + table.getTablePath() + " timed out before this batch was sent to bucket "
                                    + bucket + "; nothing of it was written"));
                        }
                        return producer.produce(bucket, bytes, deadline).thenApply(offset -> null);
                    });
            batchesQueued.incrementAndGet();
            CompletableFuture<Void> done = sent.whenComplete((ok, failure) -> {
                if (failure != null) {
                    current.markFailed(bucket);
                }
            });
            queue.last = done;
            return done;
        }
    }

    /** The writer to give sequences from: a new one at first, after a batch failed for good, and after an idle hour. */
    private synchronized Writer writer(long deadline) {
        long now = System.nanoTime();
        if (writer == null || writer.failed || now - writer.lastUsedNanos > WRITER_IDLE_NANOS) {
            writer = new Writer(producer.newWriterId(deadline), buckets.length);
        }
        writer.lastUsedNanos = now;
        return writer;
    }

}
