package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.sql.statement.StatementStoppedException.Reason;
import dev.riffle.sql.statement.StatementStoppedException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Statements whose operators loop without reading (a cross join under an aggregate, a sort of a
 * cross join, a window over one) stop at their deadline, at a cancel, and at the budgets of what
 * they build, through {@code jdbc:riffle}'s own {@code setQueryTimeout}, {@code cancel()} and
 * driver properties; statements within the budgets still answer.
 */
@ExtendWith(LocalClusterExtension.class)
class ExecutionGuardIT {
    /** 1,000 rows: three of them crossed are 10^9 combinations, minutes of Calcite's time. */
    private static final int ROWS = 1_000;
    private static final String CROSS_COUNT = "SELECT count(*) FROM %1$s a, %1$s b, %1$s c";

    @Test
    void aCrossJoinStopsAtItsQueryTimeoutInsideTheAggregate(LocalCluster cluster, TestNames names) throws Exception {
        String t = table(cluster, names);
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            for (String shape : new String[] {CROSS_COUNT,
                    "SELECT a.v, count(*) FROM %1$s a, %1$s b, %1$s c GROUP BY a.v",
                    "SELECT a.id + b.id + c.id AS s FROM %1$s a, %1$s b, %1$s c ORDER BY s LIMIT 5",
                    "SELECT count(*) FROM %1$s a, %1$s b, %1$s c WHERE a.id + b.id + c.id < 0",
                    "SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY a.id) AS r FROM %1$s a, %1$s b, %1$s c"
                            + " WHERE a.id + b.id + c.id < 0) x"}) {
                statement.setQueryTimeout(1);
                long started = System.nanoTime();
                assertStopped(() -> statement.executeQuery(String.format(shape, t)).next(), Reason.TIMEOUT,
                        "canceling statement due to statement timeout: it ran for 1 s");
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                assertThat(millis).as("ms until " + shape + " stopped at its 1 s timeout").isBetween(900L, 2_000L);
            }
            // The connection goes on: the next statement answers.
            statement.setQueryTimeout(0);
            assertThat(query(sql, "SELECT count(*) FROM " + t)).containsExactly(Integer.toString(ROWS));
        }
    }

    @Test
    void aCancelStopsACrossJoinWithinASecond(LocalCluster cluster, TestNames names) throws Exception {
        String t = table(cluster, names);
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            CompletableFuture<Long> cancelledAt = CompletableFuture.supplyAsync(() -> {
                try {
                    Thread.sleep(500);
                    statement.cancel();
                    return System.nanoTime();
                } catch (SQLException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertStopped(() -> statement.executeQuery(String.format(CROSS_COUNT, t)).next(), Reason.CANCELLED,
                    "canceling statement due to user request");
            long afterCancel = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cancelledAt.get());
            assertThat(afterCancel).as("ms from cancel() to the statement's end").isLessThan(1_000);
        }
    }

    @Test
    void budgetsStopWhatAStatementBuildsAndNameTheBudget(LocalCluster cluster, TestNames names) throws Exception {
        String t = table(cluster, names);
        String url = "jdbc:riffle://" + cluster.bootstrapServers();
        try (Connection sql = DriverManager.getConnection(url + ";maxJoinRows=100000");
                Statement statement = sql.createStatement()) {
            assertStopped(() -> statement.executeQuery(String.format(CROSS_COUNT, t)).next(), Reason.BUDGET,
                    "The statement's joins produced more than 100000 rows, the budget of one statement (maxJoinRows)");
            // 1,000 joined rows are within it.
            assertThat(query(sql, "SELECT count(*) FROM " + t + " a JOIN " + t + " b ON a.id = b.id"))
                    .containsExactly(Integer.toString(ROWS));
        }
        try (Connection sql = DriverManager.getConnection(url + ";maxHeldRows=2500");
                Statement statement = sql.createStatement()) {
            assertStopped(() -> statement.executeQuery("SELECT a.id FROM " + t + " a, " + t + " b ORDER BY a.id + b.id")
                    .next(), Reason.BUDGET, "The statement held more than 2500 rows to sort, window, join or compare");
            // So does a window over it.
            assertStopped(() -> statement.executeQuery("SELECT max(r) FROM (SELECT row_number() OVER (ORDER BY a.id) AS r"
                    + " FROM " + t + " a, " + t + " b) x").next(), Reason.BUDGET, "held more than 2500 rows");
            // A top-N keeps only its limit (beside the cross join's inner sides): three rows of it are answered.
            assertThat(query(sql, "SELECT a.id + b.id AS s FROM " + t + " a, " + t + " b ORDER BY s DESC LIMIT 3"))
                    .containsExactly("1998", "1997", "1997");
        }
        for (String vectorized : new String[] {"true", "false"}) {
            try (Connection sql = DriverManager.getConnection(url + ";maxGroups=100;vectorized=" + vectorized);
                    Statement statement = sql.createStatement()) {
                assertStopped(() -> statement.executeQuery("SELECT id, count(*) FROM " + t + " GROUP BY id").next(),
                        Reason.BUDGET, "The statement's aggregates held more than 100 groups");
                assertThat(query(sql, "SELECT count(DISTINCT v) FROM " + t)).as("vectorized=" + vectorized)
                        .containsExactly("7");
            }
        }
    }

    /** A log table of {@link #ROWS} rows: {@code id} 0..999, {@code v} one of seven strings. */
    private static String table(LocalCluster cluster, TestNames names) throws SQLException {
        String db = names.database("guard");
        String t = db + ".t";
        String tens = IntStream.range(0, 10).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", "));
        String hundreds = IntStream.range(0, 100).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", "));
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + t + " (id INT, v STRING) WITH ('bucket.num' = '2')");
            statement.executeUpdate("INSERT INTO " + t + " SELECT a.x * 100 + b.x, 'v' || CAST(MOD(b.x, 7) AS VARCHAR)"
                    + " FROM (VALUES " + tens + ") AS a(x), (VALUES " + hundreds + ") AS b(x)");
            assertThat(query(sql, "SELECT count(*) FROM " + t)).containsExactly(Integer.toString(ROWS));
        }
        return t;
    }

    private static void assertStopped(ThrowingCallable call, Reason reason, String message) {
        assertThatThrownBy(call).isInstanceOf(SQLException.class).satisfies(e -> {
            StatementStoppedException stopped = StatementStoppedException.in(e).orElseThrow(
                    () -> new AssertionError("not stopped by its guard", e));
            assertThat(stopped.reason()).isEqualTo(reason);
            assertThat(stopped.getMessage()).contains(message);
        });
    }
}
