package dev.riffle.sql.statement;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.exec.GuardedEnumerable;
import dev.riffle.sql.statement.StatementStoppedException.Reason;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.AvaticaStatement;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.jdbc.CalcitePrepare;

/**
 * Whether one execution of a statement may go on: its deadline, its cancellation, and its budgets
 * ({@link StatementLimits}). Execution asks it everywhere work is done: every row that passes
 * between two of Calcite's operators ({@code GuardedEnumerable}, put on every edge of a plan by
 * {@code dev.riffle.sql.planner.GuardedInput}), every batch Riffle's own operators read, every
 * group an aggregate makes; so a statement stops within milliseconds of its deadline, a cancel,
 * or its client leaving, even inside a join or an aggregate that answers nothing until its end.
 * The first reason to stop wins; every later check throws it as a {@link StatementStoppedException}.
 *
 * <p>A server makes one per execution ({@link #create}), puts it in the statement's context under
 * {@link #KEY}, cancels it from other threads, and closes it when the statement ends. A statement
 * run through {@code jdbc:riffle} without one gets one made from Calcite's context: its query
 * timeout ({@code setQueryTimeout}), its cancel flag ({@code Statement.cancel()}), and the
 * connection's budgets. Thread-safe: one thread executes, any may cancel.
 *
 * <pre>{@code
 * try (ExecutionGuard guard = ExecutionGuard.create(Optional.of(Duration.ofSeconds(30)), StatementLimits.DEFAULT)) {
 *     guard.watchClient(() -> !channel.isOpen());   // polled ten times a second
 *     ... run the statement with the guard in its context ...
 * }
 * }</pre>
 */
public final class ExecutionGuard implements AutoCloseable {
    /** Where a server puts the guard in a statement's context (Calcite's internal parameters). */
    public static final String KEY = "riffle.executionGuard";
    /** How often the checks a surface gives ({@link #watchClient}) are polled. */
    static final Duration CLIENT_POLL = Duration.ofMillis(100);

    /** One thread for every guard's deadline and polls: they only set a flag. */
    private static final ScheduledExecutorService TIMER = timer();
    /** Guards made from Calcite's context for executions that came without one, one per context. */
    private static final Map<DataContext, ExecutionGuard> DERIVED = Collections.synchronizedMap(new WeakHashMap<>());

    private final StatementLimits limits;
    private final long startedNanos;
    private final Optional<Duration> timeout;
    private final List<ScheduledFuture<?>> tasks = new CopyOnWriteArrayList<>();
    /** The first reason to stop; null while the statement may go on. */
    private volatile StatementStoppedException stop;
    /** Calcite's cancel flag of the statement ({@code Statement.cancel()} sets it), once bound. */
    private volatile AtomicBoolean calciteCancel;
    private volatile boolean closed;

    // Counted by the executing thread; read by observers (metrics) without a lock.
    private long joinRows;
    private long groups;
    private long heldRows;
    private volatile long rows;

    private ExecutionGuard(Optional<Duration> timeout, StatementLimits limits, long startedNanos) {
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.startedNanos = startedNanos;
        timeout.ifPresent(t -> {
            long left = Math.max(0, t.toNanos() - (System.nanoTime() - startedNanos));
            tasks.add(TIMER.schedule(this::expire, left, TimeUnit.NANOSECONDS));
        });
    }

    /**
     * A guard for one execution starting now.
     *
     * @param timeout how long the execution may take (empty: no deadline)
     * @param limits its budgets
     */
    public static ExecutionGuard create(Optional<Duration> timeout, StatementLimits limits) {
        timeout.ifPresent(t -> {
            if (t.isNegative()) {
                throw new IllegalArgumentException("timeout must not be negative, got " + t);
            }
        });
        return new ExecutionGuard(timeout, limits, System.nanoTime());
    }

