package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.ListOffsetsRequest;
import org.apache.fluss.rpc.messages.ListOffsetsResponse;
import org.apache.fluss.rpc.messages.PbListOffsetsRespForBucket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The highest high watermark that any live replica of a bucket reports.
 *
 * <p>A Fluss 0.9.1 tablet server answers a client's ListOffsets(LATEST) from its own replica of the
 * bucket without checking that it leads it, and a follower's high watermark trails the leader's
 * by a fetch round. A client whose metadata names a follower (or a leader that just lost the
 * role) therefore gets a stop offset below rows already acknowledged with {@code acks=all}, and a
 * bounded read that promised "everything written before it started" would miss them. Every
 * replica's high watermark is committed data, so the highest one any replica reports is a stop
 * offset the leader can serve, and at least what the true leader reports: asking every replica
 * makes the answer independent of whom the client's metadata names.
 *
 * <p>Only the replicas that answer within {@link #WAIT} count; one that is down or slow is left
 * out (the leader's answer, which the caller already has and insists on, stands).
 *
 * <pre>{@code
 * Map<TableBucket, Long> stops = ReplicaWatermarks.raise(connection.getMetadataUpdater(), leadersAnswers);
 * }</pre>
 */
public final class ReplicaWatermarks {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaWatermarks.class);
    static final Duration WAIT = Duration.ofSeconds(2);

    private ReplicaWatermarks() {}

    /** One ListOffsets in flight: the table and partition it names (its answer names buckets by number only). */
    private record Asked(long tableId, Long partitionId, CompletableFuture<ListOffsetsResponse> answer) {}

    /**
     * Raises each offset in {@code latest} (the leaders' answers, by bucket) to the highest high
     * watermark a replica of that bucket reports, and returns the raised offsets.
     */
    public static Map<TableBucket, Long> raise(MetadataUpdater metadata, Map<TableBucket, Long> latest) {
        requireNonNull(metadata, "metadata is null");
        requireNonNull(latest, "latest is null");
        Map<Integer, List<TableBucket>> byServer = new HashMap<>();
        for (TableBucket bucket : latest.keySet()) {
            metadata.getBucketLocation(bucket).ifPresent(location -> {
                if (location.getReplicas().length < 2) {
                    return; // its one replica is the leader that answered
                }
                for (int replica : location.getReplicas()) {
                    byServer.computeIfAbsent(replica, id -> new ArrayList<>()).add(bucket);
                }
            });
        }
        List<Asked> asked = new ArrayList<>();
        byServer.forEach((server, buckets) -> {
            TabletServerGateway gateway = metadata.newTabletServerClientForNode(server);
            if (gateway == null) {
                return; // not among the live servers the client knows
            }
            // A ListOffsets request names one table and one partition.
            Map<Optional<Long>, List<TableBucket>> byPartition = new HashMap<>();
            for (TableBucket bucket : buckets) {
                byPartition.computeIfAbsent(Optional.ofNullable(bucket.getPartitionId()), p -> new ArrayList<>())
                        .add(bucket);
            }
            byPartition.forEach((partition, partitionBuckets) -> {
                long tableId = partitionBuckets.get(0).getTableId();
                ListOffsetsRequest request = new ListOffsetsRequest()
                        .setFollowerServerId(-1) // as a client: the replica's high watermark, not its log end
                        .setTableId(tableId)
                        .setOffsetType(OffsetSpec.LIST_LATEST_OFFSET)
                        .setBucketIds(partitionBuckets.stream().mapToInt(TableBucket::getBucket).toArray());
                partition.ifPresent(request::setPartitionId);
                asked.add(new Asked(tableId, partition.orElse(null), gateway.listOffsets(request)));
            });
        });
        Map<TableBucket, Long> raised = new HashMap<>(latest);
        long deadline = System.nanoTime() + WAIT.toNanos();
        for (Asked request : asked) {
            ListOffsetsResponse response;
            try {
                response = request.answer().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while asking the replicas for their high watermarks");
            } catch (ExecutionException | TimeoutException e) {
                LOG.debug("A replica did not tell its high watermark in time: {}", e.toString());
                continue;
            }
            for (PbListOffsetsRespForBucket answer : response.getBucketsRespsList()) {
                if (answer.hasErrorCode()) {
                    continue;
                }
                TableBucket bucket = new TableBucket(request.tableId(), request.partitionId(), answer.getBucketId());
                raised.computeIfPresent(bucket, (b, offset) -> {
                    if (answer.getOffset() > offset) {
                        // Mostly a write committed between the two questions; debug, not info, for that.
                        LOG.debug("Bucket {}: a replica reports high watermark {} above the {} its leader's answer"
                                + " gave; the read stops at {}", bucket, answer.getOffset(), offset, answer.getOffset());
                        return answer.getOffset();
                    }
                    return offset;
                });
            }
        }
        return raised;
    }
}
