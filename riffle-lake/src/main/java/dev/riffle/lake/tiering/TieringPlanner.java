package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;

/**
 * Decides which offsets of which buckets a tiering round reads, from facts gathered beforehand
 * ({@link TieringInputs}); it does no I/O, so every rule here is tested without a cluster.
 *
 * <pre>{@code
 * TieringPlan plan = TieringPlanner.plan(new TieringInputsFetcher(connection, admin).fetch(lease));
 * }</pre>
 *
 * <p>The rules, per bucket, where the bucket's log ends at {@code stop}:
 * <ul>
 *   <li>an empty log, or a lake already at {@code stop}: nothing to tier, no span;
 *   <li>a bucket the lake holds up to {@code o}: the log range [{@code o}, {@code stop});
 *   <li>a primary-key bucket the lake never held that has a KV snapshot: that snapshot (its
 *       changelog before the snapshot may already have expired), after which the lake holds the
 *       bucket up to the snapshot's log offset; the log past it comes in the next round;
 *   <li>any other bucket the lake never held: its log from the first offset it still holds.
 * </ul>
 */
final class TieringPlanner {
    private TieringPlanner() {}

    static TieringPlan plan(TieringInputs inputs) {
        requireNonNull(inputs, "inputs is null");
        TableInfo table = inputs.table();
        List<BucketSpan> spans = new ArrayList<>();
        for (TieringInputs.PartitionOffsets partition : inputs.partitions()) {
            for (int id = 0; id < table.getNumBuckets(); id++) {
                TableBucket bucket = new TableBucket(table.getTableId(), partition.partitionId().orElse(null), id);
                long stop = partition.latestOffsets().getOrDefault(id, 0L);
                Optional<Long> tiered = Optional.ofNullable(inputs.lakeOffsets().get(bucket));
                if (stop <= 0 || (tiered.isPresent() && tiered.get() >= stop)) {
                    continue;
                }
                if (tiered.isEmpty() && table.hasPrimaryKey()) {
                    Optional<BucketSpan> snapshot = kvSnapshotSpan(table, partition, bucket);
                    if (snapshot.isPresent()) {
                        spans.add(snapshot.get());
                        continue;
                    }
                }
                spans.add(new BucketSpan.LogRange(bucket, partition.partitionName(), tiered, stop));
            }
        }
        return new TieringPlan(table.getTablePath(), spans);
    }

    /**
     * Whether planning this partition (or the unpartitioned table, with an empty id) needs its KV
     * snapshots: only a primary-key table with a bucket the lake never held starts from one. Lets
     * {@link TieringInputsFetcher} skip the request otherwise.
     */
    static boolean needsKvSnapshots(TableInfo table, Optional<Long> partitionId, Map<TableBucket, Long> lakeOffsets) {
        if (!table.hasPrimaryKey()) {
            return false;
        }
        for (int id = 0; id < table.getNumBuckets(); id++) {
            if (!lakeOffsets.containsKey(new TableBucket(table.getTableId(), partitionId.orElse(null), id))) {
                return true;
            }
        }
        return false;
    }

    private static Optional<BucketSpan> kvSnapshotSpan(TableInfo table, TieringInputs.PartitionOffsets partition,
            TableBucket bucket) {
        KvSnapshots snapshots = partition.kvSnapshots().orElseThrow(() -> new IllegalArgumentException(
                "Bucket " + bucket.getBucket() + partition.partitionName().map(p -> " of partition " + p).orElse("")
                        + " of primary-key table " + table.getTablePath() + " was never tiered, but the inputs carry no"
                        + " KV snapshots to start it from"));
        OptionalLong snapshotId = snapshots.getSnapshotId(bucket.getBucket());
        OptionalLong logOffset = snapshots.getLogOffset(bucket.getBucket());
        if (snapshotId.isEmpty() || logOffset.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new BucketSpan.KvSnapshot(bucket, partition.partitionName(), snapshotId.getAsLong(),
                logOffset.getAsLong()));
    }
}