    /**
     * The guard of the execution {@code root} belongs to: the one a server put there, else one made
     * from Calcite's context (its timeout, its cancel flag, the connection's limits), the same for
     * every call with that context.
     */
    public static ExecutionGuard of(DataContext root) {
        requireNonNull(root, "root is null");
        ExecutionGuard guard = root.get(KEY) instanceof ExecutionGuard given ? given : DERIVED.computeIfAbsent(root,
                ExecutionGuard::derive);
        if (guard.calciteCancel == null) {
            guard.calciteCancel = DataContext.Variable.CANCEL_FLAG.get(root);
        }
        return guard;
    }

    private static ExecutionGuard derive(DataContext root) {
        Optional<Duration> timeout = root.get(DataContext.Variable.TIMEOUT.camelName) instanceof Long millis
                && millis > 0 ? Optional.of(Duration.ofMillis(millis)) : Optional.empty();
        // Calcite notes when the execution began (its CURRENT_TIMESTAMP); the deadline counts from there.
        long startedNanos = System.nanoTime();
        if (root.get(DataContext.Variable.UTC_TIMESTAMP.camelName) instanceof Long began) {
            startedNanos -= TimeUnit.MILLISECONDS.toNanos(Math.max(0, System.currentTimeMillis() - began));
        }
        return new ExecutionGuard(timeout, limitsOf(root), startedNanos);
    }

    private static StatementLimits limitsOf(DataContext root) {
        return LimitedSchema.limitsOf(root.getRootSchema()).orElse(StatementLimits.DEFAULT);
    }

    /**
     * Puts this guard in the context of {@code statement}'s next executions (a {@code jdbc:riffle}
     * prepared statement), until the returned handle is closed.
     *
     * @throws SQLException when the statement is not one of {@code jdbc:riffle}'s
     */
    public AutoCloseable attachTo(PreparedStatement statement) throws SQLException {
        return attach(statement, KEY, this);
    }

    /**
     * Puts {@code value} in the context of {@code statement}'s next executions under {@code key}
     * (as Calcite's internal parameters, which every execution's context holds), until the
     * returned handle is closed: what a server gives one execution ({@link #KEY}, {@link SessionHost#KEY}).
     *
     * @throws SQLException when the statement is not one of {@code jdbc:riffle}'s
     */
    public static AutoCloseable attach(PreparedStatement statement, String key, Object value) throws SQLException {
        Meta.Signature signature = statement.unwrap(AvaticaStatement.class).handle.signature;
        if (!(signature instanceof CalcitePrepare.CalciteSignature<?> calcite)) {
            throw new SQLException("Not a prepared statement of jdbc:riffle: " + statement);
        }
        Map<String, Object> internal = calcite.internalParameters;
        internal.put(key, value);
        return () -> internal.remove(key, value);
    }

    /**
     * Also stops the statement, as cancelled by its client leaving, once {@code clientGone} says
     * so: asked every {@link #CLIENT_POLL} on the guard's timer thread until the guard closes (it
     * must not block).
     */
    public ExecutionGuard watchClient(BooleanSupplier clientGone) {
        requireNonNull(clientGone, "clientGone is null");
        if (!closed) {
            tasks.add(TIMER.scheduleWithFixedDelay(() -> {
                if (stop == null && !closed && clientGone.getAsBoolean()) {
                    cancel(Reason.CANCELLED, "canceling statement: its client went away");
                }
            }, CLIENT_POLL.toMillis(), CLIENT_POLL.toMillis(), TimeUnit.MILLISECONDS));
            if (closed) {
                cancelTasks();
            }
        }
        return this;
    }

    /**
     * Stops the statement: its next check throws a {@link StatementStoppedException} with
     * {@code message}. Only the first stop counts.
     *
     * @return whether this call stopped it (false when it had stopped already)
     */
    public boolean cancel(Reason reason, String message) {
        StatementStoppedException stopped = new StatementStoppedException(reason, message);
        synchronized (this) {
            if (stop != null) {
                return false;
            }
            stop = stopped;
        }
        cancelTasks();
        return true;
    }

