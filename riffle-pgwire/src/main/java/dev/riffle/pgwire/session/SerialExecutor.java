package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one connection's tasks one at a time, in order, on a shared pool: a connection's
 * statements never run at once, and never on Netty's event loop (statements block on Fluss).
 *
 * <pre>{@code
 * SerialExecutor worker = new SerialExecutor(pool);
 * worker.execute(() -> session.handle(message));
 * }</pre>
 */
final class SerialExecutor implements Executor {
    private static final Logger LOG = LoggerFactory.getLogger(SerialExecutor.class);

    private final Executor pool;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private boolean running;

    SerialExecutor(Executor pool) {
        this.pool = requireNonNull(pool, "pool is null");
    }

    @Override
    public void execute(Runnable task) {
        requireNonNull(task, "task is null");
        synchronized (this) {
            tasks.add(task);
            if (running) {
                return;
            }
            running = true;
        }
        pool.execute(this::drain);
    }

    /** Tasks waiting (not counting the one running). */
    synchronized int queued() {
        return tasks.size();
    }

    private void drain() {
        while (true) {
            Runnable task;
            synchronized (this) {
                task = tasks.poll();
                if (task == null) {
                    running = false;
                    return;
                }
            }
            try {
                task.run();
            } catch (RuntimeException | Error e) {
                // the next task of the queue still runs: one that failed must not stop its session's others
                LOG.error("A task of a PostgreSQL session failed", e);
            }
        }
    }
}
