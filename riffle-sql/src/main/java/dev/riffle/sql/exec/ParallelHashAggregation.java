package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.sql.plan.AggregatePlan;
import dev.riffle.sql.plan.VectorizedInput;
import dev.riffle.sql.statement.ExecutionGuard;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Folds a read's batches into the groups of a hash aggregate on the statement's thread and, once
 * the read has passed {@link #HELPER_AFTER_ROWS} rows and a core is free, into a second set of
 * groups on a helper thread too; the helper's groups are merged in when the read ends
 * ({@link HashAggregation#absorb}). The statement's thread hands the helper a batch whenever the
 * helper has none waiting and folds the others itself, so the two share the work by their speed
 * and the helper never holds more than two batches.
 *
 * <p>The helpers are one pool for the process, one thread fewer than it has cores, and take no
 * queue: a statement that finds them all busy (other statements aggregating) runs on its own
 * thread alone, as every statement did before; the cores are what bounds the work, not a count
 * per statement. The first {@link #HELPER_AFTER_ROWS} rows are always folded on the statement's
 * thread: a small read costs less than a thread hand-off, and keeps the order of groups its
 * batches give.
 *
 * <p>While the read runs, the groups counted against the statement's budget are the larger of the
 * two sets' (a key is in both when both read it); once merged, the groups themselves.
 *
 * <pre>{@code
 * ParallelHashAggregation groups = new ParallelHashAggregation(aggregate, input, allocator, guard);
 * scan.forEachOwnedBatch(context, allocator, groups);
 * List<Object> rows = groups.rows();
 * }</pre>
 */
final class ParallelHashAggregation implements ScanExecutor.OwnedBatchSink {
    /** Rows folded on the statement's thread before a helper is asked for. */
    static final long HELPER_AFTER_ROWS = 1 << 18;
    private static final ThreadPoolExecutor HELPERS = helpers(Runtime.getRuntime().availableProcessors() - 1);

    private final HashAggregation groups;
    private final VectorizedInput input;
    private final BufferAllocator allocator;
    private final ExecutionGuard guard;
    private final ComputedBatches inputs;
    private final ScanExecutor.BatchSink fold;
    private long rowsRead;
    private long counted;
    private Helper helper;
    private boolean helperRefused = HELPERS == null;
    private boolean released;

    /** @param allocator where the input columns computed from each batch are allocated */
    ParallelHashAggregation(AggregatePlan aggregate, VectorizedInput input, BufferAllocator allocator,
            ExecutionGuard guard) {
        this.groups = new HashAggregation(requireNonNull(aggregate, "aggregate is null"));
        this.input = requireNonNull(input, "input is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.guard = requireNonNull(guard, "guard is null");
        this.inputs = new ComputedBatches(input, allocator);
        this.fold = inputs.feeding(groups::add);
    }

    @Override
    public void accept(ReadBatch batch, int rows) {
        try {
            if (helper == null && !helperRefused && rowsRead >= HELPER_AFTER_ROWS) {
                startHelper();
            }
            rowsRead += rows;
            if (helper != null) {
                helper.throwIfFailed();
                if (helper.offer(batch, rows)) {
                    batch = null;
                }
            }
            if (batch != null) {
                fold.accept(batch.root(), rows);
            }
        } finally {
            if (batch != null) {
                batch.close();
            }
        }
        countGroups(Math.max(groups.count(), helper == null ? 0 : helper.groupCount()));
    }

    @Override
    public void release() {
        if (released) {
            return;
        }
        released = true;
        try {
            if (helper != null) {
                helper.finish();
            }
        } finally {
            inputs.close();
        }
    }

    /**
     * The groups as Calcite rows ({@link HashAggregation#rows}), the helper's merged in; after
     * {@link #release}.
     */
    List<Object> rows() {
        if (!released) {
            throw new IllegalStateException("The aggregate's read has not ended");
        }
        if (helper != null) {
            helper.throwIfFailed();
            groups.absorb(helper.groups);
            countGroups(groups.count());
        }
        return groups.rows();
    }

    private void countGroups(long count) {
        if (count > counted) {
            guard.groups(count - counted);
            counted = count;
        }
    }

    private void startHelper() {
        Helper started = new Helper(groups.sibling());
        try {
            HELPERS.execute(started);
            helper = started;
        } catch (RejectedExecutionException busy) {
            started.inputs.close();
            helperRefused = true; // every helper is busy: this statement folds alone
        }
    }

    private static ThreadPoolExecutor helpers(int threads) {
        if (threads < 1) {
            return null;
        }
        AtomicInteger number = new AtomicInteger();
        return new ThreadPoolExecutor(0, threads, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), runnable -> {
            Thread thread = new Thread(runnable, "riffle-sql-aggregate-" + number.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The helper thread's share: batches handed to it one at a time, folded into its own groups. */
    private final class Helper implements Runnable {
        private static final Work END = new Work(null, 0);
        private final BlockingQueue<Work> queue = new ArrayBlockingQueue<>(1);
        private final HashAggregation groups;
        private final ComputedBatches inputs;
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile int groupCount;
        private volatile Throwable failure;

        Helper(HashAggregation groups) {
            this.groups = groups;
            this.inputs = new ComputedBatches(input, allocator);
        }

        /** Hands the batch over when the helper has none waiting; false when it keeps the caller's. */
        boolean offer(ReadBatch batch, int rows) {
            return queue.offer(new Work(batch, rows));
        }

        int groupCount() {
            return groupCount;
        }

        @Override
        public void run() {
            ScanExecutor.BatchSink fold = inputs.feeding(groups::add);
            try {
                for (Work work = take(); work != END; work = take()) {
                    try (ReadBatch batch = work.batch()) {
                        if (failure == null) {
                            fold.accept(batch.root(), work.rows());
                            groupCount = groups.count();
                        }
                    } catch (RuntimeException | Error e) {
                        failure = e; // later batches are closed unread until the statement's thread ends the read
                    }
                }
            } finally {
                inputs.close();
                done.countDown();
            }
        }

        private Work take() {
            while (true) {
                try {
                    return queue.take();
                } catch (InterruptedException e) {
                    // Nothing here interrupts a helper; whatever did, the statement's thread still
                    // hands over END and waits for it, so the helper goes on until then.
                }
            }
        }

        /** Ends the helper's share and waits until every batch it took is folded and closed. */
        void finish() {
            // Uninterruptibly: the helper holds batches of the read, which must be closed before the read is.
            boolean interrupted = false;
            while (true) {
                try {
                    queue.put(END);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            while (true) {
                try {
                    done.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        void throwIfFailed() {
            Throwable failed = failure;
            if (failed instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failed instanceof Error error) {
                throw error;
            }
        }
    }

    private record Work(ReadBatch batch, int rows) {}
}
