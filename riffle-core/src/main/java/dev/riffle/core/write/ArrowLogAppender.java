package dev.riffle.core.write;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.log.LogBatchEncoder;
import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.core.rpc.RetryThreads;
import dev.riffle.core.types.ArrowBufferBytes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.cluster.BucketLocation;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.LogFormat;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.InitWriterRequest;
import org.apache.fluss.rpc.messages.PbProduceLogRespForBucket;
import org.apache.fluss.rpc.messages.ProduceLogRequest;
import org.apache.fluss.rpc.protocol.Errors;

/**
 * Appends Arrow batches to a log table as Fluss log batches Riffle encodes from the vectors
 * themselves ({@link LogBatchEncoder}) and sends with Fluss's ProduceLog RPC, instead of handing
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
    private static final int ACKS_ALL = -1;
    private static final Duration RETRY_BACKOFF = Duration.ofMillis(100);
    /** How long past a batch's deadline its last attempt's answer is awaited before it counts as lost. */
    private static final long ANSWER_MARGIN_MILLIS = 5_000;
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

    private final MetadataUpdater metadata;
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
        this.metadata = connection.getMetadataUpdater();
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
                        return produce(bucket, bytes, deadline).thenApply(offset -> null);
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
            writer = new Writer(newWriterId(deadline), buckets.length);
        }
        writer.lastUsedNanos = now;
        return writer;
    }

    /**
     * A writer id from the cluster (InitWriter), which no other writer has; asked again after a
     * retriable failure (a tablet server going away) until {@code deadline} ({@link System#nanoTime}).
     */
    long newWriterId(long deadline) {
        InitWriterRequest request = new InitWriterRequest();
        request.addTablePath().setDatabaseName(table.getTablePath().getDatabaseName())
                .setTableName(table.getTablePath().getTableName());
        while (true) {
            long remaining = millisLeft(deadline);
            try {
                return metadata.newRandomTabletServerClient().initWriter(request)
                        .get(remaining, TimeUnit.MILLISECONDS).getWriterId();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FlussRuntimeException("Interrupted while getting a writer id for " + table.getTablePath(), e);
            } catch (Exception e) {
                Throwable cause = FlussErrors.unwrap(e);
                if (!FlussErrors.isRetriable(cause) || !roomForRetry(deadline)) {
                    throw new FlussRuntimeException("Could not get a writer id for " + table.getTablePath() + ": "
                            + cause.getMessage(), cause);
                }
                try {
                    Thread.sleep(RETRY_BACKOFF.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new FlussRuntimeException("Interrupted while getting a writer id for " + table.getTablePath(),
                            interrupted);
                }
            }
        }
    }

    /**
     * Sends one encoded batch to {@code bucket}'s leader until it is written or {@code deadline}
     * ({@link System#nanoTime}) passes; its base offset. The same bytes go again after a retriable
     * failure: the leader answers a batch it wrote already with that batch's offset.
     */
    CompletableFuture<Long> produce(int bucket, byte[] batch, long deadline) {
        TableBucket tableBucket = new TableBucket(table.getTableId(), bucket);
        TabletServerGateway leader = leader(tableBucket);
        CompletableFuture<Long> answer = leader == null
                ? CompletableFuture.failedFuture(new FlussRuntimeException("No leader known for " + tableBucket))
                : send(leader, bucket, batch, deadline);
        return answer.handle((offset, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(offset);
            }
            Throwable cause = FlussErrors.unwrap(failure);
            boolean retriable = leader == null || FlussErrors.isRetriable(cause)
                    || (cause instanceof ProduceError error && error.retriable());
            if (!retriable || !roomForRetry(deadline)) {
                return CompletableFuture.<Long>failedFuture(cause);
            }
            // A refresh waits for the coordinator: not on the Fluss client's thread that completed this answer.
            return CompletableFuture.runAsync(this::refreshMetadata, RetryThreads.after(RETRY_BACKOFF))
                    .thenCompose(ignored -> produce(bucket, batch, deadline));
        }).thenCompose(next -> next);
    }

    /**
     * Looks up the table's leaders anew (on a retry thread: it waits for the coordinator); fails
     * when the table at this path is gone or is another table now (dropped, or created again).
     */
    private void refreshMetadata() {
        try {
            metadata.updateTableOrPartitionMetadata(table.getTablePath(), null);
        } catch (RuntimeException e) {
            if (!FlussErrors.isRetriable(e)) {
                throw e;
            }
            return; // the coordinator is away for now: the next attempt finds no leader, and tries again
        }
        Optional<Long> current = metadata.getCluster().getTableId(table.getTablePath());
        if (current.isEmpty() || current.get() != table.getTableId()) {
            throw new TableNotExistException("Table " + table.getTablePath() + " (id " + table.getTableId() + ") was "
                    + (current.isEmpty() ? "dropped" : "dropped and created again (now id " + current.get() + ")")
                    + " while rows were being appended to it");
        }
    }

    /** The milliseconds until {@code deadline} ({@link System#nanoTime}), at least 1: an RPC's timeout. */
    private static long millisLeft(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    /** Whether a retry after the backoff still starts before {@code deadline} ({@link System#nanoTime}). */
    private static boolean roomForRetry(long deadline) {
        return System.nanoTime() + RETRY_BACKOFF.toNanos() - deadline <= 0;
    }

    private TabletServerGateway leader(TableBucket bucket) {
        try {
            return metadata.getBucketLocation(bucket).map(BucketLocation::getLeader)
                    .map(metadata::newTabletServerClientForNode).orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private CompletableFuture<Long> send(TabletServerGateway leader, int bucket, byte[] batch, long deadline) {
        long remaining = millisLeft(deadline);
        ProduceLogRequest request = new ProduceLogRequest().setAcks(ACKS_ALL).setTableId(table.getTableId())
                .setTimeoutMs((int) Math.min(Integer.MAX_VALUE, remaining));
        request.addBucketsReq().setBucketId(bucket).setRecords(batch);
        // The client puts no timeout on a request of its own: an answer lost with its connection
        // would hold the bucket's queue forever.
        return leader.produceLog(request).orTimeout(remaining + ANSWER_MARGIN_MILLIS, TimeUnit.MILLISECONDS)
                .thenApply(response -> {
            if (response.getBucketsRespsCount() != 1) {
                throw new CompletionException(new FlussRuntimeException("The leader of bucket " + bucket + " of "
                        + table.getTablePath() + " answered " + response.getBucketsRespsCount() + " buckets"));
            }
            PbProduceLogRespForBucket answer = response.getBucketsRespAt(0);
            if (answer.hasErrorCode() && answer.getErrorCode() != Errors.NONE.code()
                    && answer.getErrorCode() != Errors.DUPLICATE_SEQUENCE_EXCEPTION.code()) {
                throw new CompletionException(new ProduceError(answer.getErrorCode(),
                        answer.hasErrorMessage() ? answer.getErrorMessage() : Errors.forCode(answer.getErrorCode())
                                .message(), bucket, table));
            }
            return answer.hasBaseOffset() ? answer.getBaseOffset() : -1L;
        });
    }

    /** A bucket's error in a ProduceLog answer. */
    static final class ProduceError extends FlussRuntimeException {
        private final int code;

        ProduceError(int code, String message, int bucket, TableInfo table) {
            super("Writing to bucket " + bucket + " of " + table.getTablePath() + " failed: " + message
                    + " (" + Errors.forCode(code).name() + ")");
            this.code = code;
        }

        /** Worth sending again: not an out-of-order sequence, which no retry of the same batch mends. */
        boolean retriable() {
            return code != Errors.OUT_OF_ORDER_SEQUENCE_EXCEPTION.code() && FlussErrors.isRetriable(code);
        }

        int code() {
            return code;
        }
    }
}
