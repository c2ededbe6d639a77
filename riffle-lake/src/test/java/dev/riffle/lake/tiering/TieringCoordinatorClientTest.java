package dev.riffle.lake.tiering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.rpc.FlussErrors;
import dev.riffle.core.rpc.RetryPolicy;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.exception.NotLeaderOrFollowerException;
import org.apache.fluss.exception.TableNotExistException;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.rpc.gateway.CoordinatorGateway;
import org.apache.fluss.rpc.messages.CommitLakeTableSnapshotResponse;
import org.apache.fluss.rpc.messages.LakeTieringHeartbeatResponse;
import org.apache.fluss.rpc.messages.PrepareLakeTableSnapshotResponse;
import org.apache.fluss.rpc.protocol.ApiError;
import org.apache.fluss.rpc.protocol.Errors;
import org.junit.jupiter.api.Test;

/**
 * The tiering RPCs against a fault-injecting coordinator: a Fluss 1.0 standby's
 * NOT_COORDINATOR_LEADER (as the 0.9.1 client reports it, and as a per-table code), leader changes
 * and dropped connections are retried after a metadata refresh; other errors are not.
 */
class TieringCoordinatorClientTest {
    private static final TablePath PATH = TablePath.of("shop", "orders");
    private static final RetryPolicy QUICK = new RetryPolicy(5, Duration.ZERO, Duration.ZERO);

    /** A coordinator that answers each call with the next scripted answer, and counts calls by method. */
    private static final class ScriptedCoordinator {
        final Deque<Supplier<CompletableFuture<?>>> answers = new ArrayDeque<>();
        final List<String> calls = new ArrayList<>();
        final AtomicInteger refreshes = new AtomicInteger();

        ScriptedCoordinator then(Supplier<CompletableFuture<?>> answer) {
            answers.add(answer);
            return this;
        }

        TieringCoordinatorClient client() {
            CoordinatorGateway gateway = (CoordinatorGateway) Proxy.newProxyInstance(
                    CoordinatorGateway.class.getClassLoader(), new Class<?>[] {CoordinatorGateway.class},
                    (proxy, method, args) -> {
                        calls.add(method.getName());
                        if (answers.isEmpty()) {
                            throw new AssertionError("no answer scripted for call " + calls.size() + ": " + method);
                        }
                        return answers.poll().get();
                    });
            return new TieringCoordinatorClient(() -> gateway, refreshes::incrementAndGet, QUICK);
        }
    }

    /** What the 0.9.1 client's future fails with when a Fluss 1.0 standby coordinator answers. */
    private static CompletableFuture<?> standbyCoordinator() {
        return CompletableFuture.failedFuture(new ApiError(Errors.forCode(FlussErrors.NOT_COORDINATOR_LEADER),
                "The coordinator server is not the active leader").exception());
    }

    private static CompletableFuture<?> prepared(int errorCode) {
        PrepareLakeTableSnapshotResponse response = new PrepareLakeTableSnapshotResponse();
        var table = response.addPrepareLakeTableResp().setTableId(7);
        if (errorCode == 0) {
            table.setLakeTableOffsetsPath("remote/lake/7/offsets-3");
        } else {
            table.setErrorCode(errorCode).setErrorMessage("error " + errorCode);
        }
        return CompletableFuture.completedFuture(response);
    }

    private static CompletableFuture<?> committed(int errorCode) {
        CommitLakeTableSnapshotResponse response = new CommitLakeTableSnapshotResponse();
        var table = response.addTableResp().setTableId(7);
        if (errorCode != 0) {
            table.setErrorCode(errorCode).setErrorMessage("error " + errorCode);
        }
        return CompletableFuture.completedFuture(response);
    }

    @Test
    void prepareFindsTheActiveCoordinatorAfterAStandbyAndALeaderChange() throws Exception {
        ScriptedCoordinator coordinator = new ScriptedCoordinator()
                .then(TieringCoordinatorClientTest::standbyCoordinator)
                .then(() -> prepared(FlussErrors.NOT_COORDINATOR_LEADER))
                .then(() -> CompletableFuture.failedFuture(new NotLeaderOrFollowerException("moved")))
                .then(() -> prepared(0));
        String offsetsPath = coordinator.client().prepareSnapshot(7, PATH, Map.of(new TableBucket(7, 0), 100L));
        assertThat(offsetsPath).isEqualTo("remote/lake/7/offsets-3");
        assertThat(coordinator.calls).containsExactly("prepareLakeTableSnapshot", "prepareLakeTableSnapshot",
                "prepareLakeTableSnapshot", "prepareLakeTableSnapshot");
        assertThat(coordinator.refreshes).hasValue(3);
    }

    @Test
    void commitIsRetriedOnAStandbyAndOnADroppedConnection() throws Exception {
        ScriptedCoordinator coordinator = new ScriptedCoordinator()
                .then(() -> committed(FlussErrors.NOT_COORDINATOR_LEADER))
                .then(() -> CompletableFuture.failedFuture(new NetworkException("connection reset")))
                .then(() -> committed(0));
        coordinator.client().commitMissingSnapshot(7, PATH, 3, "remote/lake/7/offsets-3");
        assertThat(coordinator.calls).hasSize(3).containsOnly("commitLakeTableSnapshot");
        assertThat(coordinator.refreshes).hasValue(2);
    }

    @Test
    void heartbeatIsRetriedAfterAStandbyAnswered() throws Exception {
        ScriptedCoordinator coordinator = new ScriptedCoordinator()
                .then(TieringCoordinatorClientTest::standbyCoordinator)
                .then(() -> CompletableFuture.completedFuture(new LakeTieringHeartbeatResponse().setCoordinatorEpoch(4)));
        TieringCoordinatorClient.Heartbeat heartbeat = coordinator.client().heartbeat(3, Set.of(), Set.of(), Set.of(),
                true);
        assertThat(heartbeat.coordinatorEpoch()).isEqualTo(4);
        assertThat(heartbeat.assigned()).isEmpty();
        assertThat(coordinator.refreshes).hasValue(1);
    }

    @Test
    void errorsThatARetryCannotCureFailAtOnceWithTheCoordinatorsMessage() {
        ScriptedCoordinator coordinator = new ScriptedCoordinator()
                .then(() -> prepared(Errors.TABLE_NOT_EXIST.code()));
        assertThatThrownBy(() -> coordinator.client().prepareSnapshot(7, PATH, Map.of(new TableBucket(7, 0), 1L)))
                .isInstanceOf(TableNotExistException.class).hasMessageContaining("error " + Errors.TABLE_NOT_EXIST.code());
        assertThat(coordinator.calls).hasSize(1);
        assertThat(coordinator.refreshes).hasValue(0);
    }

    @Test
    void aCoordinatorThatStaysAStandbyFailsAfterTheLastAttempt() {
        ScriptedCoordinator coordinator = new ScriptedCoordinator();
        for (int i = 0; i < QUICK.attempts(); i++) {
            coordinator.then(() -> committed(FlussErrors.NOT_COORDINATOR_LEADER));
        }
        assertThatThrownBy(() -> coordinator.client().commitMissingSnapshot(7, PATH, 3, "offsets"))
                .hasMessageContaining("Coordinator error 65");
        assertThat(coordinator.calls).hasSize(QUICK.attempts());
    }
}
