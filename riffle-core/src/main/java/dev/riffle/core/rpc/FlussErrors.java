package dev.riffle.core.rpc;

import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.fluss.exception.ApiException;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.exception.RetriableException;
import org.apache.fluss.exception.UnknownServerException;
import org.apache.fluss.rpc.protocol.Errors;

/**
 * Which Fluss errors a caller may retry after refreshing its metadata, for the RPCs Riffle sends
 * itself (FetchLog, the tiering RPCs), across Fluss 0.9 and 1.0 servers.
 *
 * <p>Riffle builds on the 0.9.1 client, whose error table stops at code 63. Fluss 1.0 servers
 * answer with codes it does not know, among them {@link #NOT_COORDINATOR_LEADER} (a standby
 * coordinator of 1.0's coordinator high availability) and three backpressure codes. Where Riffle
 * reads a code itself (per-bucket and per-table codes inside a response) it sees them as numbers;
 * where the client turns a whole response's error into an exception, every unknown code becomes
 * an {@link UnknownServerException}, so that is retried too (a bounded number of times, see
 * {@link RetryPolicy}).
 */
public final class FlussErrors {
    /** Fluss 1.0: the coordinator asked is a standby; the active one is found through fresh metadata. */
    public static final int NOT_COORDINATOR_LEADER = 65;
    /** Fluss 1.0: a tablet server's disk is write-locked for now. */
    public static final int DISK_WRITE_LOCKED = 70;
    /** Fluss 1.0: a tablet server sheds load. */
    public static final int STORAGE_BACKPRESSURE = 72;
    /** Fluss 1.0: reads of old partitions are throttled. */
    public static final int HISTORICAL_PARTITION_THROTTLED = 73;

    private static final Set<Integer> FLUSS_10_RETRIABLE = Set.of(NOT_COORDINATOR_LEADER, DISK_WRITE_LOCKED,
            STORAGE_BACKPRESSURE, HISTORICAL_PARTITION_THROTTLED);

    /**
     * Errors of one bucket's FetchLog answer after which the bucket is fetched again once its
     * leader is looked up anew: leadership moved or is moving, the replica is busy, or the
     * server failed in a way it does not name.
     */
    private static final Set<Errors> FETCH_RETRIABLE = Set.of(Errors.NOT_LEADER_OR_FOLLOWER,
            Errors.LOG_STORAGE_EXCEPTION, Errors.STORAGE_EXCEPTION, Errors.FENCED_LEADER_EPOCH_EXCEPTION,
            Errors.UNKNOWN_TABLE_OR_BUCKET_EXCEPTION, Errors.UNKNOWN_SERVER_ERROR, Errors.LEADER_NOT_AVAILABLE_EXCEPTION,
            Errors.REQUEST_TIME_OUT, Errors.NETWORK_EXCEPTION);

    private FlussErrors() {}

    /** Whether an error code in a response is worth a retry after a metadata refresh. */
    public static boolean isRetriable(int code) {
        if (FLUSS_10_RETRIABLE.contains(code)) {
            return true;
        }
        Errors error = Errors.forCode(code);
        return error != Errors.NONE && error.exception("") instanceof RetriableException;
    }

    /**
     * Whether a bucket's FetchLog error code means: look up the leader again and fetch the same
     * offset (as opposed to a failure the read reports, such as an offset out of range).
     */
    public static boolean isRetriableFetch(int code) {
        return FLUSS_10_RETRIABLE.contains(code) || FETCH_RETRIABLE.contains(Errors.forCode(code));
    }

    /**
     * Whether a failed RPC is worth a retry after a metadata refresh: Fluss's retriable
     * exceptions (network failures, leader changes, timeouts), and the 0.9.1 client's
     * {@link UnknownServerException} for codes it does not know (Fluss 1.0's
     * {@link #NOT_COORDINATOR_LEADER} among them).
     */
    public static boolean isRetriable(Throwable failure) {
        // The client wraps what the server said (a future's exception, FlussRuntimeException around
        // a metadata refresh that failed): judge by the first Fluss API error underneath.
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 16; depth++, cause = cause.getCause()) {
            if (cause instanceof RetriableException || cause instanceof UnknownServerException
                    || isLeaderLookupFailure(cause)) {
                return true;
            }
            if (cause instanceof ApiException) {
                return false;
            }
        }
        return false;
    }

    /**
     * The 0.9.1 client's {@code MetadataUpdater.leaderFor} gives up on a bucket without a leader
     * (one being elected after its leader died) with a plain {@link FlussRuntimeException}, not a
     * retriable one; only its message tells it apart.
     */
    private static boolean isLeaderLookupFailure(Throwable failure) {
        return failure.getClass() == FlussRuntimeException.class && failure.getMessage() != null
                && failure.getMessage().startsWith(LEADER_NOT_FOUND);
    }

    private static final String LEADER_NOT_FOUND = "Leader not found after retry";

    /** The failure inside the wrappers that futures add. */
    public static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
