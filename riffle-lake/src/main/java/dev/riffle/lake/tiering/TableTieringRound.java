package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.lake.writer.LakeTieringFactory;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tiers one table once: every bucket from the offset its last lake snapshot recorded to the
 * bucket's current end, written with the lake format's writer, then committed to the lake and
 * registered in Fluss. What Fluss's Flink tiering job does for a table, in one process.
 *
 * <pre>{@code
 * TableTieringRound.Result result = round.run(factory, lease, new LeaseGuard(lease.tablePath(), held::get));
 * }</pre>
 *
 * <p>The parts, in order: {@link TieringInputsFetcher} asks the cluster, {@link TieringPlanner}
 * cuts the table into {@link BucketSpan}s, {@link SpanReaders} picks each span's reader from the
 * table's metadata, {@link BucketPool} reads and writes the spans in parallel (each into a
 * {@link LakeBucketWriter}), and {@link TieringCommitProtocol} commits what they wrote.
 */
final class TableTieringRound {
    private static final Logger LOG = LoggerFactory.getLogger(TableTieringRound.class);

    /**
     * What a round did.
     *
     * @param tieredOffsets per bucket written, the log offset up to which the lake now holds it
     * @param lakeSnapshotId the lake snapshot committed; empty when there was nothing new
     * @param lagRecords how many offsets the lake was behind the log when the round started
     * @param oldestRecordMillis commit time of the oldest record the round tiered: how stale the lake was
     */
    record Result(TablePath table, long tableId, long rows, Map<TableBucket, Long> tieredOffsets,
            Optional<Long> lakeSnapshotId, long nanos, long lagRecords, Optional<Long> oldestRecordMillis) {
        Result {
            requireNonNull(table, "table is null");
            tieredOffsets = Map.copyOf(tieredOffsets);
            requireNonNull(lakeSnapshotId, "lakeSnapshotId is null");
            requireNonNull(oldestRecordMillis, "oldestRecordMillis is null");
        }
    }

    private final Connection connection;
    private final TieringInputsFetcher inputs;
    private final BucketLogReads reads;
    private final TieringCommitProtocol commit;

    TableTieringRound(Connection connection, TieringInputsFetcher inputs, BucketLogReads reads,
            TieringCommitProtocol commit) {
        this.connection = requireNonNull(connection, "connection is null");
        this.inputs = requireNonNull(inputs, "inputs is null");
        this.reads = requireNonNull(reads, "reads is null");
        this.commit = requireNonNull(commit, "commit is null");
    }

    /**
     * @param leased the table the coordinator handed out
     * @param lease whether the service still holds it: once the coordinator took it back (a fenced
     *     epoch) the round stops before committing anything
     */
    <W, C> Result run(LakeTieringFactory<W, C> factory, TieringLease leased, LeaseGuard lease) throws Exception {
        requireNonNull(factory, "factory is null");
        long started = System.nanoTime();
        TieringInputs facts = inputs.fetch(leased);
        TableInfo table = facts.table();
        TieringPlan plan = TieringPlanner.plan(facts);
        List<BucketWrite<W>> writes = plan.isEmpty() ? List.of() : tier(factory, table, plan, lease);
        if (writes.isEmpty()) {
            LOG.debug("Nothing new to tier in {}", table.getTablePath());
            return new Result(table.getTablePath(), table.getTableId(), 0, Map.of(), Optional.empty(),
                    System.nanoTime() - started, plan.lagOffsets(), Optional.empty());
        }
        long lakeSnapshotId = commit.commit(factory, table, writes, lease);
        Map<TableBucket, Long> tiered = new LinkedHashMap<>();
        writes.forEach(write -> tiered.put(write.bucket(), write.endOffset()));
        return new Result(table.getTablePath(), table.getTableId(), writes.stream().mapToLong(BucketWrite::rows).sum(),
                tiered, Optional.of(lakeSnapshotId), System.nanoTime() - started, plan.lagOffsets(),
                writes.stream().flatMap(write -> write.oldestTimestamp().stream()).filter(t -> t > 0)
                        .min(Long::compare));
    }

    /** Reads and writes every span of the plan; the writes of the spans that held records. */
    private <W> List<BucketWrite<W>> tier(LakeTieringFactory<W, ?> factory, TableInfo table, TieringPlan plan,
            LeaseGuard lease) throws Exception {
        try (Table flussTable = connection.getTable(table.getTablePath())) {
            SpanReaders readers = SpanReaders.forTable(table, flussTable, reads, lease);
            List<Optional<BucketWrite<W>>> written = BucketPool.runAll(table.getTablePath().toString(), plan.spans(),
                    span -> {
                        try (LakeBucketWriter<W> writer = new LakeBucketWriter<>(factory, table, span)) {
                            readers.read(span, writer);
                            return writer.finish();
                        }
                    });
            List<BucketWrite<W>> writes = new ArrayList<>();
            written.forEach(write -> write.ifPresent(writes::add));
            return writes;
        }
    }
}
