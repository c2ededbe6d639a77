package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

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
            task.run();
        }
    }
}
