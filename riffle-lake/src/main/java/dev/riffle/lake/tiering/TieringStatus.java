package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.exception.UnsupportedTableException;
import dev.riffle.core.read.BucketOffsets;
import dev.riffle.core.read.BucketRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * How far the lake is behind the log, per datalake-enabled table: what the lake snapshot holds,
 * how many records it lacks, and how old the oldest of those is (the lake's staleness).
 *
 * <pre>{@code
 * for (TieringStatus.TableLag lag : TieringStatus.of(riffle)) {
 *     System.out.println(lag.table() + " lags " + lag.lagRecords() + " records");
 * }
 * }</pre>
 */
public final class TieringStatus {
    private TieringStatus() {}

    /**
     * @param lakeSnapshotId the table's latest lake snapshot, if it has been tiered at all
     * @param lagRecords offsets in the log past the lake snapshot's, summed over buckets
     * @param lag how long the oldest record not in the lake has waited (zero when none)
     */
    public record TableLag(TablePath table, Optional<Long> lakeSnapshotId, Map<BucketRef, Long> tieredOffsets,
            Map<BucketRef, Long> latestOffsets, long lagRecords, Duration lag) {
        public TableLag {
            requireNonNull(table, "table is null");
            tieredOffsets = Map.copyOf(tieredOffsets);
            latestOffsets = Map.copyOf(latestOffsets);
        }
    }

    /** The lag of every datalake-enabled table in the cluster, however long that takes. */
    public static List<TableLag> of(Riffle riffle) throws Exception {
        return of(riffle, Optional.empty(), Instant.MAX);
    }

    /**
     * The lag of every datalake-enabled table in {@code database} (every database when empty), in
     * the order the cluster lists them, unless {@code deadline} passes first: the work grows with
     * the number of tables, so a caller serving a request bounds it.
     *
     * @throws TimeoutException when the deadline passes, saying how many tables were done
     * @throws org.apache.fluss.exception.DatabaseNotExistException when {@code database} does not exist
     */
    public static List<TableLag> of(Riffle riffle, Optional<String> database, Instant deadline) throws Exception {
        requireNonNull(database, "database is null");
        requireNonNull(deadline, "deadline is null");
        Admin admin = riffle.admin();
        List<String> databases = database.isPresent() ? List.of(database.get())
                : admin.listDatabases().get(60, TimeUnit.SECONDS);
        List<TableLag> lags = new ArrayList<>();
        int seen = 0;
        for (String db : databases) {
            for (String name : admin.listTables(db).get(60, TimeUnit.SECONDS)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new TimeoutException("The tiering status was not done in time: " + seen
                            + " tables looked at, " + lags.size() + " of them datalake-enabled; ask for one database"
                            + " (or one table) at a time");
                }
                seen++;
                TableInfo info = admin.getTableInfo(TablePath.of(db, name)).get(60, TimeUnit.SECONDS);
                if (info.getTableConfig().isDataLakeEnabled()) {
                    lags.add(lag(riffle, admin, info));
                }
            }
        }
        return lags;
    }

    /**
     * The lag of one datalake-enabled table.
     *
     * @throws dev.riffle.core.exception.UnsupportedTableException when the table is not datalake-enabled
     */
    public static TableLag of(Riffle riffle, TableInfo info) throws Exception {
        if (!info.getTableConfig().isDataLakeEnabled()) {
            throw new UnsupportedTableException(info.getTablePath() + " is not datalake-enabled, so it is never tiered"
                    + " (the table property table.datalake.enabled is not true)");
        }
        return lag(riffle, riffle.admin(), info);
    }

    static TableLag lag(Riffle riffle, Admin admin, TableInfo info) throws Exception {
        TablePath path = info.getTablePath();
        Optional<LakeSnapshot> snapshot = LakeSnapshots.latest(admin, path);
        Map<Long, String> partitionNames = new HashMap<>();
        List<Optional<BucketOffsets.Partition>> partitions = new ArrayList<>();
        if (info.isPartitioned()) {
            for (PartitionInfo partition : admin.listPartitionInfos(path).get(60, TimeUnit.SECONDS)) {
                partitionNames.put(partition.getPartitionId(), partition.getPartitionName());
                partitions.add(Optional.of(new BucketOffsets.Partition(partition.getPartitionId(),
                        partition.getPartitionName())));
            }
        } else {
            partitions.add(Optional.empty());
        }
        List<Integer> buckets = new ArrayList<>();
        for (int b = 0; b < info.getNumBuckets(); b++) {
            buckets.add(b);
        }
        BucketOffsets bucketOffsets = BucketOffsets.of(riffle.connection(), info);
        Map<BucketRef, Long> latest = new HashMap<>();
        for (Optional<BucketOffsets.Partition> partition : partitions) {
            Optional<String> name = partition.map(BucketOffsets.Partition::name);
            bucketOffsets.latest(partition, buckets).forEach((bucket, offset) ->
                    latest.put(new BucketRef(name, bucket), offset));
        }
        Map<BucketRef, Long> tiered = new HashMap<>();
        snapshot.ifPresent(s -> s.getTableBucketsOffset().forEach((TableBucket bucket, Long offset) -> {
            Optional<String> partition = Optional.ofNullable(bucket.getPartitionId()).map(partitionNames::get);
            if (bucket.getPartitionId() == null || partition.isPresent()) {
                tiered.put(new BucketRef(partition, bucket.getBucket()), offset);
            }
        }));
        long lagRecords = 0;
        Map<BucketRef, Long> behind = new HashMap<>();
        for (Map.Entry<BucketRef, Long> entry : latest.entrySet()) {
            long from = tiered.getOrDefault(entry.getKey(), 0L);
            if (entry.getValue() > from) {
                lagRecords += entry.getValue() - from;
                behind.put(entry.getKey(), from);
            }
        }
        return new TableLag(path, snapshot.map(LakeSnapshot::getSnapshotId), tiered, latest, lagRecords,
                oldestUntiered(riffle, info, behind));
    }

    /** The age of the oldest record the lake lacks: one record read at each lagging bucket's tiered offset. */
    private static Duration oldestUntiered(Riffle riffle, TableInfo info, Map<BucketRef, Long> behind) {
        Optional<Long> oldest;
        try {
            oldest = BucketLogReads.oldestCommitTimestamp(riffle, info, behind);
        } catch (RuntimeException e) {
            return Duration.ZERO; // the record expired meanwhile; the offsets still tell the lag
        }
        return oldest.map(millis -> Duration.between(Instant.ofEpochMilli(millis), Instant.now()).abs())
                .orElse(Duration.ZERO);
    }
}
