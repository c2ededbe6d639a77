package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.sql.catalog.FlussRootSchema;
import dev.riffle.sql.exec.FlussSession;
import dev.riffle.sql.jdbc.RiffleDriver;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;
import org.apache.calcite.jdbc.CalciteConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Connections over one session that the caller owns (what a server's SQL pool does): they share
 * it, closing one leaves it to the others, and a connection the driver opened alone still closes
 * its own.
 */
@ExtendWith(LocalClusterExtension.class)
class SharedSessionIT {

    @Test
    void connectionsOverASessionShareItAndLeaveItOpenWhenTheyClose(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("shared");
        String url = "jdbc:riffle://" + cluster.bootstrapServers();
        try (Connection setup = connect(cluster); Statement statement = setup.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".kv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)");
            statement.execute("INSERT INTO " + db + ".kv VALUES (1, 'one'), (2, 'two')");
        }
        RiffleDriver driver = new RiffleDriver();
        Properties properties = new Properties();
        try (FlussSession session = driver.openSession(url, properties)) {
            Connection a = driver.connect(url, properties, session);
            try (Connection b = driver.connect(url, properties, session)) {
                assertThat(sessionOf(a)).isSameAs(session);
                assertThat(sessionOf(b)).isSameAs(session);
                assertThat(pointQuery(a, db, 1)).isEqualTo("one");
                assertThat(pointQuery(b, db, 2)).isEqualTo("two");
                a.close();
                // The session outlives a connection over it: the other goes on.
                assertThat(pointQuery(b, db, 1)).isEqualTo("one");
                assertThat(query(b, "SELECT count(*) FROM " + db + ".kv")).containsExactly("2");
            }
            // ... and so does a new connection, after both closed.
            try (Connection c = driver.connect(url, properties, session)) {
                assertThat(pointQuery(c, db, 2)).isEqualTo("two");
            }
        }
        // A connection made by URL alone has a session of its own.
        try (Connection own = connect(cluster); Connection other = connect(cluster)) {
            assertThat(sessionOf(own)).isNotSameAs(sessionOf(other));
            assertThat(query(own, "SELECT v FROM " + db + ".kv WHERE id = 1")).isEqualTo(List.of("one"));
        }
    }

    /**
     * A Fluss lookuper reuses its key encoder: connections sharing a session must not share one at
     * once, or keys are encoded wrongly (another key's row, or Fluss's "Assigned key must not be
     * empty!", as 32 HTTP SQL clients once got).
     */
    @Test
    void concurrentPointQueriesOverOneSessionEachFindTheirOwnRow(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("racing");
        String url = "jdbc:riffle://" + cluster.bootstrapServers();
        int keys = 400;
        try (Connection setup = connect(cluster); Statement statement = setup.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".kv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                    + " WITH ('bucket.num' = '4')");
            StringBuilder values = new StringBuilder();
            for (int id = 0; id < keys; id++) {
                values.append(id == 0 ? "" : ", ").append("(").append(id).append(", 'v").append(id).append("')");
            }
            statement.execute("INSERT INTO " + db + ".kv VALUES " + values);
        }
        RiffleDriver driver = new RiffleDriver();
        Properties properties = new Properties();
        int threads = 32;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try (FlussSession session = driver.openSession(url, properties)) {
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            List<java.util.concurrent.Future<List<String>>> results = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                results.add(pool.submit(() -> {
                    List<String> wrong = new java.util.ArrayList<>();
                    java.util.Random random = new java.util.Random(seed);
                    try (Connection connection = driver.connect(url, properties, session);
                            PreparedStatement statement = connection.prepareStatement(
                                    "SELECT v FROM " + db + ".kv WHERE id = ?")) {
                        start.await();
                        for (int i = 0; i < 400; i++) {
                            int id = random.nextInt(keys);
                            statement.setInt(1, id);
                            try (ResultSet rs = statement.executeQuery()) {
                                String found = rs.next() ? rs.getString(1) : "<none>";
                                if (!found.equals("v" + id)) {
                                    wrong.add(id + " -> " + found);
                                }
                            } catch (java.sql.SQLException e) {
                                wrong.add(id + " -> " + e.getMessage());
                            }
                        }
                    }
                    return wrong;
                }));
            }
            start.countDown();
            List<String> wrong = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<List<String>> result : results) {
                wrong.addAll(result.get(120, java.util.concurrent.TimeUnit.SECONDS));
            }
            assertThat(wrong).as("point queries that found another row or failed").isEmpty();
        } finally {
            pool.shutdownNow();
        }
    }

    private static FlussSession sessionOf(Connection connection) throws Exception {
        return connection.unwrap(CalciteConnection.class).getRootSchema().unwrap(FlussRootSchema.class).session();
    }

    private static String pointQuery(Connection connection, String db, int id) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement("SELECT v FROM " + db + ".kv WHERE id = ?")) {
            statement.setInt(1, id);
            try (ResultSet rs = statement.executeQuery()) {
                assertThat(rs.next()).isTrue();
                return rs.getString(1);
            }
        }
    }
}
