package dev.riffle.cli.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.local.NetworkHosts;
import dev.riffle.local.ProcessCluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
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
 * Riffle across hosts: a Fluss cluster of a coordinator and three tablet servers, each a JVM on a
 * host of its own, and two {@code riffle serve} instances on two more hosts (network namespaces on
 * this machine, {@link NetworkHosts}). Nothing listens on loopback; every request crosses a link.
 * The instances are stateless: a scan paged alternately through both returns every row once, so
 * do the endpoints of one Flight SQL query fetched from both, and writes through one are read
 * through the other. Then a tablet server's link is cut while writes
 * and scans go on: every scan completes or fails with a retriable error (503 or 504), nothing
 * acknowledged is lost, and once the link is back every acknowledged row reads back once.
 */
class MultiHostIT {
    private static final Logger LOG = LoggerFactory.getLogger(MultiHostIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLES = "/v1/databases/hosts/tables";
    private static final Duration CUT = Duration.ofSeconds(25);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** An HTTP answer: its status and body. */
    private record Answer(int status, String body) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }
    }

    @Test
    void twoGatewaysOnHostsOfTheirOwnServeAClusterOnFourOthersThroughANetworkCut(@TempDir Path dataDir)
            throws Exception {
        try (NetworkHosts hosts = NetworkHosts.create("coordinator", "tablet-server-0", "tablet-server-1",
                "tablet-server-2", "gateway-a", "gateway-b");
                ProcessCluster cluster = ProcessCluster.builder().dataDir(dataDir).hosts(hosts).tabletServers(3)
                        .start();
                RiffleProcess a = RiffleProcess.serve(hosts, "gateway-a", cluster.bootstrapServers(), dataDir);
                RiffleProcess b = RiffleProcess.serve(hosts, "gateway-b", cluster.bootstrapServers(), dataDir)) {
            assertThat(cluster.bootstrapServers()).startsWith(hosts.address("coordinator") + ":");
            List<String> gateways = List.of(a.url(), b.url());

            created(post(a.url(), "/v1/databases", "{\"name\": \"hosts\"}"));
            created(post(a.url(), TABLES, "{\"name\": \"events\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}],"
                    + " \"buckets\": 3}"));
            created(post(b.url(), TABLES, "{\"name\": \"users\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}, "
                    + "{\"name\": \"name\", \"type\": \"STRING\"}], \"primary_key\": [\"id\"], \"buckets\": 3}"));

            // Writes through either instance; lookups and SQL through the other.
            for (int from = 0; from < 600; from += 100) {
                ok(post(gateways.get(from / 100 % 2), TABLES + "/events/rows", events(from, from + 100)));
            }
            ok(post(b.url(), TABLES + "/users/rows", "[{\"id\": 1, \"name\": \"one\"}, {\"id\": 2, \"name\": \"two\"}]"));
            assertThat(ok(get(a.url(), TABLES + "/users/rows/2")).json().get("name").asText()).isEqualTo("two");
            ok(post(a.url(), TABLES + "/users/rows", "[{\"id\": 2, \"name\": \"deux\"}]"));
            assertThat(ok(get(b.url(), TABLES + "/users/rows/2")).json().get("name").asText()).isEqualTo("deux");
            assertThat(ok(post(b.url(), "/v1/sql", "{\"sql\": \"SELECT count(*) AS n FROM hosts.events\"}")).json()
                    .get("rows").get(0).get("n").asLong()).isEqualTo(600);

            // A scan paged alternately through the two instances: page k from instance k % 2.
            List<Integer> paged = pagedScan(gateways, 70);
            assertThat(paged).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 600).boxed().toList());

            // One Flight SQL query, its endpoints fetched alternately from the two instances.
            List<Integer> flight = flightScanAcross(hosts, "SELECT id FROM hosts.events");
            assertThat(flight).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 600).boxed().toList());

            String victim = "tablet-server-" + leaderOfBucketZero(cluster);
            cutATabletServerDuringWritesAndScans(hosts, victim, a.url(), b.url(), gateways);
            LOG.info("Tablet servers running after the cut: {}", cluster.runningTabletServers());
        }
    }

    private void cutATabletServerDuringWritesAndScans(NetworkHosts hosts, String victim, String writer, String reader,
            List<String> gateways) throws Exception {
        Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 600).forEach(acknowledged::add);
        ConcurrentLinkedQueue<String> scanFailures = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> badScans = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> badWrites = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<String> log = new ConcurrentLinkedQueue<>();
        long began = System.nanoTime();
        AtomicInteger scans = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread writes20 = new Thread(() -> {
            for (int from = 600; running.get(); from += 20) {
                try {
                    long started = System.nanoTime();
                    Answer answer = post(writer, TABLES + "/events/rows", events(from, from + 20));
                    log.add("write at +" + (started - began) / 1_000_000 + " ms: " + answer.status() + " in "
                            + (System.nanoTime() - started) / 1_000_000 + " ms");
                    if (answer.status() == 200) {
                        IntStream.range(from, from + 20).forEach(acknowledged::add);
                    } else if (!((answer.status() == 503 || answer.status() == 504) && answer.body().contains("\"error\""))) {
                        badWrites.add(answer.status() + ": " + answer.body());
                    }
                } catch (AssertionError e) {
                    LOG.info("A write got no answer: {}", e.getMessage()); // not acknowledged, so not checked
                }
                writes.incrementAndGet();
            }
        }, "writer");
        Thread scanner = new Thread(() -> {
            while (running.get()) {
                int before = acknowledged.size();
                long started = System.nanoTime();
                Answer answer;
                try {
                    answer = post(reader, TABLES + "/events/scan", "{\"columns\": [\"id\"]}");
                } catch (AssertionError e) {
                    badScans.add("no answer: " + e.getMessage());
                    continue;
                } finally {
                    scans.incrementAndGet();
                }
                String took = (System.nanoTime() - started) / 1_000_000 + " ms";
                log.add("scan at +" + (started - began) / 1_000_000 + " ms: " + answer.status() + " in " + took);
                if (answer.status() == 200) {
                    int rows = answer.json().get("rows").size();
                    if (rows < before) {
                        badScans.add("200 with " + rows + " rows, " + before + " acknowledged before it, in " + took);
                    }
                } else if ((answer.status() == 503 || answer.status() == 504) && answer.json().has("error")) {
                    scanFailures.add(answer.status() + " " + answer.json().path("error").path("code").asText()
                            + " in " + took);
                } else {
                    badScans.add(answer.status() + " in " + took + ": " + answer.body());
                }
            }
        }, "scanner");
        writes20.start();
        scanner.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> writes.get() >= 3 && scans.get() >= 3);
            log.add("cut " + victim + " at +" + (System.nanoTime() - began) / 1_000_000 + " ms");
            hosts.cut(victim);
            assertThat(answers(hosts.address(victim))).as("%s answers while its link is cut", victim).isFalse();
            Thread.sleep(CUT.toMillis()); // the cut lasts this long while load runs; nothing to await
            hosts.restore(victim);
            assertThat(answers(hosts.address(victim))).as("%s answers once its link is back", victim).isTrue();
            log.add("restored at +" + (System.nanoTime() - began) / 1_000_000 + " ms");
            // Until reads after the cut see writes after it: both instances answer again.
            int written = acknowledged.size();
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                    .until(() -> acknowledged.size() > written + 40 && readBack(gateways.get(1)).size()
                            >= written + 40);
        } finally {
            running.set(false);
            writes20.join(Duration.ofMinutes(3).toMillis());
            scanner.join(Duration.ofMinutes(3).toMillis());
        }
        LOG.info("During and after the cut of {}: {} writes, {} scans, retriable scan failures {}; in order: {}",
                victim, writes.get(), scans.get(), scanFailures, log);
        assertThat(badScans).as("scans that neither completed nor failed with 503/504 and an error envelope")
                .isEmpty();
        assertThat(badWrites).as("writes that neither succeeded nor failed with 503/504 and an error envelope")
                .isEmpty();
        for (String gateway : gateways) {
            List<Integer> ids = readBack(gateway);
            assertThat(ids).as("ids read twice through %s", gateway).doesNotHaveDuplicates();
            assertThat(acknowledged.stream().filter(id -> !ids.contains(id)).sorted().toList())
                    .as("acknowledged ids missing through %s", gateway).isEmpty();
        }
    }

    private List<Integer> readBack(String gateway) {
        Answer scan = ok(post(gateway, TABLES + "/events/scan", "{\"columns\": [\"id\"]}"));
        List<Integer> ids = new ArrayList<>();
        scan.json().get("rows").forEach(row -> ids.add(row.get("id").asInt()));
        return ids;
    }

    /** Runs a query through gateway-a's Flight SQL and fetches endpoint k from gateway-a or gateway-b by k's parity. */
    private static List<Integer> flightScanAcross(NetworkHosts hosts, String sql) throws Exception {
        List<Integer> ids = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient first = FlightClient.builder(allocator,
                        Location.forGrpcInsecure(hosts.address("gateway-a"), RiffleProcess.FLIGHT_PORT)).build();
                FlightClient second = FlightClient.builder(allocator,
                        Location.forGrpcInsecure(hosts.address("gateway-b"), RiffleProcess.FLIGHT_PORT)).build()) {
            FlightInfo info = new FlightSqlClient(first).execute(sql);
            assertThat(info.getEndpoints()).as("endpoints of the query").hasSizeGreaterThan(1);
            for (int i = 0; i < info.getEndpoints().size(); i++) {
                try (FlightStream stream = (i % 2 == 0 ? first : second).getStream(info.getEndpoints().get(i)
                        .getTicket())) {
                    while (stream.next()) {
                        IntVector id = (IntVector) stream.getRoot().getVector("id");
                        for (int row = 0; row < stream.getRoot().getRowCount(); row++) {
                            ids.add(id.get(row));
                        }
                    }
                }
            }
        }
        return ids;
    }

    private List<Integer> pagedScan(List<String> gateways, int pageSize) {
        List<Integer> seen = new ArrayList<>();
        ObjectNode request = JSON.createObjectNode().put("limit", pageSize);
        JsonNode until = null;
        for (int page = 0; ; page++) {
            String gateway = gateways.get(page % 2);
            JsonNode answer = ok(post(gateway, TABLES + "/events/scan", request.toString())).json();
            answer.get("rows").forEach(row -> seen.add(row.get("id").asInt()));
            if (until == null) {
                until = answer.get("until");
            }
            if (answer.get("done").asBoolean()) {
                assertThat(page).as("pages").isGreaterThanOrEqualTo(8);
                return seen;
            }
            request.set("from", JSON.createObjectNode().set("offsets", answer.get("next")));
            request.set("until", JSON.createObjectNode().set("offsets", until));
        }
    }

    /**
     * Whether a host answers at all: a closed port of a reachable host refuses at once, a host
     * whose link is cut does not answer within the timeout.
     */
    private static boolean answers(String address) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, 9), 2000);
            return true;
        } catch (SocketTimeoutException | NoRouteToHostException e) {
            return false;
        } catch (IOException e) {
            return true; // refused (or reset): something answered
        }
    }

    private static int leaderOfBucketZero(ProcessCluster cluster) throws Exception {
        try (FlussConnection connection = (FlussConnection) ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            TablePath path = TablePath.of("hosts", "events");
            long tableId = admin.getTableInfo(path).get().getTableId();
            connection.getMetadataUpdater().updateTableOrPartitionMetadata(path, null);
            return connection.getMetadataUpdater().getBucketLocation(new TableBucket(tableId, 0))
                    .orElseThrow(() -> new AssertionError("no location for bucket 0 of " + path)).getLeader();
        }
    }

    private static String events(int from, int to) {
        StringBuilder rows = new StringBuilder("[");
        for (int id = from; id < to; id++) {
            rows.append(id == from ? "" : ",").append("{\"id\": ").append(id).append('}');
        }
        return rows.append(']').toString();
    }

    private Answer post(String gateway, String path, String body) {
        return send(HttpRequest.newBuilder(URI.create(gateway + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private Answer get(String gateway, String path) {
        return send(HttpRequest.newBuilder(URI.create(gateway + path)).GET());
    }

    private Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(150)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new AssertionError("request failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static Answer ok(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        return answer;
    }

    private static void created(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    }
}
