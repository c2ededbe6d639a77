package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.client.utils.ClientRpcMessageUtils;
import org.apache.fluss.cluster.BucketLocation;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.ListOffsetsResponse;
import org.apache.fluss.rpc.messages.PbListOffsetsRespForBucket;
import org.apache.fluss.rpc.protocol.Errors;

/**
 * Offsets of buckets asked of their leaders as the client's metadata already knows them. Fluss's
 * {@code Admin.listOffsets} looks the table's metadata up anew before every call: a second round
 * trip, which on a busy two-core machine was half of a Flight SQL scan's planning (about 10 ms of
 * 20). The caller looks the metadata up again and asks once more when a leader turns out to be
 * gone (the answer fails as retriable), as it does for the Admin's call.
 *
 * <pre>{@code
 * Optional<CompletableFuture<Map<Integer, Long>>> offsets =
 *         LeaderOffsets.list(connection.getMetadataUpdater(), tableId, Optional.empty(), List.of(0, 1), new OffsetSpec.EarliestSpec());
 * }</pre>
 */
public final class LeaderOffsets {
    private LeaderOffsets() {}

    /**
     * The offsets of {@code buckets} (of the table, or of one partition) by bucket number; empty
     * when the metadata does not know every bucket's leader and its server (ask the Admin, which
     * looks them up).
     */
    public static Optional<CompletableFuture<Map<Integer, Long>>> list(MetadataUpdater metadata, long tableId,
            Optional<Long> partitionId, List<Integer> buckets, OffsetSpec spec) {
        requireNonNull(metadata, "metadata is null");
        requireNonNull(partitionId, "partitionId is null");
        requireNonNull(buckets, "buckets is null");
        requireNonNull(spec, "spec is null");
        Map<Integer, List<Integer>> byLeader = new HashMap<>();
        for (int bucket : buckets) {
            Optional<Integer> leader = metadata.getBucketLocation(
                    new TableBucket(tableId, partitionId.orElse(null), bucket)).map(BucketLocation::getLeader);
            if (leader.isEmpty() || leader.get() < 0) {
                return Optional.empty();
            }
            byLeader.computeIfAbsent(leader.get(), id -> new ArrayList<>()).add(bucket);
        }
        List<CompletableFuture<ListOffsetsResponse>> answers = new ArrayList<>();
        for (Map.Entry<Integer, List<Integer>> leader : byLeader.entrySet()) {
            TabletServerGateway gateway = metadata.newTabletServerClientForNode(leader.getKey());
            if (gateway == null) {
                return Optional.empty();
            }
            answers.add(gateway.listOffsets(ClientRpcMessageUtils.makeListOffsetsRequest(tableId,
                    partitionId.orElse(null), leader.getValue(), spec)));
        }
        return Optional.of(CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<Integer, Long> offsets = new HashMap<>();
            for (CompletableFuture<ListOffsetsResponse> answer : answers) {
                for (PbListOffsetsRespForBucket bucket : answer.join().getBucketsRespsList()) {
                    if (bucket.hasErrorCode() && bucket.getErrorCode() != Errors.NONE.code()) {
                        throw Errors.forCode(bucket.getErrorCode()).exception(bucket.hasErrorMessage()
                                ? bucket.getErrorMessage() : null);
                    }
                    offsets.put(bucket.getBucketId(), bucket.getOffset());
                }
            }
            return offsets;
        }));
    }
}
