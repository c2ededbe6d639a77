package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.read.BucketOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Asks the cluster what {@link TieringPlanner} needs to plan a round of a leased table: its
 * metadata, its latest lake snapshot's offsets, and per partition the log end offsets and, only
 * where a primary-key bucket was never tiered, the KV snapshots.
 *
 * <pre>{@code
 * TieringPlan plan = TieringPlanner.plan(new TieringInputsFetcher(connection, admin).fetch(lease));
 * }</pre>
 */
final class TieringInputsFetcher {
    private static final long TIMEOUT_SECONDS = 60;

    private final FlussConnection connection;
    private final Admin admin;

    /**
     * @param admin {@code connection}'s admin, retrying as the service's does; log end offsets are
     *     asked through {@link BucketOffsets}, which also looks a stopped leader up anew
     */
    TieringInputsFetcher(FlussConnection connection, Admin admin) {
        this.connection = requireNonNull(connection, "connection is null");
        this.admin = requireNonNull(admin, "admin is null");
    }

    /**
     * @throws TableRecreatedException when the path now names another table than the one leased
     */
    TieringInputs fetch(TieringLease lease) throws Exception {
        requireNonNull(lease, "lease is null");
        TablePath path = lease.tablePath();
        TableInfo table = admin.getTableInfo(path).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (table.getTableId() != lease.tableId()) {
            throw new TableRecreatedException("Table " + path + " was dropped and created again (id " + lease.tableId()
                    + " is now " + table.getTableId() + "); skipping the old one");
        }
        Map<TableBucket, Long> lakeOffsets = LakeSnapshots.latest(admin, path)
                .map(LakeSnapshot::getTableBucketsOffset).orElse(Map.of());
        List<Integer> bucketIds = new ArrayList<>();
        for (int b = 0; b < table.getNumBuckets(); b++) {
            bucketIds.add(b);
        }
        BucketOffsets offsets = BucketOffsets.of(connection, table);
        List<TieringInputs.PartitionOffsets> partitions = new ArrayList<>();
        if (!table.isPartitioned()) {
            Map<Integer, Long> latest = offsets.latest(Optional.empty(), bucketIds);
            Optional<KvSnapshots> kv = TieringPlanner.needsKvSnapshots(table, Optional.empty(), lakeOffsets)
                    ? Optional.of(admin.getLatestKvSnapshots(path).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                    : Optional.empty();
            partitions.add(TieringInputs.PartitionOffsets.unpartitioned(latest, kv));
        } else {
            for (PartitionInfo info : admin.listPartitionInfos(path).get(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                String name = info.getPartitionName();
                Map<Integer, Long> latest = offsets.latest(
                        Optional.of(new BucketOffsets.Partition(info.getPartitionId(), name)), bucketIds);
                Optional<KvSnapshots> kv = TieringPlanner.needsKvSnapshots(table, Optional.of(info.getPartitionId()),
                        lakeOffsets)
                        ? Optional.of(admin.getLatestKvSnapshots(path, name).get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
                        : Optional.empty();
                partitions.add(new TieringInputs.PartitionOffsets(
                        Optional.of(new TieringInputs.Partition(info.getPartitionId(), name)), latest, kv));
            }
        }
        return new TieringInputs(table, lakeOffsets, partitions);
    }
}
