package dev.riffle.core.rpc;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.exception.LeaderNotAvailableException;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connection's {@link Admin} whose read-only calls ({@code get*}, {@code list*},
 * {@code describe*}, {@code *Exists}) are retried after a metadata refresh when they fail in a way
 * a lost tablet server explains. Fluss 0.9.1's admin sends them to a random tablet server of the
 * cluster it cached, a stopped one included, without trying another, so a long-lived process
 * (the gateway, a {@code jdbc:riffle} connection, the tiering service) lost about one metadata
 * call in three after a tablet server stopped, until something refreshed its cluster. Calls that
 * change the cluster (create, drop, alter) go to the coordinator and are not retried: a retry of
 * one that succeeded unseen would fail as a duplicate.
 *
 * <pre>{@code
 * TableInfo info = RetryingAdmin.of(connection).getTableInfo(path).get();
 * }</pre>
 */
public final class RetryingAdmin {
    private static final Logger LOG = LoggerFactory.getLogger(RetryingAdmin.class);

    /**
     * Eight tries over about five seconds: each retry refreshes the cached cluster, and one refresh
     * that reaches a live server is enough for the calls after it.
     */
    public static final RetryPolicy POLICY = new RetryPolicy(8, Duration.ofMillis(100), Duration.ofSeconds(1));

    private static final Set<String> READ_PREFIXES = Set.of("get", "list", "describe");

    private RetryingAdmin() {}

    /**
     * The admin of {@code connection}, retrying its read-only calls; its {@code createTable} and
     * {@code createPartition} complete once the new buckets have leaders ({@link TableReadiness}),
     * so a write right after them does not meet Fluss 0.9.1's leaderless metadata.
     */
    public static Admin of(FlussConnection connection) {
        requireNonNull(connection, "connection is null");
        return proxy(connection.getOrCreateAdmin(),
                () -> connection.getMetadataUpdater().updateMetadata(Set.of(), Set.of(), Set.of()), POLICY,
                Optional.of(connection));
    }

    /**
     * How long a created table's call waits for its buckets' leaders before taking the creation for
     * lost (an election takes well under a second when the coordinator saw the table).
     */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(15);

    /**
     * @param refresh refreshes the cluster the admin routes by (blocking; runs on a retry's thread)
     */
    public static Admin wrap(Admin admin, RetryPolicy.Refresh refresh, RetryPolicy policy) {
        return proxy(admin, refresh, policy, Optional.empty());
    }

