package dev.riffle.gateway;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.sql.statement.StatementLimits;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code POST /v1/sql} with a statement that would run for hours (a cross join of three 2,000-row
 * tables under an aggregate): it answers 504 {@code statement_timeout} at the gateway's statement
 * timeout, 413 {@code statement_budget_exceeded} at a budget, 499 {@code statement_cancelled} when an
 * operator cancels it through {@code /v1/statements}; a client that hangs up stops it; {@code /metrics}
 * shows it while it runs; and the gateway's threads go back to idle after each.
 */
@ExtendWith(LocalClusterExtension.class)
class RunawayStatementsIT {
    static final String CROSS_COUNT = "SELECT count(*) FROM %1$s a, %1$s b, %1$s c";
    /** The cross join whose condition no row meets: only a deadline or a cancel stops it. */
    static final String CROSS_NOTHING = CROSS_COUNT + " WHERE a.id + b.id + c.id < 0";

    @Test
    void aStatementStopsAtTheStatementTimeoutAndTheGatewayGoesIdle(LocalCluster cluster, TestNames names)
            throws Exception {
        try (Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .statementTimeout(Duration.ofSeconds(2)).start()) {
            Api api = new Api(gateway);
            String t = table(api, names, 2_000);
            long started = System.nanoTime();
            Api.Response response = api.postJson("/v1/sql", sql(String.format(CROSS_NOTHING, t)));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(response.status()).as(response.text()).isEqualTo(504);
            assertThat(response.errorCode()).isEqualTo("statement_timeout");
            assertThat(response.errorMessage()).contains("canceling statement due to statement timeout: it ran for 2 s");
            assertThat(millis).as("ms until the 2 s statement timeout answered").isBetween(1_900L, 3_000L);
            assertThreadsIdleWithin("riffle-gateway-http", Duration.ofSeconds(2));
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void aClientThatHangsUpStopsItsStatement(LocalCluster cluster, TestNames names) throws Exception {
        try (Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .start()) {
            Api api = new Api(gateway);
            String t = table(api, names, 2_000);
            byte[] body = sql(String.format(CROSS_NOTHING, t)).getBytes(UTF_8);
            long gone;
            try (Socket socket = new Socket("127.0.0.1", gateway.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/sql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n").getBytes(UTF_8));
                out.write(body);
                out.flush();
                await().atMost(Duration.ofSeconds(10)).until(() -> !api.gateway().statements().list().isEmpty());
                Thread.sleep(500);
                gone = System.nanoTime();
            }
            await().atMost(Duration.ofSeconds(2)).until(() -> api.gateway().statements().list().isEmpty());
            System.out.printf("the statement ended %d ms after its HTTP client hung up%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - gone));
            assertThreadsIdleWithin("riffle-gateway-http", Duration.ofSeconds(2));
            // The connection the gateway kept answering on is healthy for the next client.
            assertThat(api.postJson("/v1/sql", sql("SELECT count(*) AS n FROM " + t)).json().get("rows").get(0)
                    .get("n").asLong()).isEqualTo(2_000);
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void runningStatementsAreListedInMetricsAndCancelledByAnOperator(LocalCluster cluster, TestNames names)
            throws Exception {
        try (Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .start()) {
            Api api = new Api(gateway);
            String t = table(api, names, 2_000);
            String statement = String.format(CROSS_NOTHING, t);
            CompletableFuture<Api.Response> running = CompletableFuture.supplyAsync(
                    () -> api.postJson("/v1/sql", sql(statement)));
            await().atMost(Duration.ofSeconds(10)).until(() -> api.get("/v1/statements").json().get("statements")
                    .size() == 1);
            JsonNode listed = api.get("/v1/statements").json().get("statements").get(0);
            assertThat(listed.get("surface").asText()).isEqualTo("http");
            assertThat(listed.get("sql").asText()).isEqualTo(statement);
            assertThat(listed.get("timeoutMs").asLong()).isEqualTo(ServerLimits.DEFAULT_STATEMENT_TIMEOUT.toMillis());
            long id = listed.get("id").asLong();
            // After a second it has its own series in /metrics, with its rows so far.
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(api.get("/metrics").text())
                    .contains("riffle_statement_elapsed_seconds{id=\"" + id + "\",principal=\"\",surface=\"http\"}")
                    .contains("riffle_statement_rows{id=\"" + id + "\"")
                    .contains("riffle_statements_running 1.0"));
            assertThat(api.delete("/v1/statements/" + (id + 1000)).status()).isEqualTo(404);
            assertThat(api.delete("/v1/statements/x").status()).isEqualTo(400);
            Api.Response cancelled = api.delete("/v1/statements/" + id);
            assertThat(cancelled.status()).as(cancelled.text()).isEqualTo(200);
            assertThat(cancelled.json().get("cancelled").asBoolean()).isTrue();
            Api.Response answer = running.get(5, TimeUnit.SECONDS);
            assertThat(answer.status()).as(answer.text()).isEqualTo(499);
            assertThat(answer.errorCode()).isEqualTo("statement_cancelled");
            assertThat(answer.errorMessage()).contains("an operator's request (statement " + id);
            await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(api.get("/metrics").text())
                    .contains("riffle_statements_total{outcome=\"cancelled\",surface=\"http\"} 1.0")
                    .doesNotContain("riffle_statement_elapsed_seconds{id=\"" + id + "\""));
            assertThreadsIdleWithin("riffle-gateway-http", Duration.ofSeconds(2));
        }
    }

    @Test
    void aJoinOverItsBudgetIsA413(LocalCluster cluster, TestNames names) throws Exception {
        ServerLimits limits = ServerLimits.DEFAULT.withStatements(StatementLimits.DEFAULT.withBudgets(1_000_000,
                StatementLimits.DEFAULT.maxGroups(), StatementLimits.DEFAULT.maxHeldRows()));
        try (Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .limits(limits).start()) {
            Api api = new Api(gateway);
            String t = table(api, names, 2_000);
            Api.Response response = api.postJson("/v1/sql", sql(String.format(CROSS_COUNT, t)));
            assertThat(response.status()).as(response.text()).isEqualTo(413);
            assertThat(response.errorCode()).isEqualTo("statement_budget_exceeded");
            assertThat(response.errorMessage()).contains("joins produced more than 1000000 rows")
                    .contains("(maxJoinRows)");
            assertThreadsIdleWithin("riffle-gateway-http", Duration.ofSeconds(2));
            api.assertNoArrowMemoryHeld();
        }
    }

    /** A log table of {@code rows} rows ({@code id}, {@code v}), made through {@code /v1/sql}. */
    static String table(Api api, TestNames names, int rows) {
        String db = names.database("runaway");
        String tens = IntStream.range(0, rows / 100).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", "));
        String hundreds = IntStream.range(0, 100).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", "));
        for (String statement : new String[] {"CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT, v STRING) WITH ('bucket.num' = '2')",
                "INSERT INTO " + db + ".t SELECT a.x * 100 + b.x, 'v' || CAST(b.x AS VARCHAR) FROM (VALUES " + tens
                        + ") AS a(x), (VALUES " + hundreds + ") AS b(x)"}) {
            Api.Response response = api.postJson("/v1/sql", sql(statement));
            assertThat(response.status()).as(response.text()).isEqualTo(200);
        }
        return db + ".t";
    }

    static String sql(String statement) {
        try {
            return Api.JSON.writeValueAsString(java.util.Map.of("sql", statement));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Threads whose names start with {@code prefix} use no CPU within {@code within} (under 50 ms per 500 ms). */
    static void assertThreadsIdleWithin(String prefix, Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        long busy;
        do {
            long before = cpuNanos(prefix);
            Thread.sleep(500);
            busy = TimeUnit.NANOSECONDS.toMillis(cpuNanos(prefix) - before);
            if (busy < 50) {
                return;
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("threads " + prefix + "* still used " + busy + " ms of CPU in 500 ms, "
                + within.toMillis() + " ms after the statement ended");
    }

    private static long cpuNanos(String prefix) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith(prefix)) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }
}
