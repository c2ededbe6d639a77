package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.lake.committer.CommittedLakeSnapshot;
import org.apache.fluss.lake.committer.CommitterInitContext;
import org.apache.fluss.lake.committer.LakeCommitResult;
import org.apache.fluss.lake.committer.LakeCommitter;
import org.apache.fluss.lake.writer.LakeTieringFactory;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Commits a round's bucket writes: first to the lake, then to Fluss, so that a round stopped
 * between the two loses nothing and duplicates nothing. What Fluss's Flink
 * {@code TieringCommitOperator} does for a table, in one call.
 *
 * <pre>{@code
 * long lakeSnapshotId = protocol.commit(factory, tableInfo, writes, lease);
 * }</pre>
 *
 * <p>The steps: turn the writes into one committable; ask the lake for a snapshot Fluss never
 * registered (a previous round stopped between the two commits) and, if there is one, register
 * that one instead, drop this round's files and fail the round with
 * {@link MissingSnapshotRecoveredException}, so the table is tiered again from the registered
 * offsets; otherwise check the lease is still held, have the coordinator prepare the offsets file,
 * commit to the lake with that file's path in the snapshot's properties, and commit to Fluss.
 */
final class TieringCommitProtocol {
    private static final String OFFSETS_PROPERTY = LakeCommitter.FLUSS_LAKE_SNAP_BUCKET_OFFSET_PROPERTY;

    /** A test seam: called between the lake commit and the Fluss commit. */
    @FunctionalInterface
    interface Checkpoint {
        Checkpoint NONE = (table, lakeSnapshotId) -> {};

        void afterLakeCommit(TablePath table, long lakeSnapshotId) throws Exception;
    }

    private final Admin admin;
    private final TieringCoordinatorClient coordinator;
    private final Configuration clientConfig;
    private final Checkpoint checkpoint;

    TieringCommitProtocol(Admin admin, TieringCoordinatorClient coordinator, Configuration clientConfig,
            Checkpoint checkpoint) {
        this.admin = requireNonNull(admin, "admin is null");
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.clientConfig = requireNonNull(clientConfig, "clientConfig is null");
        this.checkpoint = requireNonNull(checkpoint, "checkpoint is null");
    }

    /**
     * @param writes at least one; each bucket at most once
     * @return the lake snapshot committed and registered in Fluss
     * @throws MissingSnapshotRecoveredException when a snapshot an earlier round left was
     *     registered instead (nothing of this round is committed)
     * @throws LeaseLostException when the coordinator took the table back (nothing is committed)
     */
    <W, C> long commit(LakeTieringFactory<W, C> factory, TableInfo table, List<BucketWrite<W>> writes, LeaseGuard lease)
            throws Exception {
        requireNonNull(factory, "factory is null");
        requireNonNull(table, "table is null");
        requireNonNull(lease, "lease is null");
        if (writes.isEmpty()) {
            throw new IllegalArgumentException("Nothing to commit for " + table.getTablePath());
        }
        TablePath path = table.getTablePath();
        List<W> results = new ArrayList<>();
        Map<TableBucket, Long> endOffsets = new LinkedHashMap<>();
        Map<TableBucket, Long> maxTimestamps = new LinkedHashMap<>();
        for (BucketWrite<W> write : writes) {
            results.add(write.result());
            if (endOffsets.put(write.bucket(), write.endOffset()) != null) {
                throw new IllegalArgumentException("Bucket " + write.bucket() + " of " + path + " was written twice");
            }
            write.newestTimestamp().ifPresent(timestamp -> maxTimestamps.put(write.bucket(), timestamp));
        }
        try (LakeCommitter<W, C> committer = factory.createLakeCommitter(new CommitterContext(table, clientConfig))) {
            C committable = committer.toCommittable(results);
            registerMissingSnapshot(committer, committable, table);
            if (!lease.isHeld()) {
                committer.abort(committable);
                throw new LeaseLostException(path);
            }
            String offsetsPath = coordinator.prepareSnapshot(table.getTableId(), path, endOffsets);
            LakeCommitResult result = committer.commit(committable, Map.of(OFFSETS_PROPERTY, offsetsPath));
            checkpoint.afterLakeCommit(path, result.getCommittedSnapshotId());
            coordinator.commitSnapshot(table.getTableId(), path, result, offsetsPath, endOffsets, maxTimestamps);
            return result.getCommittedSnapshotId();
        }
    }

    /** Registers a lake snapshot an earlier round committed to the lake but not to Fluss, if any. */
    private <W, C> void registerMissingSnapshot(LakeCommitter<W, C> committer, C committable, TableInfo table)
            throws Exception {
        TablePath path = table.getTablePath();
        Optional<Long> registered = LakeSnapshots.latest(admin, path).map(LakeSnapshot::getSnapshotId);
        CommittedLakeSnapshot missing = committer.getMissingLakeSnapshot(registered.orElse(null));
        if (missing == null) {
            return;
        }
        String offsetsPath = missing.getSnapshotProperties().get(OFFSETS_PROPERTY);
        if (offsetsPath == null || offsetsPath.contains("{")) {
            // No offsets file to register: absent, or the offsets themselves as JSON (older Fluss tiering).
            committer.abort(committable);
            throw new IllegalStateException("Lake snapshot " + missing.getLakeSnapshotId() + " of " + path
                    + " is not registered in Fluss and does not say where its offsets are");
        }
        coordinator.commitMissingSnapshot(table.getTableId(), path, missing.getLakeSnapshotId(), offsetsPath);
        committer.abort(committable);
        throw new MissingSnapshotRecoveredException("Registered lake snapshot " + missing.getLakeSnapshotId() + " of "
                + path + ", which an earlier round committed to the lake but not to Fluss; this round is discarded"
                + " and the table is tiered again from there");
    }

    /** What the lake format's committer is told about the table. */
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
