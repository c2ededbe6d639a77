package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.metadata.MetadataUpdater;
import org.apache.fluss.cluster.BucketLocation;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.rpc.gateway.TabletServerGateway;
import org.apache.fluss.rpc.messages.InitWriterRequest;
import org.apache.fluss.rpc.messages.PbProduceLogRespForBucket;
import org.apache.fluss.rpc.messages.ProduceLogRequest;
import org.apache.fluss.rpc.protocol.Errors;

/**
 * Fluss's writer RPCs for one log table, sent by Riffle itself: InitWriter (a writer id no other
 * writer has) and ProduceLog (one encoded log batch to a bucket's leader, {@code acks=all}), each
 * tried again after retriable failures ({@link FlussErrors}) until a deadline, the table's leaders
 * looked up anew between attempts. Sending the same bytes again is safe: the leader answers a
 * batch of an idempotent writer that it wrote already with that batch's offset.
 *
 * <pre>{@code
 * LogProducer producer = new LogProducer(connection, tableInfo);
 * long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
 * long offset = producer.produce(0, encodedBatch, deadline).join();
 * }</pre>
 */
public final class LogProducer {
    private static final int ACKS_ALL = -1;
    private static final Duration RETRY_BACKOFF = Duration.ofMillis(100);
    /** How long past a batch's deadline its last attempt's answer is awaited before it counts as lost. */
    private static final long ANSWER_MARGIN_MILLIS = 5_000;

    private final MetadataUpdater metadata;
    private final TableInfo table;

    public LogProducer(FlussConnection connection, TableInfo table) {
        this.metadata = requireNonNull(connection, "connection is null").getMetadataUpdater();
        this.table = requireNonNull(table, "table is null");
    }

    /**
     * A writer id from the cluster (InitWriter), which no other writer has; asked again after a
     * retriable failure (a tablet server going away) until {@code deadline} ({@link System#nanoTime}).
     */
    public long newWriterId(long deadline) {
        InitWriterRequest request = new InitWriterRequest();
        request.addTablePath().setDatabaseName(table.getTablePath().getDatabaseName())
                .setTableName(table.getTablePath().getTableName());
        while (true) {
            long remaining = millisLeft(deadline);
            try {
                return metadata.newRandomTabletServerClient().initWriter(request)
                        .get(remaining, TimeUnit.MILLISECONDS).getWriterId();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FlussRuntimeException("Interrupted while getting a writer id for " + table.getTablePath(), e);
            } catch (Exception e) {
                Throwable cause = FlussErrors.unwrap(e);
                if (!FlussErrors.isRetriable(cause) || !roomForRetry(deadline)) {
                    throw new FlussRuntimeException("Could not get a writer id for " + table.getTablePath() + ": "
                            + cause.getMessage(), cause);
                }
                try {
                    Thread.sleep(RETRY_BACKOFF.toMillis());
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new FlussRuntimeException("Interrupted while getting a writer id for " + table.getTablePath(),
                            interrupted);
                }
            }
        }
    }

