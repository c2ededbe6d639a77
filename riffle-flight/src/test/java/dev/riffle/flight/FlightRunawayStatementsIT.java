package dev.riffle.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Any;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.sql.statement.StatementLimits;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.flight.CallOptions;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Flight SQL's own client against statements that would run for hours (a cross join of three
 * 2,000-row tables under an aggregate): the call's deadline stops the statement on the server, so
 * does a cancelled stream, and a budget answers RESOURCE_EXHAUSTED; the server's threads go back
 * to idle after each. Malformed requests (a path descriptor, a ticket of random bytes) answer
 * INVALID_ARGUMENT, not INTERNAL.
 */
@ExtendWith({LocalClusterExtension.class, FlightServerExtension.class})
class FlightRunawayStatementsIT {
    private static final String CROSS_COUNT = "SELECT count(*) FROM %1$s a, %1$s b, %1$s c";
    /** The cross join whose condition no row meets: only a deadline or a cancel stops it. */
    private static final String CROSS_NOTHING = CROSS_COUNT + " WHERE a.id + b.id + c.id < 0";

    private FlightSqlServer server;

    @AfterEach
    void nothingLeftRunning() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.statements().list().isEmpty()
                    && server.arrowAllocatedBytes() == 0);
        }
    }

    @Test
    void theCallsDeadlineStopsTheStatementOnTheServer(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String t = table(server, names);
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
            FlightSqlClient sql = new FlightSqlClient(client);
            FlightInfo info = sql.execute(String.format(CROSS_NOTHING, t));
            long started = System.nanoTime();
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> {
                try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket(),
                        CallOptions.timeout(2, TimeUnit.SECONDS))) {
                    stream.next();
                }
            });
            assertThat(e.status().code()).isEqualTo(FlightStatusCode.TIMED_OUT);
            // The server stopped the statement at the same deadline, not minutes later.
            await().atMost(Duration.ofSeconds(1)).until(() -> server.statements().list().isEmpty());
            System.out.printf("the statement ended on the server %d ms after a call with a 2 s deadline began%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            assertServerIdleWithin(Duration.ofSeconds(2));
        }
    }

    @Test
    void aCancelledStreamStopsItsStatement(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String t = table(server, names);
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
            FlightSqlClient sql = new FlightSqlClient(client);
            FlightInfo info = sql.execute(String.format(CROSS_NOTHING, t));
            FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket());
            await().atMost(Duration.ofSeconds(10)).until(() -> !server.statements().list().isEmpty());
            Thread.sleep(300);
            long cancelled = System.nanoTime();
            stream.cancel("the user gave up", null);
            await().atMost(Duration.ofSeconds(2)).until(() -> server.statements().list().isEmpty());
            System.out.printf("the statement ended %d ms after its stream was cancelled%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cancelled));
            try {
                stream.close();
            } catch (Exception expected) {
                // a cancelled stream's close reports the cancel
            }
            assertServerIdleWithin(Duration.ofSeconds(2));
        }
    }

    @Test
    void aJoinOverItsBudgetIsResourceExhausted(LocalCluster cluster, FlightSqlServer shared, TestNames names)
            throws Exception {
        String t = table(shared, names);
        ServerLimits limits = ServerLimits.DEFAULT.withStatements(StatementLimits.DEFAULT.withBudgets(1_000_000,
                StatementLimits.DEFAULT.maxGroups(), StatementLimits.DEFAULT.maxHeldRows()));
        try (FlightSqlServer limited = FlightSqlServer.builder().clientConfig(cluster.clientConfig())
                .host("127.0.0.1").port(0).limits(limits).start();
                BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, limited.location()).build()) {
            this.server = limited;
            FlightSqlClient sql = new FlightSqlClient(client);
            FlightInfo info = sql.execute(String.format(CROSS_COUNT, t));
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> {
                try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket())) {
                    stream.next();
                }
            });
            assertThat(e.status().code()).isEqualTo(FlightStatusCode.RESOURCE_EXHAUSTED);
            assertThat(e.getMessage()).contains("joins produced more than 1000000 rows").contains("(maxJoinRows)");
            assertServerIdleWithin(Duration.ofSeconds(2));
        }
    }

    @Test
    void malformedRequestsAnswerInvalidArgument(FlightSqlServer server) throws Exception {
        this.server = server;
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
            FlightRuntimeException path = assertThrows(FlightRuntimeException.class,
                    () -> client.getInfo(FlightDescriptor.path("acc", "c_log")));
            assertThat(path.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
            assertThat(path.getMessage()).contains("path descriptor [acc, c_log]").contains("SELECT * FROM acc.c_log");

            FlightRuntimeException schema = assertThrows(FlightRuntimeException.class,
                    () -> client.getSchema(FlightDescriptor.path("acc", "c_log")));
            assertThat(schema.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);

            FlightRuntimeException notACommand = assertThrows(FlightRuntimeException.class,
                    () -> client.getInfo(FlightDescriptor.command("not a command".getBytes(StandardCharsets.UTF_8))));
            assertThat(notACommand.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);

            SecureRandom random = new SecureRandom();
            Map<FlightStatusCode, Integer> answers = new HashMap<>();
            for (int i = 0; i < 50; i++) {
                byte[] bytes = new byte[64];
                random.nextBytes(bytes);
                FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> {
                    try (FlightStream stream = client.getStream(new Ticket(bytes))) {
                        stream.next();
                    }
                });
                answers.merge(e.status().code(), 1, Integer::sum);
                assertThat(e.getMessage()).isNotBlank();
            }
            assertThat(answers.keySet()).as("what 50 tickets of 64 random bytes answered").containsOnly(
                    FlightStatusCode.INVALID_ARGUMENT);

            // An Any of an unknown message is no Flight SQL ticket either.
            byte[] unknown = Any.newBuilder().setTypeUrl("type.googleapis.com/unknown.Message").build().toByteArray();
            FlightRuntimeException unknownTicket = assertThrows(FlightRuntimeException.class, () -> {
                try (FlightStream stream = client.getStream(new Ticket(unknown))) {
                    stream.next();
                }
            });
            assertThat(unknownTicket.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);

            try (VectorSchemaRoot root = VectorSchemaRoot.of(new IntVector("id", allocator))) {
                SyncPutListener ack = new SyncPutListener();
                FlightClient.ClientStreamListener put = client.startPut(FlightDescriptor.path("acc", "c_log"), root,
                        ack);
                root.setRowCount(0);
                put.putNext();
                put.completed();
                FlightRuntimeException e = assertThrows(FlightRuntimeException.class, put::getResult);
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("DoPut got a path descriptor");
                ack.close();
            }
        }
    }

    /** A log table of 2,000 rows made through Flight SQL's JDBC driver. */
    private static String table(FlightSqlServer server, TestNames names) throws Exception {
        String db = names.database("runaway");
        String tens = IntStream.range(0, 20).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", "));
        String hundreds = IntStream.range(0, 100).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", "));
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT, v STRING) WITH ('bucket.num' = '2')");
            statement.executeUpdate("INSERT INTO " + db + ".t SELECT a.x * 100 + b.x, 'v' || CAST(b.x AS VARCHAR)"
                    + " FROM (VALUES " + tens + ") AS a(x), (VALUES " + hundreds + ") AS b(x)");
        }
        return db + ".t";
    }

    /**
     * No thread of this JVM outside the embedded cluster uses a busy core within {@code within}:
     * the statement's thread (a gRPC executor's) is back to idle. Measured as the CPU time of every
     * thread over 500 ms, the busiest named when it fails.
     */
    private static void assertServerIdleWithin(Duration within) throws InterruptedException {
        long deadline = System.nanoTime() + within.toNanos();
        Map<String, Long> busiest;
        do {
            Map<Long, Long> before = cpuByThread();
            Thread.sleep(500);
            Map<Long, Long> after = cpuByThread();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            busiest = new HashMap<>();
            for (Map.Entry<Long, Long> entry : after.entrySet()) {
                long used = entry.getValue() - before.getOrDefault(entry.getKey(), entry.getValue());
                ThreadInfo info = threads.getThreadInfo(entry.getKey());
                if (info != null && used > TimeUnit.MILLISECONDS.toNanos(100)) {
                    busiest.put(info.getThreadName(), TimeUnit.NANOSECONDS.toMillis(used));
                }
            }
            if (busiest.isEmpty()) {
                return;
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("threads still busy (ms of CPU in 500 ms) " + within.toMillis()
                + " ms after the statement ended: " + busiest.entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())).toList());
    }

    private static Map<Long, Long> cpuByThread() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new HashMap<>();
        for (long id : threads.getAllThreadIds()) {
            long nanos = threads.getThreadCpuTime(id);
            if (nanos >= 0) {
                cpu.put(id, nanos);
            }
        }
        return cpu;
    }
}
