package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import dev.riffle.core.Riffle;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.lake.committer.CommittedLakeSnapshot;
import org.apache.fluss.lake.committer.CommitterInitContext;
import org.apache.fluss.lake.committer.LakeCommitResult;
import org.apache.fluss.lake.committer.LakeCommitter;
import org.apache.fluss.lake.writer.LakeTieringFactory;
import org.apache.fluss.lake.writer.LakeWriter;
import org.apache.fluss.lake.writer.WriterInitContext;
import org.apache.fluss.metadata.LogFormat;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.utils.CloseableIterator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tiers one table once: every bucket from the offset its last lake snapshot recorded to the
 * bucket's current end, written with the lake format's writer, then committed to the lake and
 * registered in Fluss. What Fluss's Flink tiering job does for a table, in one process: buckets are
 * spread over one thread per core, and an Arrow log is read as Arrow batches (Riffle's reader) whose
 * rows go to the lake writer as views, not as one copied record per row.
 *
 * <p>Order of a round: read and write every bucket; turn the writes into one committable; if the
 * lake holds a snapshot Fluss never registered (a previous round stopped between the two
 * commits), register that one instead, drop this round's files and fail the round, so the table is
 * tiered again from the registered offsets; otherwise prepare the offsets file, commit to the lake
 * with that file's path in the snapshot's properties, and commit to Fluss.
 */
final class TableTieringRound {
    private static final Logger LOG = LoggerFactory.getLogger(TableTieringRound.class);
    private static final Duration POLL = Duration.ofSeconds(1);
    private static final Duration QUIET_BUCKET = Duration.ofSeconds(2);
    private static final Duration STALLED_BUCKET = Duration.ofSeconds(60);
    private static final String OFFSETS_PROPERTY = LakeCommitter.FLUSS_LAKE_SNAP_BUCKET_OFFSET_PROPERTY;

    /** A test seam: called between the lake commit and the Fluss commit. */
    interface Checkpoint {
        Checkpoint NONE = (table, lakeSnapshotId) -> {};

        void afterLakeCommit(TablePath table, long lakeSnapshotId) throws Exception;
    }

    /**
     * What a round did.
     *
     * @param lagRecords how many offsets the lake was behind the log when the round started
     * @param oldestRecordMillis commit time of the oldest record the round tiered: how stale the lake was
     */
    record Result(TablePath table, long rows, Map<TableBucket, Long> tieredOffsets, Optional<Long> lakeSnapshotId,
            long nanos, long lagRecords, Optional<Long> oldestRecordMillis) {}

    private final Connection connection;
    private final Admin admin;
    private final TieringCoordinatorClient coordinator;
    private final Configuration clientConfig;
    private final Checkpoint checkpoint;

    TableTieringRound(Connection connection, Admin admin, TieringCoordinatorClient coordinator,
            Configuration clientConfig, Checkpoint checkpoint) {
        this.connection = requireNonNull(connection, "connection is null");
        this.admin = requireNonNull(admin, "admin is null");
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.clientConfig = requireNonNull(clientConfig, "clientConfig is null");
        this.checkpoint = requireNonNull(checkpoint, "checkpoint is null");
    }

    /**
     * @param stillHeld false once the coordinator took the table back (a fenced epoch); the round
     *     then stops before committing anything
     */
    <W, C> Result run(LakeTieringFactory<W, C> factory, TieringLease lease, BooleanSupplier stillHeld) throws Exception {
        long started = System.nanoTime();
        TablePath path = lease.tablePath();
        TableInfo table = admin.getTableInfo(path).get(60, TimeUnit.SECONDS);
        if (table.getTableId() != lease.tableId()) {
            throw new IllegalStateException("Table " + path + " was dropped and created again (id " + lease.tableId()
                    + " is now " + table.getTableId() + "); skipping the old one");
        }
        Optional<LakeSnapshot> lake = latestLakeSnapshot(path);
        List<BucketSpan> spans = spans(table, lake);
        long lagRecords = 0;
        for (BucketSpan span : spans) {
            lagRecords += span.stop() - Math.max(0, span.start());
        }

        List<W> writes = new ArrayList<>();
        Map<TableBucket, Long> ends = new LinkedHashMap<>();
        Map<TableBucket, Long> maxTimestamps = new HashMap<>();
        Map<TableBucket, Long> oldestTimestamps = new java.util.concurrent.ConcurrentHashMap<>();
        long rows = 0;
        try (Table flussTable = connection.getTable(path)) {
            for (BucketSpan span : spans) {
                if (span.kvSnapshotId().isPresent()) {
                    BucketWrite<W> write = tierKvSnapshot(factory, flussTable, table, span);
                    if (write.rows() > 0) {
                        writes.add(write.result());
                        ends.put(span.bucket(), span.stop());
                        rows += write.rows();
                    }
                }
            }
            List<BucketSpan> logSpans = spans.stream().filter(s -> s.kvSnapshotId().isEmpty()).toList();
            if (!logSpans.isEmpty()) {
                rows += tierLogInParallel(factory, flussTable, table, logSpans, writes, ends, maxTimestamps,
                        oldestTimestamps, stillHeld);
            }
        }
        if (writes.isEmpty()) {
            LOG.debug("Nothing new to tier in {}", path);
            return new Result(path, 0, Map.of(), Optional.empty(), System.nanoTime() - started, lagRecords,
                    Optional.empty());
        }
        try (LakeCommitter<W, C> committer = factory.createLakeCommitter(new CommitterContext(table, clientConfig))) {
            C committable = committer.toCommittable(writes);
            Long registered = latestLakeSnapshot(path).map(LakeSnapshot::getSnapshotId).orElse(null);
            CommittedLakeSnapshot missing = committer.getMissingLakeSnapshot(registered);
            if (missing != null) {
                String offsetsPath = missing.getSnapshotProperties().get(OFFSETS_PROPERTY);
                if (offsetsPath == null || offsetsPath.contains("{")) {
                    committer.abort(committable);
                    throw new IllegalStateException("Lake snapshot " + missing.getLakeSnapshotId() + " of " + path
                            + " is not registered in Fluss and does not say where its offsets are");
                }
                coordinator.commitMissingSnapshot(table.getTableId(), path, missing.getLakeSnapshotId(), offsetsPath);
                committer.abort(committable);
                throw new MissingSnapshotRecoveredException("Registered lake snapshot " + missing.getLakeSnapshotId()
                        + " of " + path + ", which an earlier round committed to the lake but not to Fluss;"
                        + " this round is discarded and the table is tiered again from there");
            }
            if (!stillHeld.getAsBoolean()) {
                committer.abort(committable);
                throw new IllegalStateException("The coordinator took " + path + " back during the round");
            }
            String offsetsPath = coordinator.prepareSnapshot(table.getTableId(), path, ends);
            LakeCommitResult result = committer.commit(committable, Map.of(OFFSETS_PROPERTY, offsetsPath));
            checkpoint.afterLakeCommit(path, result.getCommittedSnapshotId());
            coordinator.commitSnapshot(table.getTableId(), path, result, offsetsPath, ends, maxTimestamps);
            Optional<Long> oldest = oldestTimestamps.values().stream().filter(t -> t > 0).min(Long::compare);
            return new Result(path, rows, ends, Optional.of(result.getCommittedSnapshotId()),
                    System.nanoTime() - started, lagRecords, oldest);
        }
    }

    private Optional<LakeSnapshot> latestLakeSnapshot(TablePath path) throws Exception {
        try {
            return Optional.of(admin.getLatestLakeSnapshot(path).get(60, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Which offsets of which buckets this round tiers. */
    private List<BucketSpan> spans(TableInfo table, Optional<LakeSnapshot> lake) throws Exception {
        Map<TableBucket, Long> tiered = lake.map(LakeSnapshot::getTableBucketsOffset).orElse(Map.of());
        List<Integer> bucketIds = new ArrayList<>();
        for (int b = 0; b < table.getNumBuckets(); b++) {
            bucketIds.add(b);
        }
        List<BucketSpan> spans = new ArrayList<>();
        List<Optional<PartitionInfo>> partitions = new ArrayList<>();
        if (table.isPartitioned()) {
            admin.listPartitionInfos(table.getTablePath()).get(60, TimeUnit.SECONDS)
                    .forEach(p -> partitions.add(Optional.of(p)));
        } else {
            partitions.add(Optional.empty());
        }
        for (Optional<PartitionInfo> partition : partitions) {
            Map<Integer, Long> latest = partition.isPresent()
                    ? admin.listOffsets(table.getTablePath(), partition.get().getPartitionName(), bucketIds,
                            new OffsetSpec.LatestSpec()).all().get(60, TimeUnit.SECONDS)
                    : admin.listOffsets(table.getTablePath(), bucketIds, new OffsetSpec.LatestSpec()).all()
                            .get(60, TimeUnit.SECONDS);
            Optional<KvSnapshots> kvSnapshots = Optional.empty();
            for (int b : bucketIds) {
                Long partitionId = partition.map(PartitionInfo::getPartitionId).orElse(null);
                TableBucket bucket = new TableBucket(table.getTableId(), partitionId, b);
                long stop = latest.getOrDefault(b, 0L);
                Long last = tiered.get(bucket);
                if (stop <= 0 || (last != null && last >= stop)) {
                    continue;
                }
                Optional<String> partitionName = partition.map(PartitionInfo::getPartitionName);
                if (last == null && table.hasPrimaryKey()) {
                    // Never tiered: start from the KV snapshot if there is one, since the changelog
                    // before it may already be gone.
                    if (kvSnapshots.isEmpty()) {
                        kvSnapshots = Optional.of(partitionName.isPresent()
                                ? admin.getLatestKvSnapshots(table.getTablePath(), partitionName.get()).get(60, TimeUnit.SECONDS)
                                : admin.getLatestKvSnapshots(table.getTablePath()).get(60, TimeUnit.SECONDS));
                    }
                    var snapshotId = kvSnapshots.get().getSnapshotId(b);
                    var snapshotOffset = kvSnapshots.get().getLogOffset(b);
                    if (snapshotId.isPresent() && snapshotOffset.isPresent()) {
                        spans.add(new BucketSpan(bucket, partitionName, -1, snapshotOffset.getAsLong(),
                                Optional.of(snapshotId.getAsLong())));
                        continue;
                    }
                }
                spans.add(new BucketSpan(bucket, partitionName, last == null ? -1 : last, stop, Optional.empty()));
            }
        }
        return spans;
    }

    /**
     * Spreads the buckets over one thread per core, each with its own scanner: reading rows and
     * encoding lake files is CPU-bound, and one thread would leave the other cores idle.
     */
    private <W> long tierLogInParallel(LakeTieringFactory<W, ?> factory, Table flussTable, TableInfo table,
            List<BucketSpan> spans, List<W> writes, Map<TableBucket, Long> ends, Map<TableBucket, Long> maxTimestamps,
            Map<TableBucket, Long> oldestTimestamps, BooleanSupplier stillHeld) throws Exception {
        int threads = Math.min(spans.size(), Runtime.getRuntime().availableProcessors());
        if (threads <= 1) {
            return tierLog(factory, flussTable, table, spans, writes, ends, maxTimestamps, oldestTimestamps, stillHeld);
        }
        List<List<BucketSpan>> groups = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            groups.add(new ArrayList<>());
        }
        for (int i = 0; i < spans.size(); i++) {
            groups.get(i % threads).add(spans.get(i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "riffle-tiering-" + table.getTablePath());
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<GroupResult<W>>> futures = new ArrayList<>();
            for (List<BucketSpan> group : groups) {
                futures.add(pool.submit(() -> {
                    GroupResult<W> result = new GroupResult<>(new ArrayList<>(), new HashMap<>(), new HashMap<>());
                    long rows = tierLog(factory, flussTable, table, group, result.writes(), result.ends(),
                            result.maxTimestamps(), oldestTimestamps, stillHeld);
                    return result.withRows(rows);
                }));
            }
            long rows = 0;
            for (Future<GroupResult<W>> future : futures) {
                GroupResult<W> result;
                try {
                    result = future.get();
                } catch (ExecutionException e) {
                    futures.forEach(f -> f.cancel(true));
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
                writes.addAll(result.writes());
                ends.putAll(result.ends());
                maxTimestamps.putAll(result.maxTimestamps());
                rows += result.rows();
            }
            return rows;
        } finally {
            pool.shutdownNow();
        }
    }

    private record GroupResult<W>(List<W> writes, Map<TableBucket, Long> ends, Map<TableBucket, Long> maxTimestamps,
            long rows) {
        GroupResult(List<W> writes, Map<TableBucket, Long> ends, Map<TableBucket, Long> maxTimestamps) {
            this(writes, ends, maxTimestamps, 0);
        }

        GroupResult<W> withRows(long count) {
            return new GroupResult<>(writes, ends, maxTimestamps, count);
        }
    }

    /**
     * Reads the log spans and writes each bucket through its own lake writer: with Riffle's Arrow
     * reader when the log is Arrow, falling back to the Fluss log scanner for other log formats and
     * for logs that span a schema change (which Riffle's reader does not read yet).
     */
    private <W> long tierLog(LakeTieringFactory<W, ?> factory, Table flussTable, TableInfo table, List<BucketSpan> spans,
            List<W> writes, Map<TableBucket, Long> ends, Map<TableBucket, Long> maxTimestamps,
            Map<TableBucket, Long> oldestTimestamps, BooleanSupplier stillHeld) throws Exception {
        if (table.getTableConfig().getLogFormat() == LogFormat.ARROW && scalarColumnsOnly(table)) {
            try {
                return tierArrowLog(factory, table, spans, writes, ends, maxTimestamps, oldestTimestamps, stillHeld);
            } catch (Exception e) {
                Throwable unsupported = e;
                while (unsupported != null && !(unsupported instanceof UnsupportedOperationException)) {
                    unsupported = unsupported.getCause();
                }
                if (unsupported == null) {
                    throw e;
                }
                LOG.info("Tiering {} with the Fluss log scanner instead of Riffle's Arrow reader: {}",
                        table.getTablePath(), unsupported.getMessage());
            }
        }
        return tierScannedLog(factory, flussTable, table, spans, writes, ends, maxTimestamps, oldestTimestamps,
                stillHeld);
    }

    /**
     * Reads the log spans as Arrow batches (Riffle's bounded reader, which also steps over batches
     * without records, so a bucket ends exactly at its stop offset) and hands each row to its
     * bucket's lake writer as a view over the batch. Nothing is added to the output maps until every
     * bucket is read, so a failure leaves them untouched (the writers are closed, which drops their
     * files).
     */
    private <W> long tierArrowLog(LakeTieringFactory<W, ?> factory, TableInfo table, List<BucketSpan> spans,
            List<W> writes, Map<TableBucket, Long> ends, Map<TableBucket, Long> maxTimestamps,
            Map<TableBucket, Long> oldestTimestamps, BooleanSupplier stillHeld) throws Exception {
        boolean changelog = table.hasPrimaryKey();
        int fields = table.getRowType().getFieldCount();
        Map<TableBucket, BucketSpan> byBucket = new HashMap<>();
        Map<TableBucket, LakeWriter<W>> writers = new HashMap<>();
        Map<TableBucket, long[]> stats = new HashMap<>(); // rows, newest, oldest timestamp
        long rows = 0;
        try (BufferAllocator allocator = new RootAllocator();
                ArrowLogScanner scanner = changelog
                        ? new ReadBuilder((FlussConnection) connection, table, allocator).changelog().createScanner()
                        : new ReadBuilder((FlussConnection) connection, table, allocator).createScanner()) {
            Map<TableBucket, Long> stops = new HashMap<>();
            Map<TableBucket, Long> earliest = earliestOffsets(table, spans);
            for (BucketSpan span : spans) {
                byBucket.put(span.bucket(), span);
                span.partitionName().ifPresent(name -> scanner.knowPartition(span.bucket().getPartitionId(), name));
                long start = span.start() < 0 ? earliest.get(span.bucket()) : span.start();
                scanner.subscribe(span.bucket(), start);
                stops.put(span.bucket(), span.stop());
            }
            try (BoundedLogReader reader = BoundedLogReader.create(scanner, stops, Optional.empty())) {
                while (reader.hasNext()) {
                    try (LogBatch batch = reader.next()) {
                        if (!stillHeld.getAsBoolean()) {
                            throw new IllegalStateException("The coordinator took " + table.getTablePath()
                                    + " back during the round");
                        }
                        BucketSpan span = byBucket.get(batch.bucket());
                        LakeWriter<W> writer = writers.get(batch.bucket());
                        if (writer == null) {
                            writer = factory.createLakeWriter(new WriterContext(table, span));
                            writers.put(batch.bucket(), writer);
                        }
                        ArrowBatchRecord record = new ArrowBatchRecord(batch, fields, changelog);
                        int count = batch.rowCount();
                        for (int i = 0; i < count; i++) {
                            writer.write(record.at(i));
                        }
                        rows += count;
                        long[] bucketStats = stats.computeIfAbsent(batch.bucket(),
                                b -> new long[] {0, Long.MIN_VALUE, Long.MAX_VALUE});
                        bucketStats[0] += count;
                        bucketStats[1] = Math.max(bucketStats[1], batch.commitTimestamp());
                        bucketStats[2] = Math.min(bucketStats[2], batch.commitTimestamp());
                    }
                }
            }
            List<W> completed = new ArrayList<>();
            for (Map.Entry<TableBucket, LakeWriter<W>> entry : writers.entrySet()) {
                completed.add(entry.getValue().complete());
            }
            writes.addAll(completed);
            for (Map.Entry<TableBucket, long[]> entry : stats.entrySet()) {
                ends.put(entry.getKey(), byBucket.get(entry.getKey()).stop());
                maxTimestamps.merge(entry.getKey(), entry.getValue()[1], Math::max);
                oldestTimestamps.merge(entry.getKey(), entry.getValue()[2], Math::min);
            }
            return rows;
        } finally {
            for (LakeWriter<W> writer : writers.values()) {
                closeQuietly(writer);
            }
        }
    }

    /** Whether every column is a scalar, which Riffle's Arrow row view can show a lake writer. */
    private static boolean scalarColumnsOnly(TableInfo table) {
        return table.getRowType().getChildren().stream().noneMatch(type -> type.getTypeRoot() == DataTypeRoot.ARRAY
                || type.getTypeRoot() == DataTypeRoot.MAP || type.getTypeRoot() == DataTypeRoot.ROW);
    }

    /** The first offset each never-tiered bucket still holds. */
    private Map<TableBucket, Long> earliestOffsets(TableInfo table, List<BucketSpan> spans) throws Exception {
        Map<Optional<String>, List<Integer>> bucketsByPartition = new HashMap<>();
        Map<Optional<String>, Long> partitionIds = new HashMap<>();
        for (BucketSpan span : spans) {
            if (span.start() < 0) {
                bucketsByPartition.computeIfAbsent(span.partitionName(), p -> new ArrayList<>())
                        .add(span.bucket().getBucket());
                partitionIds.put(span.partitionName(), span.bucket().getPartitionId());
            }
        }
        Map<TableBucket, Long> earliest = new HashMap<>();
        for (Map.Entry<Optional<String>, List<Integer>> entry : bucketsByPartition.entrySet()) {
            Map<Integer, Long> offsets = entry.getKey().isPresent()
                    ? admin.listOffsets(table.getTablePath(), entry.getKey().get(), entry.getValue(),
                            new OffsetSpec.EarliestSpec()).all().get(60, TimeUnit.SECONDS)
                    : admin.listOffsets(table.getTablePath(), entry.getValue(), new OffsetSpec.EarliestSpec()).all()
                            .get(60, TimeUnit.SECONDS);
            Long partitionId = partitionIds.get(entry.getKey());
            offsets.forEach((bucket, offset) -> earliest.put(new TableBucket(table.getTableId(), partitionId, bucket),
                    Math.max(0, offset)));
        }
        return earliest;
    }

    /** Reads the log spans with one Fluss log scanner and writes each bucket through its own lake writer. */
    private <W> long tierScannedLog(LakeTieringFactory<W, ?> factory, Table flussTable, TableInfo table, List<BucketSpan> spans,
            List<W> writes, Map<TableBucket, Long> ends, Map<TableBucket, Long> maxTimestamps,
            Map<TableBucket, Long> oldestTimestamps, BooleanSupplier stillHeld) throws Exception {
        Map<TableBucket, BucketSpan> remaining = new HashMap<>();
        Map<TableBucket, LakeWriter<W>> writers = new HashMap<>();
        Map<TableBucket, Long> lastSeen = new HashMap<>();
        Map<TableBucket, Long> lastProgress = new HashMap<>();
        Map<TableBucket, Long> lastChecked = new HashMap<>();
        long rows = 0;
        try (LogScanner scanner = flussTable.newScan().createLogScanner()) {
            for (BucketSpan span : spans) {
                remaining.put(span.bucket(), span);
                lastProgress.put(span.bucket(), System.nanoTime());
                long start = span.start() < 0 ? LogScanner.EARLIEST_OFFSET : span.start();
                if (span.bucket().getPartitionId() == null) {
                    scanner.subscribe(span.bucket().getBucket(), start);
                } else {
                    scanner.subscribe(span.bucket().getPartitionId(), span.bucket().getBucket(), start);
                }
            }
            while (!remaining.isEmpty()) {
                if (!stillHeld.getAsBoolean()) {
                    throw new IllegalStateException("The coordinator took " + table.getTablePath() + " back during the round");
                }
                ScanRecords records = scanner.poll(POLL);
                for (TableBucket bucket : records.buckets()) {
                    BucketSpan span = remaining.get(bucket);
                    if (span == null) {
                        continue;
                    }
                    // Per-record bookkeeping stays in locals; the maps are touched once per poll.
                    LakeWriter<W> writer = writers.get(bucket);
                    long written = 0;
                    long last = -1;
                    long newest = Long.MIN_VALUE;
                    long oldest = Long.MAX_VALUE;
                    for (ScanRecord record : records.records(bucket)) {
                        long offset = record.logOffset();
                        if (offset >= span.stop()) {
                            break;
                        }
                        if (writer == null) {
                            writer = factory.createLakeWriter(new WriterContext(table, span));
                            writers.put(bucket, writer);
                        }
                        writer.write(record);
                        written++;
                        last = offset;
                        long timestamp = record.timestamp();
                        newest = Math.max(newest, timestamp);
                        oldest = Math.min(oldest, timestamp);
                        if (offset == span.stop() - 1) {
                            break;
                        }
                    }
                    if (written > 0) {
                        rows += written;
                        lastSeen.put(bucket, last);
                        lastProgress.put(bucket, System.nanoTime());
                        maxTimestamps.merge(bucket, newest, Math::max);
                        oldestTimestamps.merge(bucket, oldest, Math::min);
                    }
                    List<ScanRecord> bucketRecords = records.records(bucket);
                    if (!bucketRecords.isEmpty()
                            && bucketRecords.get(bucketRecords.size() - 1).logOffset() >= span.stop() - 1) {
                        finishBucket(bucket, span.stop(), writers, writes, ends, remaining, scanner);
                    }
                }
                // A primary-key bucket can end in batches without records (a delete of a missing
                // key); the row scanner never shows their offsets. When a bucket goes quiet, Riffle's
                // own reader (which steps over empty batches) checks that the offsets left hold no
                // records; then the bucket is done up to its end offset.
                // A bucket that is only slow (a busy machine, or the scanner serving other buckets
                // first) holds records: it is checked again later, and fails the round only once it
                // has delivered nothing for STALLED_BUCKET.
                long now = System.nanoTime();
                for (BucketSpan span : List.copyOf(remaining.values())) {
                    long quiet = now - Math.max(lastProgress.get(span.bucket()), lastChecked.getOrDefault(span.bucket(), 0L));
                    if (quiet > QUIET_BUCKET.toNanos()) {
                        long from = lastSeen.containsKey(span.bucket()) ? lastSeen.get(span.bucket()) + 1
                                : Math.max(0, span.start());
                        if (!onlyEmptyBatches(table, span, from)) {
                            if (now - lastProgress.get(span.bucket()) > STALLED_BUCKET.toNanos()) {
                                throw new IllegalStateException("Bucket " + span.bucket().getBucket() + " of "
                                        + table.getTablePath() + " holds records in [" + from + ", " + span.stop()
                                        + ") that the log scanner did not deliver in " + STALLED_BUCKET.toSeconds()
                                        + " s; the round will be retried");
                            }
                            lastChecked.put(span.bucket(), System.nanoTime());
                            continue;
                        }
                        LOG.debug("Bucket {} of {}: offsets [{}, {}) hold no records", span.bucket().getBucket(),
                                table.getTablePath(), from, span.stop());
                        finishBucket(span.bucket(), span.stop(), writers, writes, ends, remaining, scanner);
                    }
                }
            }
        } finally {
            for (LakeWriter<W> writer : writers.values()) {
                closeQuietly(writer);
            }
        }
        return rows;
    }

    /** Whether the bucket's offsets [from, stop) hold no records (only empty batches). */
    private boolean onlyEmptyBatches(TableInfo table, BucketSpan span, long from) {
        if (from >= span.stop()) {
            return true;
        }
        BucketRef ref = new BucketRef(span.partitionName(), span.bucket().getBucket());
        try (BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader reader = new ReadBuilder((FlussConnection) connection, table, allocator).changelog()
                        .columns(table.getRowType().getFieldNames().get(0))
                        .from(StartingOffsets.explicit(Map.of(ref, from)))
                        .until(StoppingOffsets.explicit(Map.of(ref, span.stop())))
                        .timeout(Duration.ofSeconds(30))
                        .createReader()) {
            return !reader.hasNext(); // the first batch with records answers; closing drops the rest
        } catch (Exception e) {
            throw new IllegalStateException("Cannot check the end of bucket " + span.bucket().getBucket() + " of "
                    + table.getTablePath() + ": " + e.getMessage(), e);
        }
    }

    private <W> void finishBucket(TableBucket bucket, long end, Map<TableBucket, LakeWriter<W>> writers,
            List<W> writes, Map<TableBucket, Long> ends, Map<TableBucket, BucketSpan> remaining, LogScanner scanner)
            throws IOException {
        remaining.remove(bucket);
        if (bucket.getPartitionId() == null) {
            scanner.unsubscribe(bucket.getBucket());
        } else {
            scanner.unsubscribe(bucket.getPartitionId(), bucket.getBucket());
        }
        LakeWriter<W> writer = writers.remove(bucket);
        if (writer != null) {
            try (writer) {
                writes.add(writer.complete());
            }
            ends.put(bucket, end);
        }
    }

    private <W> BucketWrite<W> tierKvSnapshot(LakeTieringFactory<W, ?> factory, Table flussTable, TableInfo table,
            BucketSpan span) throws Exception {
        long rows = 0;
        try (BatchScanner scanner = flussTable.newScan().createBatchScanner(span.bucket(), span.kvSnapshotId().get());
                LakeWriter<W> writer = factory.createLakeWriter(new WriterContext(table, span))) {
            while (true) {
                CloseableIterator<InternalRow> batch = scanner.pollBatch(POLL);
                if (batch == null) {
                    break;
                }
                try (batch) {
                    while (batch.hasNext()) {
                        // Rows from a KV snapshot have no log offset or timestamp: the lake gets -1.
                        writer.write(new ScanRecord(batch.next()));
                        rows++;
                    }
                }
            }
            return new BucketWrite<>(rows > 0 ? writer.complete() : null, rows);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.debug("Closing a lake writer failed", e);
        }
    }

    /** One bucket's part of a round: offsets [start, stop), start -1 meaning the earliest. */
    private record BucketSpan(TableBucket bucket, Optional<String> partitionName, long start, long stop,
            Optional<Long> kvSnapshotId) {}

    private record BucketWrite<W>(W result, long rows) {}

    private record WriterContext(TableInfo table, BucketSpan span) implements WriterInitContext {
        @Override
        public TablePath tablePath() {
            return table.getTablePath();
        }

        @Override
        public TableBucket tableBucket() {
            return span.bucket();
        }

        @Override
        public String partition() {
            return span.partitionName().orElse(null);
        }

        @Override
        public TableInfo tableInfo() {
            return table;
        }
    }

    private record CommitterContext(TableInfo table, Configuration clientConfig) implements CommitterInitContext {
        @Override
        public TablePath tablePath() {
            return table.getTablePath();
        }

        @Override
        public TableInfo tableInfo() {
            return table;
        }

        @Override
        public Configuration lakeTieringConfig() {
            return new Configuration();
        }

        @Override
        public Configuration flussClientConfig() {
            return clientConfig;
        }
    }
}
