package dev.riffle.server.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.core.rpc.RetryingAdmin;
import dev.riffle.server.ServerLimits;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request's context, passed to whatever serves it (on whichever thread): the session it runs
 * in, an Arrow allocator of its own (a child of the server's, so what a request allocates is
 * counted and freed with it), and the limits. Closing the context frees the allocator and hands
 * the session back.
 *
 * <pre>{@code
 * try (RequestContext request = sessions.open(credentials, "lookup shop.orders")) {
 *     TableInfo info = request.session().handles().info(path);
 *     LookupResult found = request.await(lookuper.lookup(key), "The lookup in " + path);
 * }
 * }</pre>
 */
public final class RequestContext implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RequestContext.class);

    private final Sessions.Lease lease;
    private final BufferAllocator parent;
    private final String purpose;
    private final ServerLimits limits;
    // Made on first use (guarded by this): most point lookups never allocate, and under many
    // concurrent lookups making a child allocator per request contends on the parent's lock.
    private BufferAllocator allocator;
    private Riffle riffle;
    private boolean closed;

    RequestContext(Sessions.Lease lease, BufferAllocator parent, String purpose, ServerLimits limits) {
        this.lease = requireNonNull(lease, "lease is null");
        this.parent = requireNonNull(parent, "parent is null");
        this.purpose = requireNonNull(purpose, "purpose is null");
        this.limits = requireNonNull(limits, "limits is null");
    }

    public Session session() {
        return lease.session();
    }

    /** The session's connection and lake side with this request's allocator: what the request reads with. */
    public synchronized Riffle riffle() {
        if (riffle == null) {
            Riffle session = lease.session().riffle();
            riffle = Riffle.using(session.connection(), allocator()).withLake(session.lake());
        }
        return riffle;
    }

    /**
     * The request's own Arrow allocator, a child of the server's named after the request's purpose.
     *
     * @throws IllegalStateException once the request has ended
     */
    public synchronized BufferAllocator allocator() {
        if (closed) {
            throw new IllegalStateException("The request " + purpose + " has ended; its memory is freed");
        }
        if (allocator == null) {
            allocator = parent.newChildAllocator(purpose, 0, Long.MAX_VALUE);
        }
        return allocator;
    }

    public ServerLimits limits() {
        return limits;
    }

    /** The session's Fluss admin. */
    public Admin admin() {
        return RetryingAdmin.of(lease.session().connection());
    }

    /**
     * A table's metadata, asked of the cluster now.
     *
     * @throws dev.riffle.core.exception.TableNotFoundException naming the tables that exist
     */
    public TableInfo tableInfo(TablePath path) {
        return riffle().table(path).info();
    }

    /**
     * Waits for a Fluss call; its failure is rethrown as it is (for the surface's mapping), a
     * timeout is a {@link FailureKind#TIMEOUT}.
     */
    public <T> T await(CompletableFuture<T> future, String what) {
        try {
            return future.get(limits.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceException(FailureKind.UNAVAILABLE, "interrupted", "Interrupted while waiting for " + what);
        } catch (ExecutionException e) {
            Throwable cause = FlussErrors.unwrap(e);
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(what + " failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw timeout(what);
        }
    }

    /**
     * A Fluss call the request answers asynchronously: {@code future}'s outcome, or, when it has
     * not finished within the request timeout, a {@link FailureKind#TIMEOUT} (the call itself is
     * left to finish).
     */
    public <T> CompletableFuture<T> within(CompletableFuture<T> future, String what) {
        return future.copy().orTimeout(limits.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        FlussErrors.unwrap(failure) instanceof TimeoutException ? timeout(what) : FlussErrors.unwrap(failure)));
    }

    private ServiceException timeout(String what) {
        StuckClientReport.log(what);
        return new ServiceException(FailureKind.TIMEOUT, "timeout", what + " did not finish within "
                + limits.requestTimeout());
    }

    /** Frees the request's Arrow memory and hands its session back. */
    @Override
    public void close() {
        BufferAllocator allocator;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            allocator = this.allocator;
        }
        try {
            if (allocator == null) {
                return;
            }
            long leaked = allocator.getAllocatedMemory();
            if (leaked > 0) {
                LOG.warn("Request allocator {} still holds {} bytes at its end", allocator.getName(), leaked);
            }
            allocator.close();
        } catch (RuntimeException e) {
            LOG.warn("Closing the request allocator {} failed", allocator.getName(), e);
        } finally {
            lease.close();
        }
    }
}
