package dev.riffle.core.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.exception.NotLeaderOrFollowerException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.exception.UnknownServerException;
import org.apache.fluss.rpc.protocol.ApiError;
import org.apache.fluss.rpc.protocol.Errors;
import org.junit.jupiter.api.Test;

class FlussErrorsTest {

    @Test
    void fluss10CodesThatTheClientDoesNotKnowAreRetriableByNumber() {
        // The 0.9.1 client has no names for these: its table maps them to an unknown server error.
        assertThat(Errors.forCode(FlussErrors.NOT_COORDINATOR_LEADER)).isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
        for (int code : new int[] {FlussErrors.NOT_COORDINATOR_LEADER, FlussErrors.DISK_WRITE_LOCKED,
            FlussErrors.STORAGE_BACKPRESSURE, FlussErrors.HISTORICAL_PARTITION_THROTTLED}) {
            assertThat(FlussErrors.isRetriable(code)).as("code %d", code).isTrue();
            assertThat(FlussErrors.isRetriableFetch(code)).as("fetch, code %d", code).isTrue();
        }
        // Fluss 1.0 codes that a retry does not cure.
        for (int code : new int[] {64, 66, 67, 68, 69, 71, 74}) {
            assertThat(FlussErrors.isRetriable(code)).as("code %d", code).isFalse();
        }
    }

    @Test
    void leaderChangesAreRetriedAndMissingTablesAreNot() {
        assertThat(FlussErrors.isRetriable(Errors.NOT_LEADER_OR_FOLLOWER.code())).isTrue();
        assertThat(FlussErrors.isRetriable(Errors.LEADER_NOT_AVAILABLE_EXCEPTION.code())).isTrue();
        assertThat(FlussErrors.isRetriable(Errors.NETWORK_EXCEPTION.code())).isTrue();
        assertThat(FlussErrors.isRetriable(Errors.NONE.code())).isFalse();
        assertThat(FlussErrors.isRetriable(Errors.TABLE_NOT_EXIST.code())).isFalse();
        assertThat(FlussErrors.isRetriable(Errors.AUTHORIZATION_EXCEPTION.code())).isFalse();

        assertThat(FlussErrors.isRetriableFetch(Errors.NOT_LEADER_OR_FOLLOWER.code())).isTrue();
        assertThat(FlussErrors.isRetriableFetch(Errors.FENCED_LEADER_EPOCH_EXCEPTION.code())).isTrue();
        assertThat(FlussErrors.isRetriableFetch(Errors.LOG_OFFSET_OUT_OF_RANGE_EXCEPTION.code())).isFalse();
        assertThat(FlussErrors.isRetriableFetch(Errors.AUTHORIZATION_EXCEPTION.code())).isFalse();
        // A corrupt record stays corrupt: the read reports it instead of fetching it forever.
        assertThat(FlussErrors.isRetriableFetch(Errors.CORRUPT_RECORD_EXCEPTION.code())).isFalse();
    }

    @Test
    void failuresAreJudgedInsideTheirFutureWrappers() {
        assertThat(FlussErrors.isRetriable(new CompletionException(new NotLeaderOrFollowerException("moved"))))
                .isTrue();
        assertThat(FlussErrors.isRetriable(new ExecutionException(new NetworkException("reset")))).isTrue();
        assertThat(FlussErrors.isRetriable(new CompletionException(new TableNotExistException("gone")))).isFalse();
        assertThat(FlussErrors.isRetriable(new IllegalStateException("a bug"))).isFalse();
        // What the 0.9.1 client's leaderFor throws while a bucket has no leader: worth a retry.
        assertThat(FlussErrors.isRetriable(new FlussRuntimeException(
                "Leader not found after retry  3 times for table bucket: TableBucket{tableId=3, bucket=0}"))).isTrue();
        assertThat(FlussErrors.isRetriable(new FlussRuntimeException("Failed to initialize the table"))).isFalse();
        // What the 0.9.1 client makes of a Fluss 1.0 standby coordinator's answer.
        Exception standby = new ApiError(Errors.forCode(FlussErrors.NOT_COORDINATOR_LEADER),
                "coordinator server is not the leader").exception();
        assertThat(standby).isInstanceOf(UnknownServerException.class);
        assertThat(FlussErrors.isRetriable(new CompletionException(standby))).isTrue();
    }
}