    /** Stops the statement as cancelled at its client's request (PostgreSQL's message). */
    public boolean cancel() {
        return cancel(Reason.CANCELLED, "canceling statement due to user request");
    }

    private void expire() {
        cancel(Reason.TIMEOUT, "canceling statement due to statement timeout: it ran for "
                + describe(timeout.orElseThrow()) + ", its deadline");
    }

    /**
     * Throws once the statement must stop: cancelled, past its deadline, or over a budget.
     *
     * @throws StatementStoppedException why
     */
    public void check() {
        StatementStoppedException stopped = stop;
        if (stopped == null) {
            AtomicBoolean flag = calciteCancel;
            if (flag != null && flag.get()) {
                cancel();
            } else if (timeout.isPresent() && System.nanoTime() - startedNanos > timeout.get().toNanos()) {
                expire();
            } else {
                return;
            }
            stopped = stop;
        }
        throw stopped.again();
    }

    /** Whether the statement must stop (a check of the flags only, for the row-by-row path). */
    public boolean stopping() {
        if (stop != null) {
            return true;
        }
        AtomicBoolean flag = calciteCancel;
        return flag != null && flag.get();
    }

    /** Why the statement stopped, once it has. */
    public Optional<StatementStoppedException> stopped() {
        return Optional.ofNullable(stop);
    }

    /** Counts {@code count} rows produced by a join; throws past the join budget. */
    public void joinRows(long count) {
        joinRows += count;
        if (joinRows > limits.maxJoinRows()) {
            overBudget("the statement's joins produced more than " + limits.maxJoinRows() + " rows",
                    StatementLimits.MAX_JOIN_ROWS, "add a join condition or a filter");
        }
    }

    /** Counts {@code count} rows held by an operator until the statement ends; throws past the budget. */
    public void heldRows(long count) {
        heldRows += count;
        if (heldRows > limits.maxHeldRows()) {
            overBudget("the statement held more than " + limits.maxHeldRows() + " rows to sort, window, join or"
                    + " compare", StatementLimits.MAX_HELD_ROWS, "filter the rows first, or add a LIMIT");
        }
    }

    /** Counts {@code count} groups an aggregate made; throws past the budget. */
    public void groups(long count) {
        groups += count;
        if (groups > limits.maxGroups()) {
            overBudget("the statement's aggregates held more than " + limits.maxGroups() + " groups",
                    StatementLimits.MAX_GROUPS, "group by fewer distinct values, or filter first");
        }
    }

    /** Counts rows the statement's operators passed on or read: its progress. */
    public void rows(long count) {
        rows += count;
    }

    private void overBudget(String what, String property, String advice) {
        cancel(Reason.BUDGET, Character.toUpperCase(what.charAt(0)) + what.substring(1) + ", the budget of one "
                + "statement (" + property + "); " + advice + ", or raise the budget");
        throw stop.again();
    }

    /** How long the execution has run. */
    public Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - startedNanos);
    }

    /** The rows its operators have passed on or read so far (every edge counts). */
    public long rows() {
        return rows;
    }

    /** The deadline's length, when it has one. */
    public Optional<Duration> timeout() {
        return timeout;
    }

    /** Ends the guard: its deadline and polls stop (a stop already set stays). */
    @Override
    public void close() {
        closed = true;
        cancelTasks();
    }

    private void cancelTasks() {
        for (ScheduledFuture<?> task : tasks) {
            task.cancel(false);
        }
        tasks.clear();
    }

    /** A deadline as people say it: {@code 250 ms}, {@code 30 s}, {@code 5 min}. */
    static String describe(Duration duration) {
        long millis = duration.toMillis();
        if (millis < 1_000 || millis % 1_000 != 0) {
            return millis + " ms";
        }
        long seconds = millis / 1_000;
        return seconds % 60 == 0 && seconds >= 60 ? seconds / 60 + " min" : seconds + " s";
    }

    private static ScheduledExecutorService timer() {
        ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "riffle-statement-timer");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
        return timer;
    }
}
