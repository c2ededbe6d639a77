package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a round's bucket spans are read and written in parallel: one task per span, over up to one
 * thread per core (reading rows and encoding lake files is CPU-bound; one thread would leave the
 * other cores idle).
 *
 * <pre>{@code
 * List<Optional<BucketWrite<W>>> writes = BucketPool.runAll(path.toString(), plan.spans(), span -> tier(span));
 * }</pre>
 *
 * <p>If a task fails, the others are interrupted and waited for (so nothing of the round is still
 * running, or holding memory, when this returns), then the first failure is thrown.
 */
final class BucketPool {
    private static final Logger LOG = LoggerFactory.getLogger(BucketPool.class);
    private static final long STOP_WAIT_SECONDS = 60;

    /** One span's work. */
    @FunctionalInterface
    interface SpanTask<T> {
        T run(BucketSpan span) throws Exception;
    }

    private BucketPool() {}

    /**
     * Runs {@code task} for every span; the results are in the order of {@code spans}.
     *
     * @param name what the threads are named after (the table)
     */
    static <T> List<T> runAll(String name, List<BucketSpan> spans, SpanTask<T> task) throws Exception {
        requireNonNull(name, "name is null");
        requireNonNull(spans, "spans is null");
        requireNonNull(task, "task is null");
        if (spans.isEmpty()) {
            return List.of();
        }
        int threads = Math.min(spans.size(), Runtime.getRuntime().availableProcessors());
        AtomicInteger counter = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "riffle-tiering-" + name + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        try {
            ExecutorCompletionService<T> completion = new ExecutorCompletionService<>(pool);
            Map<Future<T>, Integer> positions = new IdentityHashMap<>();
            for (int i = 0; i < spans.size(); i++) {
                BucketSpan span = spans.get(i);
                positions.put(completion.submit(() -> task.run(span)), i);
            }
            List<T> results = new ArrayList<>(spans.size());
            for (int i = 0; i < spans.size(); i++) {
                results.add(null);
            }
            for (int done = 0; done < spans.size(); done++) {
                Future<T> finished = completion.take();
                try {
                    results.set(positions.get(finished), finished.get());
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
            if (!pool.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Tiering tasks of {} still run {} s after they were interrupted", name, STOP_WAIT_SECONDS);
            }
        }
    }
}
