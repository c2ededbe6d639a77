package dev.riffle.server.statement;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.statement.ExecutionGuard;
import dev.riffle.sql.statement.StatementStoppedException;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One SQL statement while it runs: who runs it, from which surface, its text, and the
 * {@link ExecutionGuard} that stops it. Closing it ends it: its place is freed, its outcome
 * counted, and a statement that ran out of time or over a budget is logged with its text.
 *
 * <pre>{@code
 * try (RunningStatement statement = statements.begin(principal, "http", sql, guard)) {
 *     statement.admit();
 *     ...
 * }
 * }</pre>
 */
public final class RunningStatement implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RunningStatement.class);
    /** How much of a statement's text is kept (for lists and logs). */
    static final int KEPT_SQL = 2_000;

    private final RunningStatements registry;
    private final long id;
    private final Optional<String> principal;
    private final String surface;
    private final String sql;
    private final Instant started = Instant.now();
    private final ExecutionGuard guard;
    /** Whether it holds a place now. */
    private boolean admitted;
    /** Whether it runs under admission (it was admitted once): it takes a place whenever it computes. */
    private boolean admissible;
    private boolean failed;
    private boolean ended;

    RunningStatement(RunningStatements registry, long id, Optional<String> principal, String surface, String sql,
            ExecutionGuard guard) {
        this.registry = requireNonNull(registry, "registry is null");
        this.id = id;
        this.principal = requireNonNull(principal, "principal is null");
        this.surface = requireNonNull(surface, "surface is null");
        this.sql = requireNonNull(sql, "sql is null").length() > KEPT_SQL ? sql.substring(0, KEPT_SQL) + "..." : sql;
        this.guard = requireNonNull(guard, "guard is null");
    }

    public long id() {
        return id;
    }

    public Optional<String> principal() {
        return principal;
    }

    /** Where the statement came from: {@code http}, {@code flight} or {@code pgwire}. */
    public String surface() {
        return surface;
    }

    /** Its text (the first {@value #KEPT_SQL} characters). */
    public String sql() {
        return sql;
    }

    public Instant started() {
        return started;
    }

    public ExecutionGuard guard() {
        return guard;
    }

    /**
     * Waits for a place to run under the server's admission (at once when one is free).
     *
     * @throws dev.riffle.server.failure.ServiceException busy, when none frees in time or too many wait
     * @throws StatementStoppedException when its deadline passes or it is cancelled while it waits
     */
    public synchronized void admit() {
        if (!admitted) {
            registry.admit(this);
            admitted = true;
            admissible = true;
        }
    }

    /**
     * Puts it under admission without taking a place now: it takes one with {@link #admit} each
     * time it computes. For a bare read, whose opening only asks Fluss (offsets, metadata) and
     * computes nothing that a place should wait for.
     */
    public synchronized void admitWhenComputing() {
        admissible = true;
    }

    /** Takes a place when one is free now; false when the statement would have to wait. */
    public synchronized boolean tryAdmit() {
        if (!admitted) {
            admitted = registry.tryAdmit(this);
            admissible |= admitted;
        }
        return admitted;
    }

    /**
     * Gives its place back while it waits for its client (its next rows are computed only when
     * asked for); it takes one again with {@link #admit} before it computes more.
     */
    public synchronized void yieldPlace() {
        if (admitted) {
            admitted = false;
            registry.release(this);
        }
    }

    /** Whether it runs under admission: it must {@link #admit} before it computes its next rows. */
    public synchronized boolean admissible() {
        return admissible;
    }

    /** Whether it holds a place to run now. */
    public synchronized boolean admitted() {
        return admitted;
    }

    /** Notes that the statement failed (counted so when it ends, unless its guard stopped it). */
    public synchronized void failed() {
        failed = true;
    }

    /** Whether it has ended. */
    public synchronized boolean ended() {
        return ended;
    }

    /** Stops the statement as cancelled, saying by whom. */
    public boolean cancel(String message) {
        return guard.cancel(StatementStoppedException.Reason.CANCELLED, message);
    }

    @Override
    public void close() {
        synchronized (this) {
            if (ended) {
                return;
            }
            ended = true;
            if (admitted) {
                admitted = false;
                registry.release(this);
            }
        }
        guard.close();
        Optional<StatementStoppedException> stopped = guard.stopped();
        String outcome = stopped.map(s -> s.reason().name().toLowerCase(Locale.ROOT))
                .orElse(failed ? "failed" : "completed");
        stopped.ifPresent(this::log);
        registry.ended(this, outcome);
    }

    private void log(StatementStoppedException stopped) {
        String flat = sql.strip().replaceAll("\\s+", " ");
        if (stopped.reason() == StatementStoppedException.Reason.CANCELLED) {
            LOG.info("Statement {} of {} over {} stopped after {} ms, {} rows: {}: {}", id, principal.orElse("the server"),
                    surface, guard.elapsed().toMillis(), guard.rows(), stopped.getMessage(), flat);
        } else {
            LOG.warn("Statement {} of {} over {} stopped after {} ms, {} rows: {}: {}", id, principal.orElse("the server"),
                    surface, guard.elapsed().toMillis(), guard.rows(), stopped.getMessage(), flat);
        }
    }
}
