package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.lake.committer.LakeCommitResult;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.CoordinatorGateway;
import org.apache.fluss.rpc.messages.CommitLakeTableSnapshotRequest;
import org.apache.fluss.rpc.messages.LakeTieringHeartbeatRequest;
import org.apache.fluss.rpc.messages.LakeTieringHeartbeatResponse;
import org.apache.fluss.rpc.messages.PbCommitLakeTableSnapshotRespForTable;
import org.apache.fluss.rpc.messages.PbHeartbeatReqForTable;
import org.apache.fluss.rpc.messages.PbHeartbeatRespForTable;
import org.apache.fluss.rpc.messages.PbLakeTableSnapshotInfo;
import org.apache.fluss.rpc.messages.PbLakeTableSnapshotMetadata;
import org.apache.fluss.rpc.messages.PbPrepareLakeTableRespForTable;
import org.apache.fluss.rpc.messages.PbTableOffsets;
import org.apache.fluss.rpc.messages.PrepareLakeTableSnapshotRequest;
import org.apache.fluss.rpc.protocol.ApiError;

/**
 * The coordinator's side of tiering, spoken directly: the lake tiering heartbeat (ask for a table,
 * keep it, report it finished or failed) and the two-step registration of a lake snapshot in Fluss
 * (prepare writes the bucket offsets file, commit makes the snapshot the table's lake snapshot).
 * This is what Fluss's Flink tiering job does through its enumerator and
 * {@code FlussTableLakeSnapshotCommitter}.
 */
final class TieringCoordinatorClient {
    private static final long RPC_TIMEOUT_SECONDS = 60;

    private final CoordinatorGateway gateway;

    TieringCoordinatorClient(FlussConnection connection) {
        this.gateway = requireNonNull(connection, "connection is null").getMetadataUpdater().newCoordinatorServerClient();
    }

    /** What a heartbeat brought back. */
    record Heartbeat(int coordinatorEpoch, Optional<TieringLease> assigned, Map<Long, String> errors) {}

    /**
     * One heartbeat: renews {@code tiering}, reports {@code finished} and {@code failed}, and asks
     * for a new table if {@code requestTable}.
     *
     * @return per-table errors (e.g. a fenced epoch) keyed by table id, and the table assigned
     */
    Heartbeat heartbeat(int coordinatorEpoch, Collection<TieringLease> tiering, Collection<TieringLease> finished,
            Collection<TieringLease> failed, boolean requestTable) throws Exception {
        LakeTieringHeartbeatRequest request = new LakeTieringHeartbeatRequest();
        tiering.forEach(lease -> fill(request.addTieringTable(), lease, coordinatorEpoch));
        finished.forEach(lease -> fill(request.addFinishedTable(), lease, coordinatorEpoch));
        failed.forEach(lease -> fill(request.addFailedTable(), lease, coordinatorEpoch));
        if (requestTable) {
            request.setRequestTable(true);
        }
        LakeTieringHeartbeatResponse response = gateway.lakeTieringHeartbeat(request)
                .get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<Long, String> errors = new HashMap<>();
        for (var list : java.util.List.of(response.getTieringTableRespsList(), response.getFinishedTableRespsList(),
                response.getFailedTableRespsList())) {
            for (PbHeartbeatRespForTable table : list) {
                if (table.hasError() && table.getError().hasErrorCode() && table.getError().getErrorCode() != 0) {
                    errors.put(table.getTableId(), ApiError.fromErrorMessage(table.getError()).formatErrMsg());
                }
            }
        }
        Optional<TieringLease> assigned = Optional.empty();
        if (response.hasTieringTable()) {
            var table = response.getTieringTable();
            assigned = Optional.of(new TieringLease(table.getTableId(),
                    TablePath.of(table.getTablePath().getDatabaseName(), table.getTablePath().getTableName()),
                    table.getTieringEpoch()));
        }
        return new Heartbeat(response.getCoordinatorEpoch(), assigned, errors);
    }