    /** @param readiness the connection whose coordinator says when a created table is ready, if any */
    private static Admin proxy(Admin admin, RetryPolicy.Refresh refresh, RetryPolicy policy,
            Optional<FlussConnection> readiness) {
        requireNonNull(admin, "admin is null");
        requireNonNull(refresh, "refresh is null");
        requireNonNull(policy, "policy is null");
        return (Admin) Proxy.newProxyInstance(Admin.class.getClassLoader(), new Class<?>[] {Admin.class},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return objectMethod(proxy, method, args);
                    }
                    if (!readOnly(method)) {
                        Object result = invoke(admin, method, args);
                        return readiness.isPresent() && result instanceof CompletableFuture<?> call
                                ? ready(readiness.get(), (Admin) proxy, admin, method, args, call) : result;
                    }
                    CompletableFuture<Object> answer = new CompletableFuture<>();
                    attempt(admin, method, args, refresh, policy, 1, policy.firstBackoff(), answer);
                    return answer;
                });
    }

    /**
     * A {@code createTable} or {@code createPartition} call that completes once the new buckets
     * have leaders ({@link TableReadiness}); any other call as it is.
     */
    private static CompletableFuture<?> ready(FlussConnection connection, Admin admin, Admin plain, Method method,
            Object[] args, CompletableFuture<?> call) {
        if (method.getName().equals("createTable") && args[0] instanceof TablePath path) {
            // Only a table this call created (not one that existed) may be dropped and created again.
            boolean created = args[1] instanceof TableDescriptor && Boolean.FALSE.equals(args[2]);
            return call.thenCompose(done -> TableReadiness.await(connection, path, READY_TIMEOUT, RetryThreads.now())
                    .thenCompose(ready -> ready || !created ? CompletableFuture.completedFuture(done)
                            : createdAgain(connection, plain, path, (TableDescriptor) args[1])
                                    .thenApply(again -> done)));
        }
        if (method.getName().equals("createPartition") && args[0] instanceof TablePath path
                && args[1] instanceof PartitionSpec spec) {
            return call.thenCompose(done -> admin.listPartitionInfos(path, spec)
                    .thenCompose(partitions -> CompletableFuture.allOf(partitions.stream()
                            .map(info -> TableReadiness.await(connection, path, Optional.of(info.getPartitionName()),
                                    READY_TIMEOUT, RetryThreads.now()))
                            .toArray(CompletableFuture[]::new)))
                    .thenApply(ready -> done));
        }
        return call;
    }

    /**
     * A table this call created whose buckets got no leader: the coordinator missed its creation
     * (apache/fluss#1018 in Fluss 0.9.1) and never will elect them, and nothing can have been
     * written to it. Dropped and created again, once, through {@code plain} (the admin without
     * this wrapper); the new table is waited for like the first. A second loss fails the call: the
     * table exists, but no write to it could ever complete, so answering success would hide that.
     */
    private static CompletableFuture<Boolean> createdAgain(FlussConnection connection, Admin admin, TablePath path,
            TableDescriptor descriptor) {
        LOG.warn("The coordinator elected no leaders for {} within {} of its creation (the lost creation event of"
                + " apache/fluss#1018); dropping it and creating it again", path, READY_TIMEOUT);
        return admin.dropTable(path, true)
                .thenCompose(dropped -> admin.createTable(path, descriptor, false))
                .thenCompose(created -> TableReadiness.await(connection, path, READY_TIMEOUT, RetryThreads.now()))
                .thenApply(ready -> {
                    if (!ready) {
                        throw new LeaderNotAvailableException(lostTwice(path));
                    }
                    return true;
                });
    }

    /** What a caller is told when a table's buckets got no leader after it was created twice. */
    private static String lostTwice(TablePath path) {
        return "Table " + path + " was created, but Fluss's coordinator elected no leaders for its buckets within "
                + READY_TIMEOUT.toSeconds() + " s, twice (it was dropped and created again once; apache/fluss#1018):"
                + " writes to it cannot complete. Restart the coordinator, or drop the table and create it again";
    }

    /** Whether a call only reads, returns a future, and so may be sent again. */
    static boolean readOnly(Method method) {
        if (method.getReturnType() != CompletableFuture.class) {
            return false;
        }
        String name = method.getName();
        return READ_PREFIXES.stream().anyMatch(prefix -> name.startsWith(prefix) && name.length() > prefix.length()
                && Character.isUpperCase(name.charAt(prefix.length()))) || name.endsWith("Exists");
    }

    @SuppressWarnings("unchecked")
    private static void attempt(Admin admin, Method method, Object[] args, RetryPolicy.Refresh refresh,
            RetryPolicy policy, int attempt, Duration backoff, CompletableFuture<Object> answer) {
        CompletableFuture<Object> call;
        try {
            call = (CompletableFuture<Object>) invoke(admin, method, args);
        } catch (Throwable e) {
            call = CompletableFuture.failedFuture(e);
        }
        call.whenComplete((value, failure) -> {
            if (failure == null) {
                answer.complete(value);
                return;
            }
            if (attempt >= policy.attempts() || !FlussErrors.isRetriable(failure)) {
                answer.completeExceptionally(failure);
                return;
            }
            LOG.info("Admin {} failed (attempt {} of {}): {}; retrying in {} ms with fresh metadata", method.getName(),
                    attempt, policy.attempts(), FlussErrors.unwrap(failure).toString(), backoff.toMillis());
            Executor later = RetryThreads.after(backoff);
            Duration next = policy.nextBackoff(backoff);
            later.execute(() -> {
                try {
                    refresh.run();
                } catch (Exception refreshFailed) {
                    LOG.debug("Metadata refresh before retrying admin {} failed", method.getName(), refreshFailed);
                }
                attempt(admin, method, args, refresh, policy, attempt + 1, next, answer);
            });
        });
    }

    private static Object invoke(Admin admin, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(admin, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static Object objectMethod(Object proxy, Method method, Object[] args) {
        return switch (method.getName()) {
            case "equals" -> proxy == args[0];
            case "hashCode" -> System.identityHashCode(proxy);
            default -> "RetryingAdmin";
        };
    }
}
