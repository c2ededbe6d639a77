package dev.riffle.server.principal;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One resource per principal (a Fluss connection, a JDBC connection), opened with that user's
 * credentials on first use and shared by the user's requests. At most {@code maxPrincipals} stay
 * open: the least recently used one is closed once no request holds it. A resource is keyed by
 * the user and a hash of the password, so a wrong password never reaches another login's
 * resource. A failed open is not cached: the next request tries again.
 *
 * <p>Resources are closed on the pool's own closer threads, never on the request that evicted
 * them: closing a Fluss connection waits about two seconds for its Netty event loops to go
 * quiet, and a request must not pay that for another principal. {@link #close()} waits for every
 * close it started.
 *
 * @param <T> what each principal gets; closed by this pool
 */
public final class PrincipalPool<T extends AutoCloseable> implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PrincipalPool.class);

    private final String what;
    private final BiFunction<String, String, T> opener;
    private final int maxPrincipals;
    /** Guarded by {@code this}; in access order, eldest first. */
    private final LinkedHashMap<Key, Entry<T>> entries = new LinkedHashMap<>(16, 0.75f, true);
    private final ThreadPoolExecutor closer;
    private boolean closed;

    /** Closer threads at most: closes mostly wait, so several run at once. */
    static final int CLOSER_THREADS = 16;
    /** How long {@link #close()} waits for the closes in flight. */
    static final long CLOSE_WAIT_SECONDS = 60;

    /** A principal's resource some request is using; {@link #close()} hands it back. */
    public interface Lease<T> extends AutoCloseable {
        T resource();

        @Override
        void close();
    }

    private record Key(String user, String passwordHash) {}

    private static final class Entry<T> {
        final CompletableFuture<T> resource = new CompletableFuture<>();
        int leases;
        boolean evicted;

        boolean opened() {
            return resource.isDone() && !resource.isCompletedExceptionally();
        }
    }

    /**
     * @param what what the resources are, for log lines ("Fluss connection")
     * @param maxPrincipals how many principals' resources stay open at once
     * @param opener opens the resource of a user and password; may throw (e.g. an unauthenticated {@link ServiceException})
     */
    public PrincipalPool(String what, int maxPrincipals, BiFunction<String, String, T> opener) {
        if (maxPrincipals < 1) {
            throw new IllegalArgumentException("maxPrincipals must be at least 1, got " + maxPrincipals);
        }
        this.what = requireNonNull(what, "what is null");
        this.maxPrincipals = maxPrincipals;
        this.opener = requireNonNull(opener, "opener is null");
        AtomicInteger threads = new AtomicInteger();
        this.closer = new ThreadPoolExecutor(CLOSER_THREADS, CLOSER_THREADS, 10, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "riffle-" + what.replace(' ', '-') + "-closer-"
                            + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        this.closer.allowCoreThreadTimeOut(true);
    }

    /**
     * The resource of {@code user}, opened on first use (concurrent first requests wait for one
     * open, not one each).
     *
     * @throws RuntimeException whatever the opener threw
     */
    public Lease<T> acquire(String user, String password) {
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        Key key = new Key(user, sha256(password));
        Entry<T> entry;
        boolean opener = false;
        List<T> toClose = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                throw new ServiceException(FailureKind.UNAVAILABLE, "shutting_down", "The server is shutting down");
            }
            entry = entries.get(key);
            if (entry == null) {
                entry = new Entry<>();
                entries.put(key, entry);
                opener = true;
                evictBeyond(maxPrincipals, key, toClose);
            }
            entry.leases++;
        }
        closeAll(toClose);
        if (opener) {
            open(key, entry, password);
        }
        try {
            return lease(entry, entry.resource.join());
        } catch (CompletionException e) {
            release(entry);
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        }
    }

    /** How many principals have an open (or opening) resource. */
    public synchronized int size() {
        return entries.size();
    }

    /** How many requests hold a resource now (0 when idle). */
    public synchronized int leased() {
        return entries.values().stream().mapToInt(entry -> entry.leases).sum();
    }

    /** Closes every resource (one still leased when its last lease is returned); later acquires fail. */
    @Override
    public void close() {
        List<T> toClose = new ArrayList<>();
        synchronized (this) {
            closed = true;
            evictBeyond(0, null, toClose);
        }
        closeAll(toClose);
        awaitCloses();
    }

    /** Waits for the closes started so far; gives up after {@link #CLOSE_WAIT_SECONDS} (the daemon closers go on). */
    private void awaitCloses() {
        closer.shutdown();
        try {
            if (!closer.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Gave up waiting for {} {}s to close after {} s",
                        closer.getQueue().size() + closer.getActiveCount(), what, CLOSE_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void open(Key key, Entry<T> entry, String password) {
        try {
            T resource = requireNonNull(opener.apply(key.user(), password), "the opener returned null");
            LOG.info("Opened a {} for principal {}", what, key.user());
            entry.resource.complete(resource);
        } catch (RuntimeException e) {
            synchronized (this) {
                entries.remove(key, entry);
            }
            entry.resource.completeExceptionally(e);
        }
    }

    private Lease<T> lease(Entry<T> entry, T resource) {
        return new Lease<>() {
            private boolean released;

            @Override
            public T resource() {
                return resource;
            }

            @Override
            public void close() {
                if (!released) {
                    released = true;
                    release(entry);
                }
            }
        };
    }

    private void release(Entry<T> entry) {
        T toClose = null;
        synchronized (this) {
            entry.leases--;
            if (entry.evicted && entry.leases == 0 && entry.opened()) {
                toClose = entry.resource.join();
            }
        }
        if (toClose != null) {
            closeLater(toClose);
        }
    }

    /** Drops the least recently used entries (never {@code keep}) until at most {@code max} remain. */
    private void evictBeyond(int max, Key keep, List<T> toClose) {
        Iterator<Map.Entry<Key, Entry<T>>> it = entries.entrySet().iterator();
        while (entries.size() > max && it.hasNext()) {
            Map.Entry<Key, Entry<T>> eldest = it.next();
            if (eldest.getKey().equals(keep)) {
                continue;
            }
            it.remove();
            Entry<T> entry = eldest.getValue();
            entry.evicted = true;
            if (entry.leases == 0 && entry.opened()) {
                toClose.add(entry.resource.join());
            }
        }
    }

    private void closeAll(List<T> resources) {
        resources.forEach(this::closeLater);
    }

    private void closeLater(T resource) {
        try {
            closer.execute(() -> closeQuietly(resource));
        } catch (RejectedExecutionException e) {
            closeQuietly(resource); // the pool is closed: a lease returned late closes its resource itself
        }
    }

    private void closeQuietly(T resource) {
        try {
            resource.close();
        } catch (Exception e) {
            LOG.warn("Could not close a principal's {}", what, e);
        }
    }

    private static String sha256(String password) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(password.getBytes(UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
