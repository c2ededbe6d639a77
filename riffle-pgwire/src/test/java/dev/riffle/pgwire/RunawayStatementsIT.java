package dev.riffle.pgwire;

import static dev.riffle.pgwire.PgJdbcIT.connect;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.statement.StatementAdmission;
import dev.riffle.sql.statement.StatementLimits;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.postgresql.PGConnection;

/**
 * A 60-byte statement that would run for hours (a cross join of three 2,000-row tables, under an
 * aggregate that answers nothing until its end) cannot pin the PostgreSQL server: it stops at the
 * session's {@code statement_timeout} (that session's only), at a cancel request, at another
 * backend's {@code pg_cancel_backend}, when its client disconnects, and at the budget of the rows
 * its joins produce; each time the server's worker threads go back to idle, measured as their CPU
 * time. While eight such statements run, another client's point lookups keep answering.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class RunawayStatementsIT {
    private static final String CROSS_COUNT = "SELECT count(*) FROM %1$s a, %1$s b, %1$s c";
    /**
     * The same cross join, whose condition no row meets: its joins produce no rows toward their
     * budget (only 4 million of a and b), so only a deadline or a cancel stops it.
     */
    private static final String CROSS_NOTHING = CROSS_COUNT + " WHERE a.id + b.id + c.id < 0";
    private PgWireServer server;

    @AfterEach
    void nothingLeftRunning() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.statements().list().isEmpty()
                    && server.arrowAllocatedBytes() == 0);
        }
    }

    @Test
    void aSessionsStatementTimeoutStopsItsCrossJoinAndOnlyIts(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String t = table(server, names, 2_000);
        try (Connection timed = connect(server); Statement statement = timed.createStatement();
                Connection other = connect(server); Statement untimed = other.createStatement()) {
            statement.execute("SET statement_timeout = '2s'");
            assertThat(single(statement, "SHOW statement_timeout")).isEqualTo("2s");
            long started = System.nanoTime();
            assertThatThrownBy(() -> statement.executeQuery(String.format(CROSS_NOTHING, t)))
                    .isInstanceOf(SQLException.class).satisfies(e -> {
                        assertThat(((SQLException) e).getSQLState()).isEqualTo("57014");
                        assertThat(e.getMessage()).contains("canceling statement due to statement timeout");
                    });
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertThat(millis).as("ms until the 2 s statement_timeout answered").isBetween(1_900L, 3_000L);
            assertWorkersIdleWithin(Duration.ofSeconds(2));
            // The other session has no statement_timeout: its cross join runs on until it is cancelled at 4 s.
            assertThat(single(untimed, "SHOW statement_timeout")).isEqualTo("0");
            CompletableFuture<Void> cancel = CompletableFuture.runAsync(() -> {
                sleep(4_000);
                cancel(untimed);
            });
            long otherStarted = System.nanoTime();
            assertThatThrownBy(() -> untimed.executeQuery(String.format(CROSS_NOTHING, t)))
                    .isInstanceOf(SQLException.class).satisfies(e -> {
                        assertThat(((SQLException) e).getSQLState()).isEqualTo("57014");
                        assertThat(e.getMessage()).contains("canceling statement due to user request");
                    });
            cancel.get();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - otherStarted))
                    .as("ms the untimed session's statement ran (cancelled at 4 s)").isBetween(3_900L, 5_000L);
            assertWorkersIdleWithin(Duration.ofSeconds(2));
            // A bad value names what is wrong; 0 turns the session's timeout off again.
            assertThatThrownBy(() -> statement.execute("SET statement_timeout = 'soon'"))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("22023"))
                    .hasMessageContaining("invalid value for parameter \"statement_timeout\": \"soon\"");
            statement.execute("SET statement_timeout = 0");
            assertThat(single(statement, "SELECT count(*) FROM " + t)).isEqualTo("2000");
        }
    }

    @Test
    void psqlSeesItsStatementTimeoutAndItsBudget(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String t = table(server, names, 2_000);
        PsqlIT.Run timedOut = PsqlIT.psql(server, "SET statement_timeout = '2s'", String.format(CROSS_NOTHING, t));
        assertThat(timedOut.exitCode()).as(timedOut.err()).isEqualTo(1);
        assertThat(timedOut.err()).contains("ERROR:  canceling statement due to statement timeout: it ran for 2 s");
        assertWorkersIdleWithin(Duration.ofSeconds(2));
        // Without a session timeout, the server's budget of join rows (100 million by default) ends the count.
        PsqlIT.Run overBudget = PsqlIT.psql(server, String.format(CROSS_COUNT, t));
        assertThat(overBudget.exitCode()).as(overBudget.err()).isEqualTo(1);
        assertThat(overBudget.err()).contains("ERROR:  The statement's joins produced more than 100000000 rows");
        assertWorkersIdleWithin(Duration.ofSeconds(2));
    }

    @Test
    void aClientThatDisconnectsFreesItsWorker(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String t = table(server, names, 2_000);
        Connection leaving = connect(server);
        Statement statement = leaving.createStatement();
        CompletableFuture<Void> query = CompletableFuture.runAsync(() -> {
            try {
                statement.executeQuery(String.format(CROSS_NOTHING, t));
            } catch (SQLException e) {
                // the connection is aborted under it
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> server.statements().list().stream()
                .anyMatch(s -> s.sql().contains(" c") && s.guard().rows() > 0));
        ExecutorService closer = Executors.newSingleThreadExecutor();
        leaving.abort(closer); // the socket closes; the server sees the client go
        long gone = System.nanoTime();
        await().atMost(Duration.ofSeconds(2)).until(() -> server.statements().list().isEmpty());
        System.out.printf("statement ended %d ms after its client disconnected%n",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - gone));
        assertWorkersIdleWithin(Duration.ofSeconds(2));
        query.get(10, TimeUnit.SECONDS);
        closer.shutdown();
    }

    @Test
    void pgCancelBackendAndPgTerminateBackendStopAnotherSession(PgWireServer server, TestNames names)
            throws Exception {
        this.server = server;
        String t = table(server, names, 2_000);
        try (Connection running = connect(server); Statement statement = running.createStatement();
                Connection operator = connect(server); Statement control = operator.createStatement()) {
            int pid = running.unwrap(PGConnection.class).getBackendPID();
            assertThat(single(statement, "SELECT pg_backend_pid()")).isEqualTo(Integer.toString(pid));
            CompletableFuture<String> cancelled = CompletableFuture.supplyAsync(() -> {
                await().atMost(Duration.ofSeconds(10)).until(() -> !server.statements().list().isEmpty());
                sleep(300);
                return single(control, "SELECT pg_cancel_backend(" + pid + ")");
            });
            assertThatThrownBy(() -> statement.executeQuery(String.format(CROSS_NOTHING, t)))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("57014"))
                    .hasMessageContaining("canceling statement due to user request");
            assertThat(cancelled.get(10, TimeUnit.SECONDS)).isEqualTo("t");
            assertThat(single(control, "SELECT pg_cancel_backend(999999)")).isEqualTo("f"); // no such backend
            // The session goes on after a cancel; a terminate ends it.
            assertThat(single(statement, "SELECT count(*) FROM " + t)).isEqualTo("2000");
            assertThat(single(control, "SELECT pg_terminate_backend(" + pid + ")")).isEqualTo("t");
            await().atMost(Duration.ofSeconds(5)).until(() -> running.isClosed() || !answers(statement));
        }
        assertWorkersIdleWithin(Duration.ofSeconds(2));
    }

    @Test
    void aJoinOverItsBudgetAnswers54000(LocalCluster cluster, PgWireServer shared, TestNames names) throws Exception {
        String t = table(shared, names, 2_000);
        ServerLimits limits = ServerLimits.DEFAULT.withStatements(StatementLimits.DEFAULT.withBudgets(1_000_000,
                StatementLimits.DEFAULT.maxGroups(), StatementLimits.DEFAULT.maxHeldRows()));
        try (PgWireServer limited = PgWireServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1")
                .port(0).limits(limits).start();
                Connection sql = connect(limited); Statement statement = sql.createStatement()) {
            this.server = limited;
            long started = System.nanoTime();
            assertThatThrownBy(() -> statement.executeQuery(String.format(CROSS_COUNT, t)))
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isEqualTo("54000"))
                    .hasMessageContaining("joins produced more than 1000000 rows, the budget of one statement"
                            + " (maxJoinRows)");
            System.out.printf("the join budget of 1,000,000 rows stopped the cross join after %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
            assertThat(single(statement, "SELECT count(*) FROM " + t + " a JOIN " + t + " b ON a.id = b.id"))
                    .isEqualTo("2000");
            assertWorkersIdleWithin(Duration.ofSeconds(2));
        }
    }

    @Test
    void pointLookupsKeepAnsweringWhileEightCrossJoinsRun(LocalCluster cluster, TestNames names) throws Exception {
        StatementAdmission admission = StatementAdmission.DEFAULT;
        try (PgWireServer own = PgWireServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .admission(admission).start()) {
            this.server = own;
            String t = table(own, names, 2_000);
            String db = t.substring(0, t.indexOf('.'));
            try (Connection sql = connect(own); Statement statement = sql.createStatement()) {
                statement.execute("CREATE TABLE " + db + ".kv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)");
                statement.executeUpdate("INSERT INTO " + db + ".kv SELECT id, v FROM " + t + " WHERE id < 100");
            }
            List<Connection> heavy = new ArrayList<>();
            List<CompletableFuture<String>> crossJoins = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Connection connection = connect(own);
                heavy.add(connection);
                crossJoins.add(CompletableFuture.supplyAsync(() -> {
                    try (Statement s = connection.createStatement()) {
                        s.execute("SET statement_timeout = '15s'");
                        s.executeQuery(String.format(CROSS_NOTHING, t));
                        return "answered";
                    } catch (SQLException e) {
                        return e.getSQLState();
                    }
                }));
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> own.statements().admitted() == admission.maxRunning());
            List<Long> micros = Collections.synchronizedList(new ArrayList<>());
            try (Connection lookups = connect(own);
                    PreparedStatement lookup = lookups.prepareStatement("SELECT v FROM " + db + ".kv WHERE id = ?")) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
                int i = 0;
                while (System.nanoTime() < until) {
                    lookup.setInt(1, i++ % 100);
                    long started = System.nanoTime();
                    try (ResultSet rs = lookup.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                    }
                    micros.add(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started));
                }
            }
            List<Long> sorted = micros.stream().sorted().toList();
            long p50 = sorted.get(sorted.size() / 2);
            long p99 = sorted.get((int) (sorted.size() * 0.99));
            System.out.printf("%d point lookups beside 8 cross joins (%d running, %d queued): p50 %d us, p99 %d us,"
                    + " max %d us%n", sorted.size(), admission.maxRunning(), 8 - admission.maxRunning(), p50, p99,
                    sorted.get(sorted.size() - 1));
            assertThat(sorted.size()).as("lookups answered in 8 s").isGreaterThan(100);
            assertThat(p99).as("p99 of a point lookup beside 8 cross joins, us").isLessThan(500_000);
            for (Connection connection : heavy) {
                cancel(connection.createStatement());
                connection.close();
            }
            for (CompletableFuture<String> crossJoin : crossJoins) {
                assertThat(crossJoin.get(20, TimeUnit.SECONDS)).isIn("57014", "08006");
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> own.statements().list().isEmpty());
        }
    }

    /** A log table of {@code rows} rows ({@code id}, {@code v}), written with SQL. */
    static String table(PgWireServer server, TestNames names, int rows) throws SQLException {
        String db = names.database("runaway");
        String tens = IntStream.range(0, rows / 100).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", "));
        String hundreds = IntStream.range(0, 100).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", "));
        try (Connection sql = connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT, v STRING) WITH ('bucket.num' = '2')");
            statement.executeUpdate("INSERT INTO " + db + ".t SELECT a.x * 100 + b.x, 'v' || CAST(b.x AS VARCHAR)"
                    + " FROM (VALUES " + tens + ") AS a(x), (VALUES " + hundreds + ") AS b(x)");
        }
        return db + ".t";
    }

    /**
     * The PostgreSQL server's worker threads use no CPU within {@code within}: their CPU time over a
     * 500 ms window, sampled until it is under 50 ms.
     */
    static void assertWorkersIdleWithin(Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        long busy;
        do {
            long before = workerCpuNanos();
            sleep(500);
            busy = TimeUnit.NANOSECONDS.toMillis(workerCpuNanos() - before);
            if (busy < 50) {
                return;
            }
        } while (System.nanoTime() < deadline);
        throw new AssertionError("the PostgreSQL workers still used " + busy + " ms of CPU in 500 ms, "
                + within.toMillis() + " ms after the statement ended");
    }

    private static long workerCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().startsWith("riffle-pgwire-worker")) {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    private static String single(Statement statement, String sql) {
        try (ResultSet rs = statement.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new CompletionException(e);
        }
    }

    private static boolean answers(Statement statement) {
        try (ResultSet rs = statement.executeQuery("SELECT 1")) {
            return rs.next();
        } catch (SQLException e) {
            return false;
        }
    }

    private static void cancel(Statement statement) {
        try {
            statement.cancel();
        } catch (SQLException e) {
            throw new CompletionException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
