package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where Riffle's own asynchronous retries wait out their backoff, refresh metadata and send again
 * (the admin's read calls, a created table's readiness, Arrow log appends). A refresh blocks for a
 * round trip to the coordinator, so it must run neither on the Fluss client's network threads that
 * complete the answers (a thread waiting there could hold up the very answer it waits for) nor on
 * the common pool. Threads are made as retries come, up to 64, and end after a minute without one:
 * while the coordinator is away every waiting refresh holds a thread, and a handful would make the
 * later retries wait behind them past their deadlines; past 64, retries queue.
 *
 * <pre>{@code
 * CompletableFuture.runAsync(metadata::refresh, RetryThreads.after(Duration.ofMillis(100)))
 *         .thenCompose(refreshed -> sendAgain());
 * }</pre>
 */
public final class RetryThreads {
    private static final AtomicInteger COUNT = new AtomicInteger();
    private static final int MAX_THREADS = 64;
    private static final ThreadPoolExecutor POOL = pool();

    private RetryThreads() {}

    private static ThreadPoolExecutor pool() {
        // Core threads that time out: a task gets a new thread while fewer than 64 live, and a thread
        // without a task for a minute ends, so an idle process holds none.
        ThreadPoolExecutor pool = new ThreadPoolExecutor(MAX_THREADS, MAX_THREADS, 60, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "riffle-retry-" + COUNT.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Runs tasks at once on a retry thread. */
    public static Executor now() {
        return POOL;
    }

    /** Runs tasks on a retry thread once {@code delay} has passed. */
    public static Executor after(Duration delay) {
        requireNonNull(delay, "delay is null");
        return CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS, POOL);
    }
}
