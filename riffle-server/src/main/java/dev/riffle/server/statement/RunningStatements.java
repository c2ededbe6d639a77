package dev.riffle.server.statement;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.sql.statement.ExecutionGuard;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The SQL statements a server runs now, whichever surface they came from: each registered while it
 * runs ({@link #begin}), admitted to run under the server's {@link StatementAdmission} while it
 * computes (a statement whose rows wait for their client gives its place back meanwhile), listed
 * for operators and metrics, and cancellable by id. One per process when the surfaces are started
 * together ({@code riffle local}, {@code riffle serve}), so the bound on statements at once is the
 * machine's, not each surface's. Thread-safe.
 *
 * <pre>{@code
 * RunningStatements statements = new RunningStatements(StatementAdmission.DEFAULT);
 * statements.bindTo(meterRegistry);   // riffle_statements_running, riffle_statement_elapsed_seconds{id,...}
 * try (RunningStatement statement = statements.begin(Optional.of("alice"), "pgwire", sql, guard)) {
 *     statement.admit();   // waits for a place, or fails as busy
 *     ... run it ...
 * }
 * }</pre>
 */
public final class RunningStatements implements AutoCloseable {
    /** A statement appears by id in the metrics once it has run this long (shorter ones only in the totals). */
    public static final Duration VISIBLE_AFTER = Duration.ofSeconds(1);

    private final StatementAdmission admission;
    private final AtomicLong ids = new AtomicLong();
    private final Map<Long, RunningStatement> running = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition placeFreed = lock.newCondition();
    /** Admitted statements in all and per principal, and statements waiting (guarded by {@link #lock}). */
    private int admitted;
    private final Map<String, Integer> admittedPerPrincipal = new HashMap<>();
    private int queued;
    private volatile Optional<Metrics> metrics = Optional.empty();
    private ScheduledExecutorService refresher;

    public RunningStatements(StatementAdmission admission) {
        this.admission = requireNonNull(admission, "admission is null");
    }

    /** Running statements under {@link StatementAdmission#DEFAULT}. */
    public static RunningStatements withDefaults() {
        return new RunningStatements(StatementAdmission.DEFAULT);
    }

    public StatementAdmission admission() {
        return admission;
    }

    /**
     * Registers a statement that starts now (not yet admitted: see {@link RunningStatement#admit}).
     *
     * @param principal who runs it (empty: the server's own session)
     * @param surface where it came from ({@code http}, {@code flight}, {@code pgwire})
     */
    public RunningStatement begin(Optional<String> principal, String surface, String sql, ExecutionGuard guard) {
        RunningStatement statement = new RunningStatement(this, ids.incrementAndGet(), principal, surface, sql, guard);
        running.put(statement.id(), statement);
        return statement;
    }

    /** The statements running now, oldest first. */
    public List<RunningStatement> list() {
        return running.values().stream().sorted(Comparator.comparingLong(RunningStatement::id)).toList();
    }

    /** The statement with {@code id}, while it runs. */
    public Optional<RunningStatement> get(long id) {
        return Optional.ofNullable(running.get(id));
    }

    /** How many statements are admitted and running now. */
    public int admitted() {
        lock.lock();
        try {
            return admitted;
        } finally {
            lock.unlock();
        }
    }

    /** How many statements wait for a place now. */
    public int queued() {
        lock.lock();
        try {
            return queued;
        } finally {
            lock.unlock();
        }
    }

    /** Takes a place for {@code statement} when one is free now. */
    boolean tryAdmit(RunningStatement statement) {
        lock.lock();
        try {
            if (!free(statement.principal())) {
                return false;
            }
            take(statement.principal());
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for a place for {@code statement}: at most the queue timeout or until its guard stops
     * it (its deadline, a cancel).
     */
    void admit(RunningStatement statement) {
        ExecutionGuard guard = statement.guard();
        long waitNanos = admission.queueTimeout().toNanos();
        long deadline = System.nanoTime() + waitNanos;
        lock.lock();
        try {
            if (free(statement.principal())) {
                take(statement.principal());
                return;
            }
            if (queued >= admission.maxQueued()) {
                throw busy("this server runs " + admission.maxRunning() + " statements at once and " + queued
                        + " more wait already");
            }
            queued++;
            try {
                while (!free(statement.principal())) {
                    guard.check(); // a deadline or a cancel ends the wait
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw busy("no place to run it freed within " + admission.queueTimeout().toSeconds() + " s ("
                                + admission.maxRunning() + " statements run at once" + statement.principal().map(
                                        p -> ", " + admission.maxRunningPerPrincipal() + " of one user").orElse("")
                                + ")");
                    }
                    // woken when a place frees; at least ten times a second to notice a stop
                    placeFreed.awaitNanos(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServiceException(FailureKind.UNAVAILABLE, "interrupted", "Interrupted while waiting to run");
            } finally {
                queued--;
            }
            take(statement.principal());
        } finally {
            lock.unlock();
        }
    }

    private boolean free(Optional<String> principal) {
        return admitted < admission.maxRunning() && principal.map(
                p -> admittedPerPrincipal.getOrDefault(p, 0) < admission.maxRunningPerPrincipal()).orElse(true);
    }

    private void take(Optional<String> principal) {
        admitted++;
        principal.ifPresent(p -> admittedPerPrincipal.merge(p, 1, Integer::sum));
    }

    private static ServiceException busy(String why) {
        return new ServiceException(FailureKind.UNAVAILABLE, "busy", "The statement cannot run now: " + why
                + "; retry later");
    }

    /** Frees the place {@code statement} held. */
    void release(RunningStatement statement) {
        lock.lock();
        try {
            admitted--;
            statement.principal().ifPresent(p -> admittedPerPrincipal.computeIfPresent(p,
                    (name, count) -> count == 1 ? null : count - 1));
            placeFreed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Called once by a statement that ends (its place freed already): counts its outcome. */
    void ended(RunningStatement statement, String outcome) {
        running.remove(statement.id());
        metrics.ifPresent(m -> m.ended(statement.surface(), outcome));
    }

    /**
     * Shows the statements in {@code registry}: {@code riffle_statements_running} (admitted),
     * {@code riffle_statements_queued}, {@code riffle_statements_total{surface,outcome}}, and, for
     * each statement that has run {@link #VISIBLE_AFTER} or longer,
     * {@code riffle_statement_elapsed_seconds} and {@code riffle_statement_rows} tagged with its
     * id, principal and surface (refreshed every second).
     */
    public synchronized RunningStatements bindTo(MeterRegistry registry) {
        requireNonNull(registry, "registry is null");
        if (metrics.isPresent()) {
            return this;
        }
        Gauge.builder("riffle.statements.running", this, RunningStatements::admitted)
                .description("SQL statements admitted and running now").register(registry);
        Gauge.builder("riffle.statements.queued", this, RunningStatements::queued)
                .description("SQL statements waiting for a place to run").register(registry);
        Metrics bound = new Metrics(registry,
                MultiGauge.builder("riffle.statement.elapsed").baseUnit("seconds")
                        .description("How long each statement running for a second or more has run").register(registry),
                MultiGauge.builder("riffle.statement.rows")
                        .description("Rows each statement running for a second or more has passed between its operators")
                        .register(registry));
        metrics = Optional.of(bound);
        refresher = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "riffle-statement-metrics");
            thread.setDaemon(true);
            return thread;
        });
        refresher.scheduleWithFixedDelay(bound::refresh, 1, 1, TimeUnit.SECONDS);
        return this;
    }

    @Override
    public synchronized void close() {
        if (refresher != null) {
            refresher.shutdownNow();
        }
    }

    private final class Metrics {
        private final MeterRegistry registry;
        private final MultiGauge elapsed;
        private final MultiGauge rows;
        private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();

        Metrics(MeterRegistry registry, MultiGauge elapsed, MultiGauge rows) {
            this.registry = registry;
            this.elapsed = elapsed;
            this.rows = rows;
        }

        void ended(String surface, String outcome) {
            outcomes.computeIfAbsent(surface + "/" + outcome, key -> Counter.builder("riffle.statements")
                    .description("SQL statements ended, by surface and outcome")
                    .tags("surface", surface, "outcome", outcome).register(registry)).increment();
        }

        void refresh() {
            List<RunningStatement> visible = list().stream()
                    .filter(s -> s.guard().elapsed().compareTo(VISIBLE_AFTER) >= 0).toList();
            elapsed.register(visible.stream().map(s -> MultiGauge.Row.of(tags(s),
                    s.guard().elapsed().toMillis() / 1000.0)).toList(), true);
            rows.register(visible.stream().map(s -> MultiGauge.Row.of(tags(s), s.guard().rows())).toList(), true);
        }

        private Tags tags(RunningStatement statement) {
            return Tags.of("id", Long.toString(statement.id()), "principal", statement.principal().orElse(""),
                    "surface", statement.surface());
        }
    }
}
