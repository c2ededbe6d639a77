package dev.riffle.core.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.exception.NotLeaderOrFollowerException;
import org.apache.fluss.exception.TableNotExistException;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private static final RetryPolicy QUICK = new RetryPolicy(4, Duration.ZERO, Duration.ZERO);

    @Test
    void retriableFailuresAreRetriedAfterARefreshUntilTheCallSucceeds() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger refreshes = new AtomicInteger();
        String answer = QUICK.call("look something up", () -> {
            if (calls.incrementAndGet() < 3) {
                throw new NotLeaderOrFollowerException("leader moved");
            }
            return "found";
        }, FlussErrors::isRetriable, refreshes::incrementAndGet);
        assertThat(answer).isEqualTo("found");
        assertThat(calls).hasValue(3);
        assertThat(refreshes).hasValue(2);
    }

    @Test
    void otherFailuresReachTheCallerAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger refreshes = new AtomicInteger();
        assertThatThrownBy(() -> QUICK.call("look something up", () -> {
            calls.incrementAndGet();
            throw new TableNotExistException("Table db.t does not exist");
        }, FlussErrors::isRetriable, refreshes::incrementAndGet))
                .isInstanceOf(TableNotExistException.class).hasMessageContaining("db.t");
        assertThat(calls).hasValue(1);
        assertThat(refreshes).hasValue(0);
    }

    @Test
    void theLastFailureReachesTheCallerWhenTheAttemptsAreUsedUp() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> QUICK.call("look something up", () -> {
            throw new NotLeaderOrFollowerException("attempt " + calls.incrementAndGet());
        }, FlussErrors::isRetriable, () -> {
            throw new IllegalStateException("the refresh failed too"); // logged; the retry goes ahead
        })).isInstanceOf(NotLeaderOrFollowerException.class).hasMessage("attempt 4");
        assertThat(calls).hasValue(4);
    }

    @Test
    void badPoliciesAreRefused() {
        assertThatThrownBy(() -> new RetryPolicy(0, Duration.ZERO, Duration.ZERO))
                .hasMessageContaining("attempts must be at least 1, got 0");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("0 <= first <= max");
    }
}
