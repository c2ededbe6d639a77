package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.messages.MetadataRequest;
import org.apache.fluss.rpc.messages.MetadataResponse;
import org.apache.fluss.rpc.messages.PbBucketMetadata;
import org.apache.fluss.rpc.messages.PbPartitionMetadata;
import org.apache.fluss.rpc.messages.PbTableMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, after a table is created, until the coordinator names a leader for each of its buckets.
 *
 * <p>Why: in Fluss 0.9.1 a tablet server that is asked for a table it has not cached yet reads the
 * table from ZooKeeper and caches what it read ({@code TabletServerMetadataProvider}). A client
 * that asks in the moment after the table is created, before its buckets have leaders, can make
 * the server cache "no leader" after the coordinator's update with the leaders was applied; the
 * server then answers "no leader" until the table changes again, and the client's writer waits
 * for a leader forever (its sends have no deadline). Asking the coordinator, whose answer comes
 * from its own state and is cached nowhere, until the leaders exist closes that window: a tablet
 * server that reads ZooKeeper after it finds them there.
 *
 * <p>It also tells when the leaders never come: Fluss 0.9.1's coordinator can miss a table's
 * creation altogether (apache/fluss#1018, fixed upstream by #2710: its ZooKeeper cache reports the
 * new table node already filled in, and the change event the coordinator waits for never fires),
 * and then never elects its leaders; {@link RetryingAdmin} creates such a table again.
 *
 * <pre>{@code
 * admin.createTable(path, descriptor, false).get();
 * TableReadiness.await(connection, path, Duration.ofSeconds(30), executor).get();
 * }</pre>
 */
public final class TableReadiness {
    private static final Logger LOG = LoggerFactory.getLogger(TableReadiness.class);
    private static final long POLL_MILLIS = 50;

    private TableReadiness() {}

    /**
     * Completes with true once every bucket of {@code path} has a leader in the coordinator's view
     * (a partitioned table at once: its buckets come with its partitions), or with false once
     * {@code timeout} has passed (with a warning).
     *
     * @param executor where the polls wait between tries (not an RPC thread)
     */
    public static CompletableFuture<Boolean> await(FlussConnection connection, TablePath path, Duration timeout,
            Executor executor) {
        return await(connection, path, Optional.empty(), timeout, executor);
    }

    /**
     * As {@link #await(FlussConnection, TablePath, Duration, Executor)}, for one partition of a
     * partitioned table (its name, as {@code admin.listPartitionInfos} gives it) when present: the
     * server caches a partition it reads from ZooKeeper the same way.
     */
    public static CompletableFuture<Boolean> await(FlussConnection connection, TablePath path,
            Optional<String> partition, Duration timeout, Executor executor) {
        requireNonNull(connection, "connection is null");
        requireNonNull(path, "path is null");
        requireNonNull(partition, "partition is null");
        requireNonNull(timeout, "timeout is null");
        requireNonNull(executor, "executor is null");
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        poll(connection, path, partition, System.nanoTime() + timeout.toNanos(), timeout, executor, ready);
        return ready;
    }

    private static void poll(FlussConnection connection, TablePath path, Optional<String> partition,
            long deadlineNanos, Duration timeout, Executor executor, CompletableFuture<Boolean> ready) {
        MetadataRequest request = new MetadataRequest();
        request.addTablePath().setDatabaseName(path.getDatabaseName()).setTableName(path.getTableName());
        partition.ifPresent(name -> request.addPartitionsPath().setDatabaseName(path.getDatabaseName())
                .setTableName(path.getTableName()).setPartitionName(name));
        CompletableFuture<MetadataResponse> answer;
        try {
            answer = connection.getMetadataUpdater().newCoordinatorServerClient().metadata(request);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((response, failure) -> {
            if (failure == null && (partition.isPresent() ? leadersKnown(response, partition.get())
                    : leadersKnown(response, path))) {
                ready.complete(true);
                return;
            }
            if (System.nanoTime() - deadlineNanos > 0) {
                LOG.warn("The buckets of {}{} have no leader {} s after it was created{}; writes to it wait until they do",
                        path, partition.map(name -> " partition " + name).orElse(""), timeout.toSeconds(),
                        failure == null ? "" : " (last answer: " + failure + ")");
                ready.complete(false);
                return;
            }
            CompletableFuture.delayedExecutor(POLL_MILLIS, TimeUnit.MILLISECONDS, executor)
                    .execute(() -> poll(connection, path, partition, deadlineNanos, timeout, executor, ready));
        });
    }

    /** Whether the answer holds the partition and a leader for each of its buckets. */
    static boolean leadersKnown(MetadataResponse response, String partition) {
        for (PbPartitionMetadata metadata : response.getPartitionMetadatasList()) {
            if (metadata.getPartitionName().equals(partition)) {
                return metadata.getBucketMetadatasCount() > 0 && allLed(metadata.getBucketMetadatasList());
            }
        }
        return false;
    }

    private static boolean allLed(java.util.List<PbBucketMetadata> buckets) {
        for (PbBucketMetadata bucket : buckets) {
            if (!bucket.hasLeaderId() || bucket.getLeaderId() < 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether the answer holds the table and a leader for each of its buckets. */
    static boolean leadersKnown(MetadataResponse response, TablePath path) {
        for (PbTableMetadata table : response.getTableMetadatasList()) {
            if (table.getTablePath().getDatabaseName().equals(path.getDatabaseName())
                    && table.getTablePath().getTableName().equals(path.getTableName())) {
                return allLed(table.getBucketMetadatasList());
            }
        }
        return false;
    }
}
