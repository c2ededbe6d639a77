package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.core.rpc.RetryPolicy;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.exception.RetriableException;
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
 *
 * <p>Every call is retried ({@link RetryPolicy#DEFAULT}) after a metadata refresh when it fails in
 * a way that a coordinator fail-over explains: a network failure, a retriable Fluss error, or
 * Fluss 1.0's {@code NOT_COORDINATOR_LEADER} from a standby (which the 0.9.1 client reports as an
 * unknown server error). Retrying a commit is safe: the request carries the whole registration
 * (snapshot id, offsets file), so applying it twice registers the same snapshot.
 */
final class TieringCoordinatorClient {
    private static final long RPC_TIMEOUT_SECONDS = 60;

    private final Supplier<CoordinatorGateway> gateways;
    private final RetryPolicy.Refresh refresh;
    private final RetryPolicy retry;

    TieringCoordinatorClient(FlussConnection connection) {
        this(requireNonNull(connection, "connection is null").getMetadataUpdater(), RetryPolicy.DEFAULT);
    }

    private TieringCoordinatorClient(MetadataUpdater metadata, RetryPolicy retry) {
        // A fresh metadata request names the coordinator that leads now.
        this(metadata::newCoordinatorServerClient, () -> metadata.updateMetadata(Set.of(), Set.of(), Set.of()), retry);
    }

    /**
     * @param gateways the coordinator to send each attempt to (asked again after a refresh)
     * @param refresh refreshes the metadata that names the coordinator
     */
    TieringCoordinatorClient(Supplier<CoordinatorGateway> gateways, RetryPolicy.Refresh refresh, RetryPolicy retry) {
        this.gateways = requireNonNull(gateways, "gateways is null");
        this.refresh = requireNonNull(refresh, "refresh is null");
        this.retry = requireNonNull(retry, "retry is null");
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
        LakeTieringHeartbeatResponse response = retry.call("send the lake tiering heartbeat",
                () -> gateways.get().lakeTieringHeartbeat(request).get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS),
                FlussErrors::isRetriable, refresh);
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
        PbPrepareLakeTableRespForTable response = retry.call("prepare the lake snapshot of " + path, () -> {
            PbPrepareLakeTableRespForTable answer = onlyAnswer(gateways.get().prepareLakeTableSnapshot(request)
                    .get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS).getPrepareLakeTableRespsList(), "Preparing", path);
            if (answer.hasErrorCode() && answer.getErrorCode() != 0) {
                throw failure(answer.getErrorCode(), ApiError.fromErrorMessage(answer));
            }
            return answer;
        }, FlussErrors::isRetriable, refresh);
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
        retry.call("commit the lake snapshot of " + path, () -> {
            PbCommitLakeTableSnapshotRespForTable response = onlyAnswer(gateways.get()
                    .commitLakeTableSnapshot(request).get(RPC_TIMEOUT_SECONDS, TimeUnit.SECONDS).getTableRespsList(),
                    "Committing", path);
            if (response.hasErrorCode() && response.getErrorCode() != 0) {
                throw failure(response.getErrorCode(), ApiError.fromErrorMessage(response));
            }
            return null;
        }, FlussErrors::isRetriable, refresh);
    }

    /** The one per-table answer a request about one table gets. */
    private static <T> T onlyAnswer(java.util.List<T> answers, String doing, TablePath path) {
        if (answers.size() != 1) {
            throw new IllegalStateException(doing + " the lake snapshot of " + path + " returned " + answers.size()
                    + " answers, expected 1");
        }
        return answers.get(0);
    }

    /**
     * A per-table error of a response as an exception; a code the 0.9.1 client does not know but
     * {@link FlussErrors} calls retriable (Fluss 1.0's) becomes a {@link RetriableCoordinatorException}.
     */
    private static Exception failure(int code, ApiError error) {
        if (FlussErrors.isRetriable(code) && !(error.exception() instanceof RetriableException)) {
            return new RetriableCoordinatorException("Coordinator error " + code + ": " + error.messageWithFallback());
        }
        return error.exception();
    }

    /** A retriable per-table error of a Fluss 1.0 coordinator, by its code. */
    static final class RetriableCoordinatorException extends RetriableException {
        RetriableCoordinatorException(String message) {
            super(message);
        }
    }

    private static void fill(PbHeartbeatReqForTable table, TieringLease lease, int coordinatorEpoch) {
        table.setTableId(lease.tableId()).setCoordinatorEpoch(coordinatorEpoch).setTieringEpoch(lease.tieringEpoch());
    }
}
