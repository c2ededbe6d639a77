package dev.riffle.core.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.exception.DatabaseNotExistException;
import org.apache.fluss.exception.NetworkException;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;

/**
 * {@link RetryingAdmin} over an admin that fails as Fluss 0.9.1's does when its random tablet
 * server is the stopped one: read-only calls succeed after refreshes, calls that change the
 * cluster are sent once, errors a retry cannot cure come back at once.
 */
class RetryingAdminTest {
    private static final RetryPolicy QUICK = new RetryPolicy(5, Duration.ZERO, Duration.ZERO);

    /** An admin whose first {@code failures} calls fail with {@code failure}; then it answers. */
    private static final class FlakyAdmin {
        final List<String> calls = new ArrayList<>();
        int failures;
        RuntimeException failure = new NetworkException("Disconnected from node 127.0.0.1:9124 (id: ts-1)");

        Admin admin() {
            return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
                    (proxy, method, args) -> {
                        calls.add(method.getName());
                        if (method.getName().equals("close")) {
                            return null;
                        }
                        if (failures > 0) {
                            failures--;
                            return CompletableFuture.failedFuture(failure);
                        }
                        return CompletableFuture.completedFuture(method.getName().equals("listTables")
                                ? List.of("orders") : null);
                    });
        }
    }

    @Test
    void readOnlyCallsAreRetriedAfterARefreshUntilTheyAnswer() throws Exception {
        FlakyAdmin flaky = new FlakyAdmin();
        flaky.failures = 3;
        AtomicInteger refreshes = new AtomicInteger();
        Admin admin = RetryingAdmin.wrap(flaky.admin(), refreshes::incrementAndGet, QUICK);
        assertThat(admin.listTables("shop").get(10, TimeUnit.SECONDS)).containsExactly("orders");
        assertThat(flaky.calls).containsExactly("listTables", "listTables", "listTables", "listTables");
        assertThat(refreshes).hasValue(3);
    }

    @Test
    void callsThatChangeTheClusterAreSentOnce() {
        FlakyAdmin flaky = new FlakyAdmin();
        flaky.failures = 1;
        AtomicInteger refreshes = new AtomicInteger();
        Admin admin = RetryingAdmin.wrap(flaky.admin(), refreshes::incrementAndGet, QUICK);
        assertThatThrownBy(() -> admin.createDatabase("shop", DatabaseDescriptor.EMPTY, false).get(10,
                TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class).hasCauseInstanceOf(NetworkException.class);
        assertThat(flaky.calls).containsExactly("createDatabase");
        assertThat(refreshes).hasValue(0);
    }

    @Test
    void errorsARetryCannotCureAndTheLastAttemptComeBackAsTheyAre() {
        FlakyAdmin missing = new FlakyAdmin();
        missing.failures = 1;
        missing.failure = new DatabaseNotExistException("Database shop does not exist");
        Admin admin = RetryingAdmin.wrap(missing.admin(), () -> { }, QUICK);
        assertThatThrownBy(() -> admin.getTableInfo(TablePath.of("shop", "orders")).get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(DatabaseNotExistException.class);
        assertThat(missing.calls).hasSize(1);

        FlakyAdmin gone = new FlakyAdmin();
        gone.failures = 100;
        Admin never = RetryingAdmin.wrap(gone.admin(), () -> { }, QUICK);
        assertThatThrownBy(() -> never.databaseExists("shop").get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(NetworkException.class);
        assertThat(gone.calls).hasSize(QUICK.attempts());
    }

    @Test
    void readOnlyMeansAQueryReturningAFuture() throws Exception {
        assertThat(RetryingAdmin.readOnly(Admin.class.getMethod("getTableInfo", TablePath.class))).isTrue();
        assertThat(RetryingAdmin.readOnly(Admin.class.getMethod("listDatabases"))).isTrue();
        assertThat(RetryingAdmin.readOnly(Admin.class.getMethod("databaseExists", String.class))).isTrue();
        assertThat(RetryingAdmin.readOnly(Admin.class.getMethod("dropTable", TablePath.class, boolean.class)))
                .isFalse();
        assertThat(RetryingAdmin.readOnly(Admin.class.getMethod("close"))).isFalse();
    }
}
