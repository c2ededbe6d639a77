package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Point lookups and repeated SQL point queries are taken on Jetty's selector thread
 * ({@code InlineAnswerConnectionFactory}); everything else on the same keep-alive connection must
 * still reach its route whole, on a pool thread, including requests the lookup handlers began and
 * then passed on: a lookup whose metadata is a second old, a SQL body that arrives in two parts, one sent only after
 * {@code 100 Continue}, a statement that is not a key lookup, a write between lookups, pipelined
 * lookups and a malformed request. One raw connection carries them all, in order, with a read
 * timeout, so a request stuck on the selector fails the test instead of hanging it; the gateway's
 * counters of requests taken on the selector and handed over tell which path each took.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class InlineAnswersIT {
    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void everyKindOfRequestOnOneConnectionIsAnsweredInOrder(Api api, org.apache.fluss.client.Connection connection,
            TestNames names) throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("kv"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"]");
        // Written with Fluss's client: a write through the gateway would leave the table's metadata
        // with the gateway, and the first lookup below is about a table it has not looked up yet.
        try (org.apache.fluss.client.table.Table fluss = connection.getTable(path)) {
            var writer = fluss.newUpsert().createWriter();
            writer.upsert(org.apache.fluss.row.GenericRow.of(1, org.apache.fluss.row.BinaryString.fromString("one")));
            writer.upsert(org.apache.fluss.row.GenericRow.of(2, org.apache.fluss.row.BinaryString.fromString("two")));
            writer.flush();
        }
        String table = path.getDatabaseName() + ".\"" + path.getTableName() + "\"";
        String query = "SELECT v FROM " + table + " WHERE id = ?";

        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            // A first request the connection does not answer itself makes it Jetty's, whose
            // selector path this test is about (DirectAnswersIT covers the connection's own).
            assertThat(http.send("GET /health", Map.of(), null).status()).isEqualTo(200);
            // The gateway has not looked up in this table yet: the selector hands the first lookup over.
            Selector before = selector();
            RawResponse found = http.send("GET " + tableUrl(path) + "/rows/1", Map.of(), null);
            assertThat(found.status()).as(found.text()).isEqualTo(200);
            assertThat(found.json().get("v").asText()).isEqualTo("one");
            RawResponse missing = http.send("GET " + tableUrl(path) + "/rows/7", Map.of(), null);
            assertThat(missing.status()).as(missing.text()).isEqualTo(404);
            assertThat(missing.json().get("error").get("code").asText()).isEqualTo("row_not_found");
            Selector after = selector();
            assertThat(after.taken() - before.taken()).as("lookups taken on the selector").isEqualTo(2);
            assertThat(after.handedOver() - before.handedOver()).as("handed over for metadata").isGreaterThanOrEqualTo(1);

            // Two lookups in one write (pipelined): two answers, in order.
            http.writeHead("GET " + tableUrl(path) + "/rows/2", Map.of());
            http.writeHead("GET " + tableUrl(path) + "/rows/1", Map.of());
            assertThat(http.read().json().get("v").asText()).isEqualTo("two");
            assertThat(http.read().json().get("v").asText()).isEqualTo("one");

            // Metadata older than a second: fetched on a pool thread, never on the selector.
            pause(1_100);
            before = selector();
            RawResponse later = http.send("GET " + tableUrl(path) + "/rows/2", Map.of(), null);
            assertThat(later.json().get("v").asText()).isEqualTo("two");
            assertThat(selector().handedOver() - before.handedOver()).as("handed over after a second").isEqualTo(1);

            // First run: the route plans it; from then on it is a known key lookup.
            assertThat(http.postJson("/v1/sql", sqlBody(query, "[1]")).json().get("rows").get(0).get("v").asText())
                    .isEqualTo("one");
            RawResponse repeated = http.postJson("/v1/sql", sqlBody(query, "[2]"));
            assertThat(repeated.status()).as(repeated.text()).isEqualTo(200);
            assertThat(repeated.json().get("rows").get(0).get("v").asText()).isEqualTo("two");

            // Half the body with the headers, the rest a moment later (Jetty dispatches once content
            // arrives: the handler sees part of it and must not wait for the rest on the selector).
            byte[] late = sqlBody(query, "[2]").getBytes(UTF_8);
            before = selector();
            http.writeHead("POST /v1/sql", Map.of("Content-Type", "application/json",
                    "Content-Length", String.valueOf(late.length)));
            http.writeBody(Arrays.copyOfRange(late, 0, late.length / 2));
            pause(300);
            http.writeBody(Arrays.copyOfRange(late, late.length / 2, late.length));
            RawResponse lateAnswer = http.read();
            assertThat(lateAnswer.status()).as(lateAnswer.text()).isEqualTo(200);
            assertThat(lateAnswer.json().get("rows").get(0).get("v").asText()).isEqualTo("two");
            assertThat(selector().handedOver() - before.handedOver()).as("handed over for its body").isEqualTo(1);

            // Expect: 100-continue: the body is sent only once the server asks for it (never on the selector).
            before = selector();
            http.writeHead("POST /v1/sql", Map.of("Content-Type", "application/json",
                    "Content-Length", String.valueOf(late.length), "Expect", "100-continue"));
            RawResponse proceed = http.read();
            assertThat(proceed.status()).isEqualTo(100);
            http.writeBody(late);
            RawResponse continued = http.read();
            assertThat(continued.status()).as(continued.text()).isEqualTo(200);
            assertThat(continued.json().get("rows").get(0).get("v").asText()).isEqualTo("two");
            assertThat(selector().taken()).as("not taken on the selector").isEqualTo(before.taken());

            // Not a key lookup, and a malformed body: read on the selector, answered by the route.
            before = selector();
            RawResponse counted = http.postJson("/v1/sql", sqlBody("SELECT count(*) AS n FROM " + table, null));
            assertThat(counted.status()).as(counted.text()).isEqualTo(200);
            assertThat(counted.json().get("rows").get(0).get("n").asLong()).isEqualTo(2);
            RawResponse malformed = http.postJson("/v1/sql", "{\"sql\": ");
            assertThat(malformed.status()).as(malformed.text()).isEqualTo(400);
            assertThat(malformed.json().get("error").get("code").asText()).isNotBlank();
            assertThat(selector().handedOver() - before.handedOver()).as("both handed over").isEqualTo(2);

            // A write between lookups, then the lookups see it.
            RawResponse written = http.postJson(tableUrl(path) + "/rows", "[{\"id\": 3, \"v\": \"three\"}]");
            assertThat(written.status()).as(written.text()).isEqualTo(200);
            RawResponse third = http.send("GET " + tableUrl(path) + "/rows/3", Map.of(), null);
            assertThat(third.status()).as(third.text()).isEqualTo(200);
            assertThat(third.json().get("v").asText()).isEqualTo("three");
            RawResponse sqlThird = http.postJson("/v1/sql", sqlBody(query, "[3]"));
            assertThat(sqlThird.json().get("rows").get(0).get("v").asText()).isEqualTo("three");

            // A malformed request: Jetty's 400 (then it closes the connection).
            http.writeHead("GET " + tableUrl(path) + "/rows/1", Map.of("Bad Header", "x"));
            assertThat(http.read().status()).isEqualTo(400);
        }
    }

    /**
     * Fluss blocks the thread that sends a lookup while its connection's lookup queue is full (a
     * tablet server that stopped answering under load), and the selector must never wait: each
     * lookup holds one of the queue's places from sending to answer, and a lookup that finds none
     * free on the selector is handed to a pool thread. With a queue of one place (held 50 ms by
     * each lookup, Fluss's batch window) and 16 clients looking up at once, many do; every lookup
     * and SQL point query is still answered, and the selector's counter of such hand-overs tells
     * they happened.
     */
    @Test
    void lookupsFindingNoRoomInFlussQueueAreHandedOver(LocalCluster cluster, Api shared, TestNames names)
            throws Exception {
        Configuration conf = cluster.clientConfig();
        conf.setString("client.lookup.queue-size", "1");
        conf.setString("client.lookup.batch-timeout", "50ms");
        try (Gateway tight = Gateway.builder().clientConfig(conf).host("127.0.0.1").port(0).start()) {
            api = new Api(tight);
            TablePath path = createTable(api, names.table("kv"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                    + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"]");
            assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"v\": \"one\"}, {\"id\": 2, \"v\": \"two\"}]")
                    .status()).isEqualTo(200);
            String query = "SELECT v FROM " + path.getDatabaseName() + ".\"" + path.getTableName() + "\" WHERE id = ?";
            assertThat(api.postJson("/v1/sql", sqlBody(query, "[1]")).status()).isEqualTo(200);
            long roomBefore = counter(api.get("/metrics").text(), "riffle_gateway_selector_handovers_queue_total");

            int clients = 16;
            int rounds = 20;
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            try {
                List<Future<Integer>> answered = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    answered.add(pool.submit(() -> {
                        int ok = 0;
                        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
                            for (int r = 0; r < rounds; r++) {
                                int id = 1 + r % 2;
                                String expected = id == 1 ? "one" : "two";
                                RawResponse found = http.send("GET " + tableUrl(path) + "/rows/" + id, Map.of(), null);
                                assertThat(found.status()).as(found.text()).isEqualTo(200);
                                assertThat(found.json().get("v").asText()).isEqualTo(expected);
                                RawResponse queried = http.postJson("/v1/sql", sqlBody(query, "[" + id + "]"));
                                assertThat(queried.status()).as(queried.text()).isEqualTo(200);
                                assertThat(queried.json().get("rows").get(0).get("v").asText()).isEqualTo(expected);
                                ok += 2;
                            }
                        }
                        return ok;
                    }));
                }
                int total = 0;
                for (Future<Integer> each : answered) {
                    total += each.get(120, TimeUnit.SECONDS);
                }
                assertThat(total).isEqualTo(clients * rounds * 2);
            } finally {
                pool.shutdownNow();
            }
            long room = counter(api.get("/metrics").text(), "riffle_gateway_selector_handovers_queue_total") - roomBefore;
            assertThat(room).as("lookups handed over for want of a place in the queue").isPositive();
        } finally {
            api = shared; // the tight gateway closed; the shared one is checked for Arrow memory
        }
    }

    /** The selector's counters in {@code /metrics}. */
    private record Selector(long taken, long handedOver) {}

    private Selector selector() {
        return selector(api);
    }

    private static Selector selector(Api api) {
        Api.Response metrics = api.get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        return new Selector(counter(metrics.text(), "riffle_gateway_selector_requests_total"),
                counter(metrics.text(), "riffle_gateway_selector_handovers_total"));
    }

    private static long counter(String metrics, String name) {
        for (String line : metrics.split("\n")) {
            if (line.startsWith(name + " ")) {
                return (long) Double.parseDouble(line.substring(line.indexOf(' ') + 1).trim());
            }
        }
        throw new AssertionError("No " + name + " in /metrics");
    }

    private static String sqlBody(String sql, String parameters) {
        return "{\"sql\": " + Api.JSON.valueToTree(sql) + (parameters == null ? "" : ", \"parameters\": " + parameters)
                + "}";
    }

    /** The stimulus of the test (time passing: a body that comes later, metadata that ages), not a wait for a condition. */
    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