    /**
     * Sends one encoded batch to {@code bucket}'s leader until it is written or {@code deadline}
     * ({@link System#nanoTime}) passes; its base offset. The same bytes go again after a retriable
     * failure: the leader answers a batch it wrote already with that batch's offset.
     */
    public CompletableFuture<Long> produce(int bucket, byte[] batch, long deadline) {
        TableBucket tableBucket = new TableBucket(table.getTableId(), bucket);
        TabletServerGateway leader = leader(tableBucket);
        CompletableFuture<Long> answer = leader == null
                ? CompletableFuture.failedFuture(new FlussRuntimeException("No leader known for " + tableBucket))
                : send(leader, bucket, batch, deadline);
        return answer.handle((offset, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(offset);
            }
            Throwable cause = FlussErrors.unwrap(failure);
            boolean retriable = leader == null || FlussErrors.isRetriable(cause)
                    || (cause instanceof ProduceError error && error.retriable());
            if (!retriable || !roomForRetry(deadline)) {
                return CompletableFuture.<Long>failedFuture(cause);
            }
            // A refresh waits for the coordinator: not on the Fluss client's thread that completed this answer.
            return CompletableFuture.runAsync(this::refreshMetadata, RetryThreads.after(RETRY_BACKOFF))
                    .thenCompose(ignored -> produce(bucket, batch, deadline));
        }).thenCompose(next -> next);
    }

    /**
     * Looks up the table's leaders anew (on a retry thread: it waits for the coordinator); fails
     * when the table at this path is gone or is another table now (dropped, or created again).
     */
    private void refreshMetadata() {
        try {
            metadata.updateTableOrPartitionMetadata(table.getTablePath(), null);
        } catch (RuntimeException e) {
            if (!FlussErrors.isRetriable(e)) {
                throw e;
            }
            return; // the coordinator is away for now: the next attempt finds no leader, and tries again
        }
        Optional<Long> current = metadata.getCluster().getTableId(table.getTablePath());
        if (current.isEmpty() || current.get() != table.getTableId()) {
            throw new TableNotExistException("Table " + table.getTablePath() + " (id " + table.getTableId() + ") was "
                    + (current.isEmpty() ? "dropped" : "dropped and created again (now id " + current.get() + ")")
                    + " while rows were being appended to it");
        }
    }

    /** The milliseconds until {@code deadline} ({@link System#nanoTime}), at least 1: an RPC's timeout. */
    private static long millisLeft(long deadline) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
    }

    /** Whether a retry after the backoff still starts before {@code deadline} ({@link System#nanoTime}). */
    private static boolean roomForRetry(long deadline) {
        return System.nanoTime() + RETRY_BACKOFF.toNanos() - deadline <= 0;
    }

    private TabletServerGateway leader(TableBucket bucket) {
        try {
            return metadata.getBucketLocation(bucket).map(BucketLocation::getLeader)
                    .map(metadata::newTabletServerClientForNode).orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private CompletableFuture<Long> send(TabletServerGateway leader, int bucket, byte[] batch, long deadline) {
        long remaining = millisLeft(deadline);
        ProduceLogRequest request = new ProduceLogRequest().setAcks(ACKS_ALL).setTableId(table.getTableId())
                .setTimeoutMs((int) Math.min(Integer.MAX_VALUE, remaining));
        request.addBucketsReq().setBucketId(bucket).setRecords(batch);
        // The client puts no timeout on a request of its own: an answer lost with its connection
        // would hold the bucket's queue forever.
        return leader.produceLog(request).orTimeout(remaining + ANSWER_MARGIN_MILLIS, TimeUnit.MILLISECONDS)
                .thenApply(response -> {
            if (response.getBucketsRespsCount() != 1) {
                throw new CompletionException(new FlussRuntimeException("The leader of bucket " + bucket + " of "
                        + table.getTablePath() + " answered " + response.getBucketsRespsCount() + " buckets"));
            }
            PbProduceLogRespForBucket answer = response.getBucketsRespAt(0);
            if (answer.hasErrorCode() && answer.getErrorCode() != Errors.NONE.code()
                    && answer.getErrorCode() != Errors.DUPLICATE_SEQUENCE_EXCEPTION.code()) {
                throw new CompletionException(new ProduceError(answer.getErrorCode(),
                        answer.hasErrorMessage() ? answer.getErrorMessage() : Errors.forCode(answer.getErrorCode())
                                .message(), bucket, table));
            }
            return answer.hasBaseOffset() ? answer.getBaseOffset() : -1L;
        });
    }

    /** A bucket's error in a ProduceLog answer. */
    static final class ProduceError extends FlussRuntimeException {
        private final int code;

        ProduceError(int code, String message, int bucket, TableInfo table) {
            super("Writing to bucket " + bucket + " of " + table.getTablePath() + " failed: " + message
                    + " (" + Errors.forCode(code).name() + ")");
            this.code = code;
        }

        /** Worth sending again: not an out-of-order sequence, which no retry of the same batch mends. */
        boolean retriable() {
            return code != Errors.OUT_OF_ORDER_SEQUENCE_EXCEPTION.code() && FlussErrors.isRetriable(code);
        }

        int code() {
            return code;
        }
    }
}
