package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidOffsetsException;
import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.core.rpc.ReplicaWatermarks;
import dev.riffle.core.rpc.RetryPolicy;
import dev.riffle.core.rpc.RetryingAdmin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.ListOffsetsResult;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;

/**
 * Turns start and stop specifications into offsets per bucket, asking the bucket leaders. A
 * leader that is gone (its request fails as retriable, or is not answered within
 * {@link #ATTEMPT_TIMEOUT_SECONDS}) is looked up anew and asked again, up to {@link #RETRY}'s
 * attempts: Fluss 0.9.1 sends the request to the leader its cached metadata names, even a stopped
 * tablet server, and does not look again by itself.
 */
final class OffsetsResolver {
    static final long ATTEMPT_TIMEOUT_SECONDS = 10;
    static final RetryPolicy RETRY = new RetryPolicy(4, Duration.ofMillis(200), Duration.ofSeconds(2));

    private final FlussConnection connection;
    private final Admin admin;
    private final TableInfo table;

    OffsetsResolver(FlussConnection connection, TableInfo table) {
        this.connection = requireNonNull(connection, "connection is null");
        this.admin = RetryingAdmin.of(connection);
        this.table = requireNonNull(table, "table is null");
    }

    Map<TableBucket, Long> start(StartingOffsets spec, List<ScopedBucket> scope) {
        if (spec instanceof StartingOffsets.AtTimestamp at) {
            return list(scope, new OffsetSpec.TimestampSpec(at.epochMillis()), "the start timestamp " + at.epochMillis());
        }
        if (spec instanceof StartingOffsets.Listed listed) {
            Map<TableBucket, Long> given = byBucket(listed.offsets(), scope, "start");
            for (ScopedBucket bucket : scope) {
                if (!given.containsKey(bucket.bucket())) {
                    throw new InvalidOffsetsException("No listed start offset for bucket " + bucket.ref() + " of "
                            + table.getTablePath() + ", which the read covers " + scopeRefs(scope));
                }
            }
            return given;
        }
        Map<TableBucket, Long> earliest = list(scope, new OffsetSpec.EarliestSpec(), "the earliest offsets");
        if (spec instanceof StartingOffsets.Explicit explicit) {
            Map<TableBucket, Long> given = byBucket(explicit.offsets(), scope, "start");
            Map<TableBucket, Long> result = new LinkedHashMap<>(earliest);
            given.forEach((bucket, offset) -> {
                long first = earliest.get(bucket);
                if (offset < first) {
                    throw new InvalidOffsetsException("Start offset " + offset + " for bucket " + describe(bucket, scope)
                            + " of " + table.getTablePath() + " is below the bucket's earliest offset " + first);
                }
                result.put(bucket, offset);
            });
            return result;
        }
        return earliest;
    }

    Map<TableBucket, Long> stop(StoppingOffsets spec, List<ScopedBucket> scope) {
        if (spec instanceof StoppingOffsets.AtTimestamp at) {
            return list(scope, new OffsetSpec.TimestampSpec(at.epochMillis()), "the stop timestamp " + at.epochMillis());
        }
        if (spec instanceof StoppingOffsets.Explicit explicit) {
            Map<TableBucket, Long> given = byBucket(explicit.offsets(), scope, "stop");
            for (ScopedBucket bucket : scope) {
                if (!given.containsKey(bucket.bucket())) {
                    throw new InvalidOffsetsException("No stop offset for bucket " + bucket.ref() + " of "
                            + table.getTablePath() + ", which the read covers; give one for every bucket read "
                            + scopeRefs(scope));
                }
            }
            return given;
        }
        // Whoever the client's metadata names may be a follower; see ReplicaWatermarks.
        return ReplicaWatermarks.raise(connection.getMetadataUpdater(),
                list(scope, new OffsetSpec.LatestSpec(), "the latest offsets"));
    }

    private Map<TableBucket, Long> byBucket(Map<BucketRef, Long> offsets, List<ScopedBucket> scope, String kind) {
        Map<BucketRef, TableBucket> known = new HashMap<>();
        scope.forEach(b -> known.put(b.ref(), b.bucket()));
        Map<TableBucket, Long> result = new LinkedHashMap<>();
        offsets.forEach((ref, offset) -> {
            TableBucket bucket = known.get(ref);
            if (bucket == null) {
                throw new InvalidOffsetsException("A " + kind + " offset is given for bucket " + ref + " of "
                        + table.getTablePath() + ", which the read does not cover; it covers " + scopeRefs(scope));
            }
            result.put(bucket, offset);
        });
        return result;
    }

    private Map<TableBucket, Long> list(List<ScopedBucket> scope, OffsetSpec spec, String what) {
        Map<Optional<String>, List<Integer>> byPartition = new LinkedHashMap<>();
        Map<Optional<String>, Long> partitionIds = new HashMap<>();
        for (ScopedBucket b : scope) {
            byPartition.computeIfAbsent(b.partitionName(), p -> new ArrayList<>()).add(b.bucket().getBucket());
            partitionIds.put(b.partitionName(), b.bucket().getPartitionId());
        }
        Map<TableBucket, Long> result = new LinkedHashMap<>();
        for (Map.Entry<Optional<String>, List<Integer>> entry : byPartition.entrySet()) {
            Long partitionId = partitionIds.get(entry.getKey());
            String where = table.getTablePath() + entry.getKey().map(p -> " partition " + p).orElse("");
            Map<Integer, Long> found;
            try {
                found = RETRY.call("list " + what + " of " + where, () -> {
                    ListOffsetsResult offsets = entry.getKey().isPresent()
                            ? admin.listOffsets(table.getTablePath(), entry.getKey().get(), entry.getValue(), spec)
                            : admin.listOffsets(table.getTablePath(), entry.getValue(), spec);
                    return offsets.all().get(ATTEMPT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                }, failure -> failure instanceof TimeoutException || FlussErrors.isRetriable(failure),
                        () -> connection.getMetadataUpdater().updateTableOrPartitionMetadata(table.getTablePath(),
                                partitionId));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while listing " + what + " of " + table.getTablePath());
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() == null ? e : e.getCause();
                if (FlussErrors.isRetriable(cause) && cause instanceof RuntimeException retriable) {
                    // The leader stayed unreachable through every try: the cluster's state, not the request's.
                    throw retriable;
                }
                throw new InvalidOffsetsException("Cannot list " + what + " of " + where + ": " + cause.getMessage(),
                        cause);
            } catch (TimeoutException e) {
                throw new ReadTimeoutException("Listing " + what + " of " + where + " timed out ("
                        + RETRY.attempts() + " tries of " + ATTEMPT_TIMEOUT_SECONDS + " s)");
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException("Listing " + what + " of " + where + " failed: " + e.getMessage(), e);
            }
            found.forEach((bucket, offset) ->
                    result.put(new TableBucket(table.getTableId(), partitionId, bucket), offset));
        }
        return result;
    }

    private static String describe(TableBucket bucket, List<ScopedBucket> scope) {
        return scope.stream().filter(b -> b.bucket().equals(bucket)).findFirst()
                .map(b -> b.ref().toString()).orElse(bucket.toString());
    }

    private static List<String> scopeRefs(List<ScopedBucket> scope) {
        return scope.stream().map(b -> b.ref().toString()).toList();
    }
}
