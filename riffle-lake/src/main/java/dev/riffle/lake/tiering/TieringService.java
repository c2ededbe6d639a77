package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.rpc.RetryingAdmin;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.lake.lakestorage.LakeStoragePluginSetUp;
import org.apache.fluss.lake.writer.LakeTieringFactory;
import org.apache.fluss.metadata.TableBucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tiers Fluss tables into their lake, in this process, without Flink: asks the coordinator for a
 * table whose freshness interval has passed, tiers it ({@link TableTieringRound}), reports it
 * finished, and asks again. The coordinator hands each table to one service at a time, so several
 * services (in several processes) share a cluster's tables and never tier a bucket twice.
 *
 * <p>Memory: every Arrow allocator a round creates is a child of one allocator the service owns
 * and closes with it; closing fails, naming what is outstanding, if a round leaked Arrow memory.
 *
 * <pre>{@code
 * try (TieringService tiering = TieringService.builder()
 *         .clientConfig(clientConfig)                       // bootstrap.servers=...
 *         .lake("paimon", Map.of("metastore", "filesystem", "warehouse", "file:///tmp/lake"))
 *         .start()) {
 *     ...
 * }
 * }</pre>
 */
public final class TieringService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(TieringService.class);

    private final Connection connection;
    private final Admin admin;
    private final TieringCoordinatorClient coordinator;
    private final LakeTieringFactory<?, ?> factory;
    private final BufferAllocator allocator;
    private final TableTieringRound round;
    private final Duration pollInterval;
    /** The longest pause between rounds that keep failing. */
    private static final Duration MAX_RETRY_PAUSE = Duration.ofSeconds(30);
    private final ScheduledExecutorService heartbeats;
    private final Thread worker;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicReference<TieringLease> current = new AtomicReference<>();
    private final AtomicBoolean currentHeld = new AtomicBoolean();
    private final Map<Long, TieredTable> tiered = new ConcurrentHashMap<>();
    private static final Duration CLOSE_GRACE = Duration.ofSeconds(15);

    private final Object sleeper = new Object();
    private final java.util.function.Consumer<TieredTable> onTiered;
    private volatile int coordinatorEpoch;

    private TieringService(Builder builder) {
        this.connection = ConnectionFactory.createConnection(builder.clientConfig);
        // Its own admin (closed with the service), with the read-only calls retried like every Riffle admin's.
        this.admin = RetryingAdmin.wrap(connection.getAdmin(),
                () -> ((FlussConnection) connection).getMetadataUpdater().updateMetadata(Set.of(), Set.of(), Set.of()),
                RetryingAdmin.POLICY);
        this.coordinator = new TieringCoordinatorClient((FlussConnection) connection);
        Configuration lakeConfig = Configuration.fromMap(builder.lakeOptions);
        LakeTieringFactory<?, ?> lakeFactory = LakeStoragePluginSetUp.fromDataLakeFormat(builder.lakeFormat, null)
                .createLakeStorage(lakeConfig).createLakeTieringFactory();
        this.factory = PaimonTieringFactory.tuned(builder.lakeFormat, lakeFactory, lakeConfig);
        // The parent of every Arrow allocator the tiering creates: a leak shows when it closes.
        this.allocator = new RootAllocator();
        this.round = new TableTieringRound(connection, new TieringInputsFetcher((FlussConnection) connection, admin),
                new BucketLogReads(connection, allocator),
                new TieringCommitProtocol(admin, coordinator, builder.clientConfig, builder.checkpoint));
        this.pollInterval = builder.pollInterval;
        this.onTiered = builder.onTiered;
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "riffle-tiering-heartbeat"));
        this.worker = daemon(this::runLoop, "riffle-tiering");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** What this service has tiered so far, per table. */
    public List<TieredTable> tieredTables() {
        return new ArrayList<>(tiered.values());
    }

    @Override
    public void close() throws Exception {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        synchronized (sleeper) {
            sleeper.notifyAll();
        }
        // The worker stops by itself at its next batch or heartbeat and reports what it finished or
        // gave up. An interrupt during a heartbeat would leave the coordinator believing the table
        // is still being tiered (until its 2-minute timeout), so it is the last resort.
        worker.join(CLOSE_GRACE.toMillis());
        if (worker.isAlive()) {
            worker.interrupt();
            worker.join(TimeUnit.SECONDS.toMillis(30));
        }
        heartbeats.shutdownNow();
        TieringLease lease = current.get();
        if (lease != null) {
            try {
                coordinator.heartbeat(coordinatorEpoch, List.of(), List.of(), List.of(lease), false);
            } catch (Exception e) {
                LOG.debug("Could not hand {} back to the coordinator", lease.tablePath(), e);
            }
        }
        try {
            admin.close();
        } finally {
            try {
                connection.close();
            } finally {
                closeAllocator();
            }
        }
    }

    /**
     * Closes the service's allocator, which fails (naming what is outstanding) if a round leaked
     * Arrow memory. Left open while a round still runs: its memory is in use, not leaked.
     */
    private void closeAllocator() {
        if (worker.isAlive()) {
            LOG.warn("The tiering worker did not stop within 30 s; its Arrow allocator is left open ({} bytes)",
                    allocator.getAllocatedMemory());
            return;
        }
        allocator.close();
    }

    /** The parent of every Arrow allocator the service creates (tests check it ends empty). */
    BufferAllocator allocator() {
        return allocator;
    }

    private TieringService startThreads() {
        worker.start();
        long renewMillis = Math.max(1000, Math.min(10_000, pollInterval.toMillis() * 10));
        heartbeats.scheduleWithFixedDelay(this::renew, renewMillis, renewMillis, TimeUnit.MILLISECONDS);
        return this;
    }

    private void runLoop() {
        List<TieringLease> finished = new ArrayList<>();
        List<TieringLease> failed = new ArrayList<>();
        // A table that fails every round (a value Fluss's scanner cannot read, say) would otherwise be
        // handed out again at once: a round every few milliseconds, each logged. Each failing table
        // waits longer after each failure; tables that tier well go on meanwhile.
        Map<Long, RetryAfter> retries = new HashMap<>();
        while (true) {
            boolean stopping = closed.get();
            TieringLease lease;
            try {
                // Reports what the last round finished or gave up; asks for a table unless stopping.
                var heartbeat = coordinator.heartbeat(coordinatorEpoch, List.of(), finished, failed, !stopping);
                coordinatorEpoch = heartbeat.coordinatorEpoch();
                finished.clear();
                failed.clear();
                if (stopping) {
                    return;
                }
                if (heartbeat.assigned().isEmpty()) {
                    pause(pollInterval);
                    continue;
                }
                lease = heartbeat.assigned().get();
            } catch (InterruptedException e) {
                LOG.warn("Tiering stopped during a heartbeat; the coordinator hands out {} again after its timeout",
                        finished.isEmpty() && failed.isEmpty() ? "the table it may have assigned" : "finished tables");
                return;
            } catch (Exception e) {
                if (stopping) {
                    LOG.debug("Final tiering heartbeat failed", e);
                    return;
                }
                LOG.warn("Tiering heartbeat to the coordinator failed: {}", e.getMessage());
                pause(pollInterval.multipliedBy(5));
                continue;
            }
            RetryAfter retry = retries.get(lease.tableId());
            if (retry != null && System.nanoTime() - retry.notBeforeNanos() < 0) {
                failed.add(lease); // handed back untried: its pause is not over
                pause(pollInterval);
                continue;
            }
            current.set(lease);
            currentHeld.set(true);
            // With the line that ends it, this says which table a worker held when it died.
            LOG.info("Tiering round of {} begins (tiering epoch {})", lease.tablePath(), lease.tieringEpoch());
            try {
                TableTieringRound.Result result = round.run(factory, lease,
                        new LeaseGuard(lease.tablePath(), () -> currentHeld.get() && !closed.get()));
                record(result);
                finished.add(lease);
                retries.remove(lease.tableId());
            } catch (MissingSnapshotRecoveredException | LeaseLostException e) {
                LOG.info(e.getMessage());
                failed.add(lease);
            } catch (Exception e) {
                int failuresInARow = retry == null ? 1 : retry.failures() + 1;
                retries.put(lease.tableId(), new RetryAfter(failuresInARow,
                        System.nanoTime() + retryPause(failuresInARow).toNanos()));
                if (closed.get()) {
                    LOG.debug("Tiering {} failed while stopping", lease.tablePath(), e);
                } else if (failuresInARow == 1) {
                    LOG.warn("Tiering {} failed; the coordinator will hand it out again: {}", lease.tablePath(),
                            e.getMessage(), e);
                } else {
                    LOG.warn("Tiering {} failed again ({} rounds in a row; the next in {} ms): {}", lease.tablePath(),
                            failuresInARow, retryPause(failuresInARow).toMillis(), e.getMessage());
                }
                failed.add(lease);
            } finally {
                current.set(null);
            }
        }
    }

    private void renew() {
        TieringLease lease = current.get();
        if (lease == null) {
            return;
        }
        try {
            var heartbeat = coordinator.heartbeat(coordinatorEpoch, List.of(lease), List.of(), List.of(), false);
            String error = heartbeat.errors().get(lease.tableId());
            if (error != null && lease.equals(current.get())) {
                LOG.warn("The coordinator took {} back: {}", lease.tablePath(), error);
                currentHeld.set(false);
            }
        } catch (Exception e) {
            LOG.debug("Renewing the tiering lease of {} failed", lease.tablePath(), e);
        }
    }

    private void record(TableTieringRound.Result result) {
        if (result.lakeSnapshotId().isEmpty()) {
            return;
        }
        TieredTable updated = tiered.compute(result.tableId(), (id, previous) -> {
            Map<TableBucket, Long> offsets = new HashMap<>(previous == null ? Map.of() : previous.tieredOffsets());
            offsets.putAll(result.tieredOffsets());
            return new TieredTable(result.table(), new LinkedHashMap<>(offsets), result.lakeSnapshotId(), Instant.now(),
                    previous == null ? 1 : previous.rounds() + 1, (previous == null ? 0 : previous.rows()) + result.rows(),
                    result.rows(), Duration.ofNanos(result.nanos()));
        });
        long lagSeconds = result.oldestRecordMillis()
                .map(t -> Math.max(0, (System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(result.nanos()) - t) / 1000))
                .orElse(0L);
        LOG.info("Tiered {} rows of {} into lake snapshot {} in {} ms (the lake was {} records and {} s behind);"
                + " tiered offsets {}", result.rows(), result.table(), result.lakeSnapshotId().get(),
                TimeUnit.NANOSECONDS.toMillis(result.nanos()), result.lagRecords(), lagSeconds,
                describe(result.tieredOffsets()));
        try {
            onTiered.accept(updated);
        } catch (RuntimeException e) {
            LOG.warn("A tiering listener failed", e);
        }
    }

    private static String describe(Map<TableBucket, Long> offsets) {
        List<String> parts = new ArrayList<>();
        offsets.forEach((bucket, offset) -> parts.add(
                (bucket.getPartitionId() == null ? "" : "p" + bucket.getPartitionId() + "/") + bucket.getBucket() + ":" + offset));
        parts.sort(null);
        return String.join(",", parts);
    }

    /** When a table that failed {@code failures} rounds in a row may be tried again. */
    private record RetryAfter(int failures, long notBeforeNanos) {}

    /** The pause after {@code failures} failed rounds in a row: the poll interval, doubling, at most 30 s. */
    private Duration retryPause(int failures) {
        long millis = Math.max(1, pollInterval.toMillis()) << Math.min(failures - 1, 20);
        return Duration.ofMillis(Math.min(MAX_RETRY_PAUSE.toMillis(), millis));
    }

    private void pause(Duration duration) {
        synchronized (sleeper) {
            if (closed.get()) {
                return;
            }
            try {
                sleeper.wait(Math.max(1, duration.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static Thread daemon(Runnable runnable, String name) {
        Thread thread = new Thread(runnable, name);
        thread.setDaemon(true);
        return thread;
    }

    /** Builds and starts a {@link TieringService}. */
    public static final class Builder {
        private Configuration clientConfig;
        private String lakeFormat;
        private Map<String, String> lakeOptions = Map.of();
        private Duration pollInterval = Duration.ofSeconds(1);
        private TieringCommitProtocol.Checkpoint checkpoint = TieringCommitProtocol.Checkpoint.NONE;
        private java.util.function.Consumer<TieredTable> onTiered = table -> {};

        private Builder() {}

        /** Called after every round that committed something, with the table's totals so far. */
        public Builder onTiered(java.util.function.Consumer<TieredTable> listener) {
            this.onTiered = requireNonNull(listener, "listener is null");
            return this;
        }

        /** How to reach the Fluss cluster ({@code bootstrap.servers} and any client options). */
        public Builder clientConfig(Configuration config) {
            this.clientConfig = requireNonNull(config, "config is null");
            return this;
        }

        /**
         * The lake format ({@code paimon}) and its catalog options, without the
         * {@code datalake.<format>.} prefix the cluster configuration uses.
         */
        public Builder lake(String format, Map<String, String> options) {
            this.lakeFormat = requireNonNull(format, "format is null");
            this.lakeOptions = Map.copyOf(options);
            return this;
        }

        /** How long to wait before asking again when no table is due (default 1 s). */
        public Builder pollInterval(Duration interval) {
            this.pollInterval = requireNonNull(interval, "interval is null");
            return this;
        }

        Builder checkpoint(TieringCommitProtocol.Checkpoint checkpoint) {
            this.checkpoint = requireNonNull(checkpoint, "checkpoint is null");
            return this;
        }

        public TieringService start() {
            if (clientConfig == null || lakeFormat == null) {
                throw new IllegalStateException("clientConfig and lake are required");
            }
            return new TieringService(this).startThreads();
        }
    }

    /** The table the service is tiering right now, if any. */
    public Optional<TieringLease> tiering() {
        return Optional.ofNullable(current.get());
    }
}