    /**
     * Writes the table's bucket offsets (merged by the coordinator over the previous snapshot's)
     * to Fluss remote storage and returns that file's path, which the lake snapshot then records.
     */
    String prepareSnapshot(long tableId, TablePath path, Map<TableBucket, Long> logEndOffsets) throws Exception {
        PrepareLakeTableSnapshotRequest request = new PrepareLakeTableSnapshotRequest();
        PbTableOffsets table = request.addBucketOffset().setTableId(tableId);
        table.setTablePath().setDatabaseName(path.getDatabaseName()).setTableName(path.getTableName());
        logEndOffsets.forEach((bucket, offset) -> {
            var entry = table.addBucketOffset().setBucketId(bucket.getBucket()).setLogEndOffset(offset);
            if (bucket.getPartitionId() != null) {
                entry.setPartitionId(bucket.getPartitionId());
            }
        });
        var responses = gateway.prepareLakeTableSnapshot(request).get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .getPrepareLakeTableRespsList();
        if (responses.size() != 1) {
            throw new IllegalStateException("Preparing the lake snapshot of " + path + " returned " + responses.size()
                    + " answers, expected 1");
        }
        PbPrepareLakeTableRespForTable response = responses.get(0);
        if (response.hasErrorCode() && response.getErrorCode() != 0) {
            throw ApiError.fromErrorMessage(response).exception();
        }
        return response.getLakeTableOffsetsPath();
    }

    /**
     * Registers a committed lake snapshot as the table's lake snapshot, and tells the tablet
     * servers the tiered offsets (through the request's per-bucket part, which is still how they
     * learn them in Fluss 0.9).
     */
    void commitSnapshot(long tableId, TablePath path, LakeCommitResult result, String offsetsPath,
            Map<TableBucket, Long> logEndOffsets, Map<TableBucket, Long> maxTimestamps) throws Exception {
        if (!result.committedIsReadable() && result.getReadableSnapshot() != null) {
            throw new UnsupportedOperationException("Lake table " + path + " produced a snapshot that is not readable"
                    + " yet (Paimon deletion vectors); Riffle's tiering does not support such tables yet");
        }
        CommitLakeTableSnapshotRequest request = new CommitLakeTableSnapshotRequest();
        PbLakeTableSnapshotMetadata metadata = request.addLakeTableSnapshotMetadata()
                .setTableId(tableId)
                .setSnapshotId(result.getCommittedSnapshotId())
                .setTieredBucketOffsetsFilePath(offsetsPath);
        if (result.committedIsReadable()) {
            metadata.setReadableBucketOffsetsFilePath(offsetsPath);
        }
        if (result.getEarliestSnapshotIDToKeep() != null) {
            metadata.setEarliestSnapshotIdToKeep(result.getEarliestSnapshotIDToKeep());
        }
        if (!logEndOffsets.isEmpty()) {
            PbLakeTableSnapshotInfo info = request.addTablesReq().setTableId(tableId)
                    .setSnapshotId(result.getCommittedSnapshotId());
            logEndOffsets.forEach((bucket, offset) -> {
                var entry = info.addBucketsReq().setBucketId(bucket.getBucket()).setLogEndOffset(offset);
                if (bucket.getPartitionId() != null) {
                    entry.setPartitionId(bucket.getPartitionId());
                }
                Long maxTimestamp = maxTimestamps.get(bucket);
                if (maxTimestamp != null) {
                    entry.setMaxTimestamp(maxTimestamp);
                }
            });
        }
        send(request, path);
    }

    /**
     * Registers a lake snapshot that reached the lake but never Fluss (the tiering stopped between
     * the two commits). Its offsets file was prepared before the lake commit and already holds the
     * merged offsets.
     */
    void commitMissingSnapshot(long tableId, TablePath path, long snapshotId, String offsetsPath) throws Exception {
        CommitLakeTableSnapshotRequest request = new CommitLakeTableSnapshotRequest();
        request.addLakeTableSnapshotMetadata()
                .setTableId(tableId)
                .setSnapshotId(snapshotId)
                .setTieredBucketOffsetsFilePath(offsetsPath)
                .setReadableBucketOffsetsFilePath(offsetsPath)
                .setEarliestSnapshotIdToKeep(LakeCommitResult.KEEP_ALL_PREVIOUS);
        send(request, path);
    }

    private void send(CommitLakeTableSnapshotRequest request, TablePath path) throws Exception {
        var responses = gateway.commitLakeTableSnapshot(request).get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                .getTableRespsList();
        if (responses.size() != 1) {
            throw new IllegalStateException("Committing the lake snapshot of " + path + " returned " + responses.size()
                    + " answers, expected 1");
        }
        PbCommitLakeTableSnapshotRespForTable response = responses.get(0);
        if (response.hasErrorCode() && response.getErrorCode() != 0) {
            throw ApiError.fromErrorMessage(response).exception();
        }
    }

    private static void fill(PbHeartbeatReqForTable table, TieringLease lease, int coordinatorEpoch) {
        table.setTableId(lease.tableId()).setCoordinatorEpoch(coordinatorEpoch).setTieringEpoch(lease.tieringEpoch());
    }
}
