package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The gateway's connections answer plain point lookups themselves ({@code
 * DirectAnswerConnectionFactory}), before Jetty's request machinery: the answers must be the
 * route's (status, headers, body, error envelope, metrics), and every request they do not take
 * (or cannot read as the plainest HTTP/1.1) must reach Jetty whole and in order, with Jetty's
 * own answer to what is malformed. Raw connections with a read timeout, so a request lost
 * between the two fails the test instead of hanging it.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class DirectAnswersIT {
    private static final String DIRECT_METRIC = "riffle_gateway_direct_requests_total";
    private static final String ROUTE_METRIC = "riffle_gateway_requests_seconds_count{method=\"GET\","
            + "route=\"/v1/databases/{db}/tables/{table}/rows/{key}\",status=\"200\"}";

    private static final String NOT_FOUND_METRIC = "riffle_gateway_errors_total{code=\"row_not_found\","
            + "method=\"GET\",route=\"/v1/databases/{db}/tables/{table}/rows/{key}\"}";

    private Api api;
    private TablePath path;

    @BeforeEach
    void table(Api api, TestNames names) {
        this.api = api;
        path = createTable(api, names.table("kv"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"]");
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"v\": \"one\"}, {\"id\": 2, \"v\": \"two\"}]")
                .status()).isEqualTo(200);
    }

    @AfterEach
    void noArrowMemoryHeld() {
        api.assertNoArrowMemoryHeld();
    }

    /**
     * Each answer is compared with the Javalin route's answer to the same lookup, asked in a form
     * the connection leaves to Jetty (the key percent-encoded: {@code %31} is {@code 1}), on a
     * connection of its own.
     */
    @Test
    void answersAreTheRoutesAnswers() throws IOException {
        String unknown = "/v1/databases/" + path.getDatabaseName() + "/tables/no_such_table/rows/1";
        String[][] pairs = {
            {tableUrl(path) + "/rows/1", tableUrl(path) + "/rows/%31"},
            {tableUrl(path) + "/rows/7", tableUrl(path) + "/rows/%37"},
            {tableUrl(path) + "/rows/seven", tableUrl(path) + "/rows/sev%65n"},
            {unknown, unknown.replace("no_such_table", "no_such_t%61ble")}};
        double before = metric(ROUTE_METRIC);
        double notFoundBefore = metric(NOT_FOUND_METRIC);
        double directBefore = metric(DIRECT_METRIC);
        try (RawConnection direct = new RawConnection(URI.create(api.url()))) {
            for (String[] pair : pairs) {
                RawResponse answered = direct.send("GET " + pair[0], Map.of("Accept", "application/json"), null);
                RawResponse routes;
                try (RawConnection viaJetty = new RawConnection(URI.create(api.url()))) {
                    routes = viaJetty.send("GET " + pair[1], Map.of("Accept", "application/json"), null);
                }
                assertThat(answered.status()).as(pair[0] + ": " + answered.text()).isEqualTo(routes.status());
                assertThat(answered.text()).as(pair[0]).isEqualTo(routes.text());
                assertThat(answered.headers().get("content-type")).as(pair[0])
                        .isEqualTo(routes.headers().get("content-type"));
                assertThat(answered.headers()).as(pair[0]).containsKey("date");
                assertThat(answered.headers().keySet()).as(pair[0]).isSubsetOf(routes.headers().keySet());
            }
        }
        assertThat(metric(DIRECT_METRIC) - directBefore).as("answered by the connection").isEqualTo(pairs.length);
        // The direct and the Javalin answers of row 1 under the route, and each missing row as an
        // error of the route with its code (recorded once an answer is written, so awaited).
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(metric(ROUTE_METRIC) - before).isEqualTo(2);
            assertThat(metric(NOT_FOUND_METRIC) - notFoundBefore).isEqualTo(2);
        });
    }

    /**
     * Pipelined requests in one write: a lookup, a write (which the connection leaves to Jetty,
     * for good), and a lookup that sees the write: three answers, in order.
     */
    @Test
    void aRequestNoRouteTakesGoesToJettyWithWhatFollowsIt() throws IOException {
        double directBefore = metric(DIRECT_METRIC);
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            assertThat(http.send("GET " + tableUrl(path) + "/rows/2", Map.of(), null).json().get("v").asText())
                    .isEqualTo("two");
            String write = "[{\"id\": 3, \"v\": \"three\"}]";
            String host = "Host: " + URI.create(api.url()).getAuthority() + "\r\n";
            http.writeRaw("GET " + tableUrl(path) + "/rows/1 HTTP/1.1\r\n" + host + "\r\n"
                    + "POST " + tableUrl(path) + "/rows HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"
                    + "Content-Length: " + write.length() + "\r\n\r\n" + write
                    + "GET " + tableUrl(path) + "/rows/3 HTTP/1.1\r\n" + host + "\r\n");
            assertThat(http.read().json().get("v").asText()).isEqualTo("one");
            RawResponse written = http.read();
            assertThat(written.status()).as(written.text()).isEqualTo(200);
            RawResponse third = http.read();
            assertThat(third.status()).as(third.text()).isEqualTo(200);
            assertThat(third.json().get("v").asText()).isEqualTo("three");
        }
        assertThat(metric(DIRECT_METRIC) - directBefore).as("the lookups before the write").isEqualTo(2);
    }

    /**
     * Hundreds of pipelined lookups in one write, more than the connection reads at once: bad
     * keys are answered at once (on the thread that read them, one after another, not nested),
     * the others when Fluss answers; every answer comes, in order.
     */
    @Test
    void manyPipelinedLookupsAreAnsweredInOrder() throws Exception {
        String host = "Host: " + URI.create(api.url()).getAuthority() + "\r\n";
        String[] keys = {"1", "not-an-int", "2"};
        int requests = 600;
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < requests; i++) {
            all.append("GET ").append(tableUrl(path)).append("/rows/").append(keys[i % 3]).append(" HTTP/1.1\r\n")
                    .append(host).append("\r\n");
        }
        double directBefore = metric(DIRECT_METRIC);
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            // Written while the answers are read: the requests outgrow the sockets' buffers.
            Future<?> written = writer.submit(() -> {
                http.writeRaw(all.toString());
                return null;
            });
            for (int i = 0; i < requests; i++) {
                RawResponse answer = http.read();
                switch (i % 3) {
                    case 0 -> assertThat(answer.json().get("v").asText()).as("answer " + i).isEqualTo("one");
                    case 1 -> assertThat(answer.json().get("error").get("code").asText()).as("answer " + i)
                            .isEqualTo("invalid_key");
                    default -> assertThat(answer.json().get("v").asText()).as("answer " + i).isEqualTo("two");
                }
            }
            written.get(30, TimeUnit.SECONDS);
        } finally {
            writer.shutdownNow();
        }
        assertThat(metric(DIRECT_METRIC) - directBefore).isEqualTo(requests);
    }

    /**
     * Thousands of pipelined lookups answered at once (bad keys, in a table the gateway knows):
     * the connection answers them one after another in one loop, not in calls nested per answer
     * (which would overflow the stack).
     */
    @Test
    void thousandsOfAnswersMadeAtOnceAreAnsweredInOrder() throws Exception {
        String host = "Host: " + URI.create(api.url()).getAuthority() + "\r\n";
        int requests = 5_000;
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < requests; i++) {
            all.append("GET ").append(tableUrl(path)).append("/rows/x").append(i).append(" HTTP/1.1\r\n")
                    .append(host).append("\r\n");
        }
        ExecutorService writer = Executors.newSingleThreadExecutor();
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            assertThat(http.send("GET " + tableUrl(path) + "/rows/1", Map.of(), null).json().get("v").asText())
                    .isEqualTo("one");
            Future<?> written = writer.submit(() -> {
                http.writeRaw(all.toString());
                return null;
            });
            for (int i = 0; i < requests; i++) {
                RawResponse answer = http.read();
                assertThat(answer.status()).as("answer " + i).isEqualTo(400);
                assertThat(answer.json().get("error").get("message").asText()).as("answer " + i).contains("x" + i);
            }
            written.get(30, TimeUnit.SECONDS);
            assertThat(http.send("GET " + tableUrl(path) + "/rows/2", Map.of(), null).json().get("v").asText())
                    .isEqualTo("two");
        } finally {
            writer.shutdownNow();
        }
    }

    /**
     * A plain lookup, then in the same write a request the connection leaves to Jetty (lines
     * ended by a bare LF): both answered, and the connection still serves the next request.
     */
    @Test
    void aPipelinedRequestForJettyAfterALookupKeepsTheConnectionServing() throws IOException {
        String authority = URI.create(api.url()).getAuthority();
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("GET " + tableUrl(path) + "/rows/1 HTTP/1.1\r\nHost: " + authority + "\r\n\r\n"
                    + "GET " + tableUrl(path) + "/rows/2 HTTP/1.1\nHost: " + authority + "\n\n");
            assertThat(http.read().json().get("v").asText()).isEqualTo("one");
            assertThat(http.read().json().get("v").asText()).isEqualTo("two");
            assertThat(http.send("GET " + tableUrl(path) + "/rows/1", Map.of(), null).json().get("v").asText())
                    .isEqualTo("one");
        }
    }

    /**
     * Java's {@code HttpClient} asks for h2c on a connection's first request by default; the
     * gateway does not speak it, so the request is as plain as without the ask, and answered here.
     */
    @Test
    void anH2cUpgradeTheServerDoesNotSpeakIsAnsweredDirectly() throws IOException {
        double directBefore = metric(DIRECT_METRIC);
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            RawResponse found = http.send("GET " + tableUrl(path) + "/rows/1", Map.of("Connection",
                    "Upgrade, HTTP2-Settings", "Upgrade", "h2c", "HTTP2-Settings", "AAMAAABkAAQBAAAAAAIAAAAA"), null);
            assertThat(found.status()).as(found.text()).isEqualTo(200);
            assertThat(found.json().get("v").asText()).isEqualTo("one");
            assertThat(http.send("GET " + tableUrl(path) + "/rows/2", Map.of(), null).json().get("v").asText())
                    .isEqualTo("two");
        }
        assertThat(metric(DIRECT_METRIC) - directBefore).isEqualTo(2);
    }

    /** A head that arrives in pieces is read whole before it is answered. */
    @Test
    void aHeadInPiecesIsAnsweredOnceWhole() throws IOException, InterruptedException {
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("GET " + tableUrl(path) + "/ro");
            Thread.sleep(100); // the stimulus: the rest comes later
            http.writeRaw("ws/1 HTTP/1.1\r\nHost: " + URI.create(api.url()).getAuthority() + "\r");
            Thread.sleep(100);
            http.writeRaw("\n\r\n");
            RawResponse found = http.read();
            assertThat(found.status()).as(found.text()).isEqualTo(200);
            assertThat(found.json().get("v").asText()).isEqualTo("one");
        }
    }

    /** A client that stops sending after its request still gets the answer; then the connection ends. */
    @Test
    void aClientThatEndsItsSideGetsItsAnswer() throws IOException {
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeHead("GET " + tableUrl(path) + "/rows/2", Map.of());
            http.shutdownOutput();
            assertThat(http.read().json().get("v").asText()).isEqualTo("two");
            assertThat(http.closedByServer()).isTrue();
        }
    }

    /**
     * A client that sends lookups and never reads their answers holds its connection only until
     * the idle timeout: the answers it does not take stall the gateway's writes, and the gateway
     * closes the connection instead of holding it (and the answers) for as long as the client stays.
     */
    @Test
    void aClientThatNeverReadsIsClosedAtTheIdleTimeout(LocalCluster cluster) throws Exception {
        String value = "x".repeat(200_000);
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 3, \"v\": \"" + value + "\"}]").status())
                .isEqualTo(200);
        int requests = 100; // 20 MB of answers: far more than the two sockets' buffers hold
        try (Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                        .idleTimeout(Duration.ofSeconds(1)).start()) {
            // Warm: the table's metadata, handle and lookuper are ready, so the pipelined lookups
            // below are answered (and stall) within milliseconds of arriving.
            try (RawConnection warm = new RawConnection(URI.create(gateway.url()))) {
                assertThat(warm.send("GET " + tableUrl(path) + "/rows/3", Map.of(), null).json().get("v").asText())
                        .isEqualTo(value);
            }
            try (RawConnection http = RawConnection.withReceiveBuffer(URI.create(gateway.url()), 4096)) {
                for (int i = 0; i < requests; i++) {
                    http.writeHead("GET " + tableUrl(path) + "/rows/3", Map.of());
                }
                // The stimulus: the client reads nothing for three idle timeouts.
                Thread.sleep(3_000);
                String sent = new String(http.readToEnd(), StandardCharsets.ISO_8859_1);
                assertThat(sent).as("what the gateway sent before it closed the connection").startsWith("HTTP/1.1 200");
                int answers = sent.split("HTTP/1.1 200", -1).length - 1;
                assertThat(answers).as("answers begun before the connection was closed").isBetween(1, requests - 1);
            }
            assertThat(gateway.arrowAllocatedBytes()).isZero();
        }
    }

    /** What is not the plainest HTTP/1.1 is Jetty's to answer, as it always was. */
    @Test
    void whatIsNotPlainGetsJettysAnswer() throws IOException {
        String row = tableUrl(path) + "/rows/1";
        String authority = URI.create(api.url()).getAuthority();
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeHead("GET " + row, Map.of("X-Long", "x".repeat(9_000)));
            assertThat(http.read().status()).as("a head over Jetty's 8 KiB").isEqualTo(431);
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeHead("GET " + row, Map.of("Bad Header", "x"));
            assertThat(http.read().status()).as("a malformed header").isEqualTo(400);
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("GET " + row + " HTTP/1.1\r\n\r\n");
            assertThat(http.read().status()).as("HTTP/1.1 without Host").isEqualTo(400);
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            RawResponse closing = http.send("GET " + row, Map.of("Connection", "close"), null);
            assertThat(closing.json().get("v").asText()).isEqualTo("one");
            assertThat(closing.headers().get("connection")).isEqualTo("close");
            assertThat(http.closedByServer()).isTrue();
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("GET " + row + " HTTP/1.1\nHost: " + authority + "\n\n");
            assertThat(http.read().json().get("v").asText()).as("lines ended by a bare LF").isEqualTo("one");
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003");
            assertThat(http.read().status()).as("a TLS hello, answered at once").isEqualTo(400);
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("GET " + row + " HTTP/1.1\r\nHost: a b\r\n\r\n");
            assertThat(http.read().status()).as("a malformed Host").isEqualTo(400);
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("GET " + row + " HTTP/1.1\r\nHost: " + authority + "\r\nContent-Length: 3\r\n"
                    + "Content-Length: 30\r\n\r\nabc");
            assertThat(http.read().status()).as("two lengths").isEqualTo(400);
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("GET " + row + " HTTP/1.1\r\nHost: " + authority + "\r\nX-A: 1\r\n 2\r\n\r\n");
            assertThat(http.read().status()).as("a folded header").isEqualTo(400);
        }
        // A GET with a body that holds a request: the body is a body, whichever framing says so;
        // each request is answered once, in order.
        String inner = "GET " + tableUrl(path) + "/rows/2 HTTP/1.1\r\nHost: " + authority + "\r\n\r\n";
        String body = inner + "x".repeat(10);
        String[] framings = {"Content-Length: " + body.length() + "\r\n\r\n" + body,
            "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n"};
        for (String framing : framings) {
            try (RawConnection http = new RawConnection(URI.create(api.url()))) {
                http.writeRaw("GET " + row + " HTTP/1.1\r\nHost: " + authority + "\r\n" + framing
                        + "GET " + row + " HTTP/1.1\r\nHost: " + authority + "\r\n\r\n");
                String name = framing.substring(0, framing.indexOf(':'));
                assertThat(http.read().json().get("v").asText()).as(name + ": the request with the body")
                        .isEqualTo("one");
                assertThat(http.read().json().get("v").asText()).as(name + ": the request after it, not the body")
                        .isEqualTo("one");
            }
        }
        try (RawConnection http = new RawConnection(URI.create(api.url()))) {
            http.writeRaw("GET " + row + " HTTP/1.0\r\n\r\n");
            RawResponse old = http.read();
            assertThat(old.status()).as(old.text()).isEqualTo(200);
            assertThat(old.json().get("v").asText()).isEqualTo("one");
            assertThat(http.closedByServer()).isTrue();
        }
    }

    private double metric(String line) {
        for (String each : api.get("/metrics").text().split("\n")) {
            if (each.startsWith(line + " ")) {
                return Double.parseDouble(each.substring(line.length() + 1).trim());
            }
        }
        return 0;
    }
}
