package dev.riffle.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.local.ProcessCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One gateway, never restarted, in front of a Fluss cluster of separate processes (coordinator
 * and three tablet servers, replication factor 3) while writes, lookups, bounded scans and SQL run
 * against it without pause: the leader of a bucket is killed with {@code kill -9} and started
 * again, then the coordinator is. Every acknowledged row is read back exactly once, no row comes
 * twice, no request fails that started 30 s or more after each kill (or restart), or ended
 * before it, and one that fails within those 30 s says so with 503 or 504 and an error envelope.
 */
class GatewayServerKillIT {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayServerKillIT.class);
    private static final Duration RECOVERY = Duration.ofSeconds(30);
    /** How long load runs past each recovery window, so that "no failure after 30 s" is tested, not assumed. */
    private static final Duration CHECKED = Duration.ofSeconds(10);
    private static final int BATCH = 20;

    private final ConcurrentLinkedQueue<Outcome> outcomes = new ConcurrentLinkedQueue<>();
    private final Map<Integer, Boolean> acknowledged = new ConcurrentHashMap<>();
    private final AtomicInteger nextBatch = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean(true);

    /** One request: what it was, when it started and ended (nanoTime), whether it succeeded, and why not. */
    private record Outcome(String operation, long startedNanos, long endedNanos, boolean ok, String detail) {}

    /** A span of time (nanoTime) in which requests may fail: 30 s from a kill or a restart (the coordinator: from its kill to 30 s after it is back). */
    private record Window(String what, long fromNanos, long toNanos) {
        /** Whether the request ran at any moment of the window: one in flight when a server dies may fail. */
        boolean covers(Outcome request) {
            return request.endedNanos() >= fromNanos && request.startedNanos() <= toNanos;
        }
    }

    @Test
    void requestsSucceedAgainWithin30sOfKillingALeaderAndTheCoordinator(@TempDir Path dataDir) throws Exception {
        try (ProcessCluster cluster = ProcessCluster.builder().dataDir(dataDir).tabletServers(3).start();
                Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                        .start()) {
            Api api = new Api(gateway);
            assertThat(api.postJson("/v1/databases", "{\"name\": \"kill\"}").status()).isEqualTo(201);
            create(api, "{\"name\": \"events\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}, "
                    + "{\"name\": \"batch\", \"type\": \"INT\"}], \"buckets\": 3}");
            create(api, "{\"name\": \"kv\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}, "
                    + "{\"name\": \"v\", \"type\": \"STRING\"}], \"primary_key\": [\"id\"], \"buckets\": 3}");

            List<Window> windows = new ArrayList<>();
            long began = System.nanoTime();
            List<Thread> load = List.of(
                    new Thread(() -> writeLoop(api), "load-writer"),
                    new Thread(() -> readLoop(api), "load-reader"));
            load.forEach(Thread::start);
            try {
                awaitAcknowledged(5);

                int leader = leaderOfBucketZero(cluster, TablePath.of("kill", "events"));
                long killed = System.nanoTime();
                LOG.info("Killing tablet server {} (process {}), the leader of events bucket 0", leader,
                        cluster.tabletServerPid(leader));
                cluster.killTabletServer(leader);
                // From the SIGKILL: the 30 s include the coordinator noticing the loss (ZooKeeper's session timeout).
                windows.add(new Window("tablet server " + leader + " killed", killed, killed + RECOVERY.toNanos()));
                runFor(RECOVERY.plus(CHECKED).minusNanos(System.nanoTime() - killed));

                long restarted = System.nanoTime();
                cluster.startTabletServer(leader);
                windows.add(new Window("tablet server " + leader + " restarted", restarted,
                        restarted + RECOVERY.toNanos()));
                runFor(CHECKED);

                long coordinatorKilled = System.nanoTime();
                LOG.info("Killing the coordinator");
                cluster.killCoordinator();
                runFor(Duration.ofSeconds(5));
                cluster.startCoordinator();
                windows.add(new Window("coordinator killed and restarted", coordinatorKilled,
                        System.nanoTime() + RECOVERY.toNanos()));
                runFor(RECOVERY.plus(CHECKED));
            } finally {
                running.set(false);
                for (Thread thread : load) {
                    thread.join(Duration.ofMinutes(3).toMillis());
                }
            }

            List<Outcome> all = List.copyOf(outcomes);
            Map<String, Long> okByOperation = all.stream().filter(Outcome::ok)
                    .collect(Collectors.groupingBy(Outcome::operation, Collectors.counting()));
            List<Outcome> failed = all.stream().filter(outcome -> !outcome.ok()).toList();
            LOG.info("Requests that succeeded: {}; failed: {} ({} inside the recovery windows)", okByOperation,
                    failed.size(), failed.stream().filter(f -> windows.stream().anyMatch(w -> w.covers(f)))
                            .count());
            assertThat(okByOperation).as("every kind of request ran").containsOnlyKeys("write", "lookup", "scan", "sql");
            // Read back first, so a failed request below also says whether acknowledged rows were lost.
            String readBack;
            try {
                assertReadBackExactlyOnce(api);
                readBack = "every acknowledged row read back once";
            } catch (AssertionError e) {
                readBack = "READ BACK FAILED: " + e.getMessage();
            }
            if (failed.stream().anyMatch(f -> windows.stream().noneMatch(w -> w.covers(f)))) {
                logLeadership(dataDir);
            }
            assertThat(failed.stream()
                    .filter(f -> windows.stream().noneMatch(w -> w.covers(f)))
                    .map(f -> f.operation() + " at +" + (f.startedNanos() - began) / 1_000_000 + ".."
                            + (f.endedNanos() - began) / 1_000_000 + " ms: " + f.detail())
                    .toList())
                    .as("requests that failed outside the %d s after a kill or restart (windows, ms from the start: %s;"
                            + " %s)", RECOVERY.toSeconds(), windows.stream().map(w -> w.what() + " "
                                    + (w.fromNanos() - began) / 1_000_000 + ".." + (w.toNanos() - began) / 1_000_000)
                                    .toList(), readBack)
                    .isEmpty();
            // Inside the windows too, a request either answers right or says "try again": never a
            // 500, never a 200 with fewer rows than were acknowledged.
            assertThat(failed.stream()
                    .filter(f -> windows.stream().anyMatch(w -> w.covers(f)))
                    .filter(f -> !(f.detail().startsWith("503 ") || f.detail().startsWith("504 "))
                            || !f.detail().contains("\"error\""))
                    .map(f -> f.operation() + " at +" + (f.startedNanos() - began) / 1_000_000 + ": " + f.detail())
                    .toList())
                    .as("requests inside the recovery windows that failed other than with 503/504 and an error")
                    .isEmpty();
            assertThat(readBack).isEqualTo("every acknowledged row read back once");
            assertThat(gateway.arrowAllocatedBytes()).as("Arrow memory the gateway still holds").isZero();
        }
    }

    /**
     * What the servers' logs say about leaders and in-sync replicas, for a request that failed
     * outside the recovery windows: a scan once stopped short of acknowledged rows 6 s after the
     * tables were created, no kill yet, and only the leadership history can tell why.
     */
    private static void logLeadership(Path dataDir) {
        StringBuilder history = new StringBuilder();
        try (var logs = Files.list(dataDir.resolve("logs"))) {
            for (Path log : logs.sorted().toList()) {
                List<String> lines = Files.readAllLines(log).stream()
                        .filter(line -> line.contains("LeaderAndIsr") || line.contains("leader") && line.contains("Bucket")
                                || line.contains("ISR") || line.contains(" ERROR "))
                        .limit(80).toList();
                history.append("\n--- ").append(log.getFileName()).append(" (").append(lines.size()).append(" lines)");
                lines.forEach(line -> history.append("\n").append(line.length() > 300 ? line.substring(0, 300) : line));
            }
        } catch (java.io.IOException e) {
            history.append("\n(could not read the server logs: ").append(e).append(')');
        }
        LOG.warn("Leadership history of the servers:{}", history);
    }

    private void create(Api api, String table) {
        Api.Response created = api.postJson("/v1/databases/kill/tables", table);
        assertThat(created.status()).as(created.text()).isEqualTo(201);
    }

    /** Appends 20 rows to the log table and upserts the same ids into the PK table; both acknowledged = batch acknowledged. */
    private void writeLoop(Api api) {
        while (running.get()) {
            int batch = nextBatch.getAndIncrement();
            StringBuilder events = new StringBuilder("[");
            StringBuilder kv = new StringBuilder("[");
            for (int i = 0; i < BATCH; i++) {
                int id = batch * BATCH + i;
                String comma = i == 0 ? "" : ",";
                events.append(comma).append("{\"id\": ").append(id).append(", \"batch\": ").append(batch).append('}');
                kv.append(comma).append("{\"id\": ").append(id).append(", \"v\": \"v").append(id).append("\"}");
            }
            boolean ok = record("write", () -> api.postJson("/v1/databases/kill/tables/events/rows", events + "]"),
                    response -> response.status() == 200)
                    && record("write", () -> api.postJson("/v1/databases/kill/tables/kv/rows", kv + "]"),
                    response -> response.status() == 200);
            if (ok) {
                acknowledged.put(batch, true);
            }
        }
    }

    private void readLoop(Api api) {
        while (running.get()) {
            List<Integer> batches = List.copyOf(acknowledged.keySet());
            if (batches.isEmpty()) {
                Thread.onSpinWait();
                continue;
            }
            int id = batches.get(ThreadLocalRandom.current().nextInt(batches.size())) * BATCH
                    + ThreadLocalRandom.current().nextInt(BATCH);
            record("lookup", () -> api.get("/v1/databases/kill/tables/kv/rows/" + id),
                    response -> response.status() == 200 && response.json().path("v").asText()
                            .equals("v" + id));
            record("scan", () -> api.postJson("/v1/databases/kill/tables/events/scan",
                    "{\"columns\": [\"id\"], \"limit\": 50}"),
                    // At least every acknowledged row (up to the limit); more when a batch being written
                    // is already visible, since a batch counts as acknowledged only once both tables took it.
                    response -> response.status() == 200
                            && response.json().get("rows").size() >= Math.min(50, batches.size() * BATCH)
                            && response.json().get("rows").size() <= 50);
            record("sql", () -> api.postJson("/v1/sql", "{\"sql\": \"SELECT count(*) AS n FROM kill.events\"}"),
                    response -> response.status() == 200
                            && response.json().get("rows").get(0).get("n").asLong() >= (long) batches.size() * BATCH);
        }
    }

    private boolean record(String operation, java.util.function.Supplier<Api.Response> request,
            java.util.function.Predicate<Api.Response> success) {
        long started = System.nanoTime();
        try {
            Api.Response response = request.get();
            boolean ok = success.test(response);
            outcomes.add(new Outcome(operation, started, System.nanoTime(), ok,
                    ok ? "" : response.status() + " " + rowCount(response) + clip(response.text())));
            return ok;
        } catch (RuntimeException e) {
            outcomes.add(new Outcome(operation, started, System.nanoTime(), false, e.toString()));
            return false;
        }
    }

    private void awaitAcknowledged(int batches) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (acknowledged.size() < batches) {
            assertThat(System.nanoTime()).as("%d batches acknowledged within 60 s", batches).isLessThan(deadline);
            Thread.sleep(50); // the writer thread's progress; nothing to await but its count
        }
    }

    private void runFor(Duration duration) throws InterruptedException {
        Thread.sleep(Math.max(0, duration.toMillis())); // the load threads run meanwhile; this is the length of the experiment
    }

    private static int leaderOfBucketZero(ProcessCluster cluster, TablePath path) throws Exception {
        try (FlussConnection connection = (FlussConnection) ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            long tableId = admin.getTableInfo(path).get().getTableId();
            connection.getMetadataUpdater().updateTableOrPartitionMetadata(path, null);
            return connection.getMetadataUpdater().getBucketLocation(new TableBucket(tableId, 0))
                    .orElseThrow(() -> new AssertionError("no location for bucket 0 of " + path))
                    .getLeader();
        }
    }

    /** Reads both tables back through the gateway: each acknowledged id once, no id twice. */
    private void assertReadBackExactlyOnce(Api api) {
        Map<Integer, Integer> seen = new HashMap<>();
        Api.Response scan = api.postJson("/v1/databases/kill/tables/events/scan", "{\"columns\": [\"id\"]}");
        assertThat(scan.status()).as(scan.text()).isEqualTo(200);
        for (JsonNode row : scan.json().get("rows")) {
            seen.merge(row.get("id").asInt(), 1, Integer::sum);
        }
        assertThat(seen.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList())
                .as("ids read more than once from the log table").isEmpty();
        List<Integer> expected = acknowledged.keySet().stream()
                .flatMap(batch -> java.util.stream.IntStream.range(batch * BATCH, batch * BATCH + BATCH).boxed())
                .sorted().toList();
        assertThat(expected).as("acknowledged rows").hasSizeGreaterThan(10 * BATCH);
        assertThat(expected.stream().filter(id -> !seen.containsKey(id)).toList())
                .as("acknowledged ids missing from the log table").isEmpty();

        Api.Response state = api.postJson("/v1/sql", "{\"sql\": \"SELECT id, v FROM kill.kv\"}");
        assertThat(state.status()).as(state.text()).isEqualTo(200);
        Map<Integer, String> current = new HashMap<>();
        for (JsonNode row : state.json().get("rows")) {
            assertThat(current.put(row.get("id").asInt(), row.get("v").asText())).as("key %s twice", row.get("id"))
                    .isNull();
        }
        assertThat(expected.stream().filter(id -> !("v" + id).equals(current.get(id))).toList())
                .as("acknowledged keys missing or wrong in the primary-key table").isEmpty();
    }

    /** How many rows an answer holds and what else it says, so a short answer says how short, and where it stopped. */
    private static String rowCount(Api.Response response) {
        try {
            if (!response.json().has("rows")) {
                return "";
            }
            com.fasterxml.jackson.databind.node.ObjectNode rest = response.json().deepCopy();
            rest.remove("rows");
            return "(" + response.json().get("rows").size() + " rows; " + rest + ") ";
        } catch (RuntimeException e) {
            return "";
        }
    }

    private static String clip(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
