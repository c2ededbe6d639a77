package dev.riffle.server.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.core.rpc.RetryingAdmin;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.statement.RunningStatement;
import dev.riffle.server.statement.RunningStatements;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.statement.ExecutionGuard;
import dev.riffle.sql.statement.SessionHost;
import dev.riffle.sql.statement.StatementStoppedException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One request's context, passed to whatever serves it (on whichever thread): the session it runs
 * in, an Arrow allocator of its own (a child of the server's, so what a request allocates is
 * counted and freed with it), the limits, and what stops the SQL statements it runs (a shorter
 * deadline the surface sets, its client leaving, a cancel). Closing the context frees the
 * allocator and hands the session back.
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
    private final RunningStatements statements;
    private final String surface;
    /** A deadline shorter than the server's for this request's statements (a session's statement_timeout). */
    private volatile Optional<Duration> timeLimit = Optional.empty();
    /** What tells that the request's client went away, polled while a statement runs. */
    private final List<BooleanSupplier> clientGone = new CopyOnWriteArrayList<>();
    private final Set<RunningStatement> running = ConcurrentHashMap.newKeySet();
    /** Why the request was cancelled, once it was: its statements stop, and later ones stop at once. */
    private volatile Optional<String> cancelled = Optional.empty();
    /** The SQL its statements are written in (PostgreSQL's on the PostgreSQL port). */
    private volatile Dialect dialect = Dialect.CALCITE;
    /** Where its statements' unqualified names resolve (empty: the connection's default schema). */
    private volatile Optional<String> schema = Optional.empty();
    /** What the session functions of its statements ask (a PostgreSQL backend's), when the surface has one. */
    private volatile Optional<SessionHost> host = Optional.empty();
    // Made on first use (guarded by this): most point lookups never allocate, and under many
    // concurrent lookups making a child allocator per request contends on the parent's lock.
    private BufferAllocator allocator;
    private Riffle riffle;
    private boolean closed;

    RequestContext(Sessions.Lease lease, BufferAllocator parent, String purpose, ServerLimits limits,
            RunningStatements statements, String surface) {
        this.lease = requireNonNull(lease, "lease is null");
        this.parent = requireNonNull(parent, "parent is null");
        this.purpose = requireNonNull(purpose, "purpose is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.statements = requireNonNull(statements, "statements is null");
        this.surface = requireNonNull(surface, "surface is null");
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

    /** The SQL statements running in the server (and the process's other surfaces, when they share them). */
    public RunningStatements statements() {
        return statements;
    }

    /**
     * Whether the request's principal may see and stop every running statement, not only its own:
     * without authentication every request is the server's; with it, a principal the cluster lets
     * list its ACLs (Fluss's super users, or those granted DESCRIBE on the cluster).
     */
    public boolean operator() {
        if (session().principal().isEmpty()) {
            return true;
        }
        try {
            await(admin().listAcls(org.apache.fluss.security.acl.AclBindingFilter.ANY), "Listing the cluster's ACLs");
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Where the request came from: {@code http}, {@code flight} or {@code pgwire}. */
    public String surface() {
        return surface;
    }

    /**
     * Gives the SQL statements this request runs {@code timeout} (from each one's start) when it is
     * shorter than the server's statement timeout: a PostgreSQL session's {@code statement_timeout},
     * the time a Flight call has left.
     */
    public RequestContext limitTime(Duration timeout) {
        requireNonNull(timeout, "timeout is null");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must not be negative, got " + timeout);
        }
        timeLimit = Optional.of(timeout);
        return this;
    }

    /**
     * Stops the statements this request runs, as cancelled by their client leaving, once
     * {@code gone} says so (polled ten times a second on a timer thread while one runs; it must
     * not block).
     */
    public RequestContext watchClient(BooleanSupplier gone) {
        clientGone.add(requireNonNull(gone, "gone is null"));
        return this;
    }

    /**
     * Has this request's SQL statements parsed as {@code dialect}, their unqualified names resolved
     * in {@code schema} (empty: the connection's default).
     */
    public RequestContext speaks(Dialect dialect, Optional<String> schema) {
        this.dialect = requireNonNull(dialect, "dialect is null");
        this.schema = requireNonNull(schema, "schema is null");
        return this;
    }

    public Dialect dialect() {
        return dialect;
    }

    /** The schema the request's unqualified names resolve in, when it sets one. */
    public Optional<String> schema() {
        return schema;
    }

    /** Answers the session functions ({@code pg_backend_pid()}, ...) of the statements this request runs. */
    public RequestContext host(SessionHost host) {
        this.host = Optional.of(requireNonNull(host, "host is null"));
        return this;
    }

    public Optional<SessionHost> host() {
        return host;
    }

    /**
     * Stops whatever SQL statement this request runs now, and any it would run later, with
     * {@code message} (PostgreSQL's {@code canceling statement due to user request}, say).
     */
    public void cancel(String message) {
        requireNonNull(message, "message is null");
        cancelled = Optional.of(message);
        for (RunningStatement statement : running) {
            statement.cancel(message);
        }
    }

    /**
     * Registers a SQL statement this request starts now: its guard has the request's deadline
     * (the server's statement timeout, or the shorter one the surface set), its budgets, and its
     * client checks. The caller admits it when it must wait its turn, and closes it when it ends.
     */
    public RunningStatement beginStatement(String sql) {
        Duration timeout = timeLimit.filter(limit -> limit.compareTo(limits.statementTimeout()) < 0)
                .orElse(limits.statementTimeout());
        ExecutionGuard guard = ExecutionGuard.create(Optional.of(timeout), limits.statements());
        clientGone.forEach(guard::watchClient);
        RunningStatement statement = statements.begin(session().principal(), surface, sql, guard);
        running.removeIf(RunningStatement::ended);
        running.add(statement);
        cancelled.ifPresent(message -> guard.cancel(StatementStoppedException.Reason.CANCELLED, message));
        return statement;
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
        running.clear();
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
