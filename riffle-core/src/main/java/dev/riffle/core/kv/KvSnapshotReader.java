package dev.riffle.core.kv;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.RowsReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.types.ArrowBufferBytes;
import dev.riffle.core.types.ArrowTypeMapping;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.types.RowType;

/**
 * The rows of many buckets' KV snapshots as Arrow batches, read by a few threads at once, one
 * bucket per thread at a time: downloading a snapshot, iterating its RocksDB files and turning
 * rows into Arrow all cost CPU per row, and the buckets are independent. The threads start when
 * the reader is made, so they read while the caller does other work (the snapshot scan folds the
 * log tail meanwhile). Batches come in no particular bucket order.
 *
 * <p>Memory: at most {@code 2 × threads} batches wait to be taken, and each thread fills one more,, allocated from the given
 * allocator; a batch handed out is the caller's. Closing the reader stops the threads and frees
 * what waits.
 *
 * <pre>{@code
 * try (TableReader rows = new KvSnapshotReader(connection, table, snapshots, new int[] {0, 2}, allocator, 2)) {
 *     while (rows.hasNext()) {
 *         try (ReadBatch batch = rows.next()) { ... }
 *     }
 * }
 * }</pre>
 */
public final class KvSnapshotReader implements TableReader {
    private static final long JOIN_MILLIS = TimeUnit.SECONDS.toMillis(30);
    /**
     * What the last thread to finish puts after its last batch: without it the end of a read was seen
     * only when a 50 ms wait for the next batch ran out, 50 ms on every scan of a primary-key table
     * (a join of 17 small tables paid it 17 times). It holds nothing; closing it frees nothing.
     */
    private static final VectorSchemaRoot END = new VectorSchemaRoot(List.of(), List.of());

    private final Schema schema;
    private final BufferAllocator allocator;
    private final BlockingQueue<VectorSchemaRoot> ready;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Threads that have put their last batch (incremented after it): the end once the queue is empty. */
    private final AtomicInteger finished = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private VectorSchemaRoot pending;
    private boolean ended;
    private long rowsOut;
    private long bytes;

    /**
     * @param snapshots the buckets' snapshots to read, each once
     * @param fields the table's fields to read, in output order
     * @param threads how many buckets to read at once (at most one per snapshot)
     */
    public KvSnapshotReader(FlussConnection connection, TableInfo table, List<KvSnapshot> snapshots, int[] fields,
            BufferAllocator allocator, int threads) {
        requireNonNull(connection, "connection is null");
        requireNonNull(table, "table is null");
        requireNonNull(snapshots, "snapshots is null");
        requireNonNull(fields, "fields is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        RowType rowType = table.getRowType().project(fields);
        this.schema = ArrowTypeMapping.toArrowSchema(rowType);
        int count = Math.max(1, Math.min(threads, snapshots.size()));
        this.ready = new ArrayBlockingQueue<>(2 * count);
        Queue<KvSnapshot> todo = new ConcurrentLinkedQueue<>(snapshots);
        int[] all = new int[fields.length];
        Arrays.setAll(all, i -> i);
        int[] fieldsCopy = fields.clone();
        for (int i = 0; i < count; i++) {
            Thread thread = new Thread(() -> readBuckets(connection, table, todo, fieldsCopy, rowType, all),
                    "riffle-kv-snapshot-" + table.getTablePath() + "-" + i);
            thread.setDaemon(true);
            this.threads.add(thread);
        }
        this.threads.forEach(Thread::start);
    }

    /** How many buckets to read at once by default: one per core (and at most one per bucket). */
    public static int defaultThreads() {
        return Runtime.getRuntime().availableProcessors();
    }

    private void readBuckets(FlussConnection connection, TableInfo table, Queue<KvSnapshot> todo, int[] fields,
            RowType rowType, int[] all) {
        try {
            KvSnapshot snapshot;
            while (!closed.get() && (snapshot = todo.poll()) != null) {
                try (RowsReader rows = new RowsReader(KvSnapshotRows.of(connection, table, List.of(snapshot), fields),
                        rowType, all, allocator)) {
                    while (!closed.get() && rows.hasNext()) {
                        VectorSchemaRoot batch = rows.next().root();
                        if (!put(batch)) {
                            batch.close();
                            return;
                        }
                    }
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        } finally {
            if (finished.incrementAndGet() == threads.size()) {
                ready.offer(END); // wakes a waiting hasNext at once; a full queue has batches to take first
            }
        }
    }

    /** Waits for room unless the reader closes; false if it closed. */
    private boolean put(VectorSchemaRoot batch) {
        try {
            while (!closed.get()) {
                if (ready.offer(batch, 50, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public boolean hasNext() {
        if (pending != null) {
            return true;
        }
        if (ended) {
            return false;
        }
        try {
            while (true) {
                rethrowFailure();
                VectorSchemaRoot batch = ready.poll(50, TimeUnit.MILLISECONDS);
                if (batch != null && batch != END) {
                    pending = batch;
                    return true;
                }
                // A thread counts itself finished after its last put, so an empty queue then means the end.
                if (finished.get() == threads.size() && ready.isEmpty()) {
                    ended = true;
                    rethrowFailure();
                    return false;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while reading KV snapshots", e);
        }
    }

    private void rethrowFailure() {
        Throwable failed = failure.get();
        if (failed instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failed instanceof Error error) {
            throw error;
        }
        if (failed != null) {
            throw new IllegalStateException("Reading KV snapshots failed: " + failed.getMessage(), failed);
        }
    }

    @Override
    public ReadBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The KV snapshots have been read");
        }
        VectorSchemaRoot batch = pending;
        pending = null;
        rowsOut += batch.getRowCount();
        bytes += ArrowBufferBytes.of(batch);
        return ReadBatch.of(batch);
    }

    @Override
    public ReadProgress progress() {
        return new ReadProgress(rowsOut, bytes, 0, 0);
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return Map.of();
    }

    @Override
    public BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (Thread thread : threads) {
            try {
                thread.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (pending != null) {
            pending.close();
            pending = null;
        }
        VectorSchemaRoot batch;
        while ((batch = ready.poll()) != null) {
            batch.close();
        }
    }
}
