package dev.riffle.server.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.session.SqlConnections;
import dev.riffle.sql.catalog.FlussRootSchema;
import dev.riffle.sql.exec.FlussSession;
import dev.riffle.sql.statement.StatementLimits;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The SQL pool every surface runs statements on: its connections share one Fluss session, each
 * serves one request at a time, a request finds none free within the wait only when all are
 * lent, and closing the pool closes the session.
 */
@ExtendWith(LocalClusterExtension.class)
class SqlConnectionsIT {

    @Test
    void connectionsShareOneSessionAndServeOneRequestEach(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("pool");
        dev.riffle.core.Riffle riffle = dev.riffle.core.Riffle.connect(cluster.clientConfig());
        SqlConnections pool = SqlConnections.over(riffle, 3, Duration.ofMillis(300), StatementLimits.DEFAULT);
        FlussSession shared;
        try (riffle; pool) {
            try (SqlConnections.Lease lease = pool.borrow()) {
                lease.executeDdl("CREATE DATABASE " + db);
                lease.executeDdl("CREATE TABLE " + db + ".kv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)");
                try (PreparedStatement insert = lease.prepare("INSERT INTO " + db + ".kv VALUES (?, ?)")) {
                    for (int id = 0; id < 50; id++) {
                        insert.setInt(1, id);
                        insert.setString(2, "v" + id);
                        insert.executeUpdate();
                    }
                }
            }
            List<SqlConnections.Lease> lent = new ArrayList<>();
            Set<FlussSession> sessions = ConcurrentHashMap.newKeySet();
            for (int i = 0; i < 3; i++) {
                SqlConnections.Lease lease = pool.borrow();
                lent.add(lease);
                PreparedStatement statement = lease.prepare("SELECT v FROM " + db + ".kv WHERE id = ?");
                sessions.add(statement.getConnection().unwrap(org.apache.calcite.jdbc.CalciteConnection.class)
                        .getRootSchema().unwrap(FlussRootSchema.class).session());
            }
            assertThat(sessions).as("the sessions of three connections").hasSize(1);
            shared = sessions.iterator().next();
            // All three lent: a fourth request waits out the wait and is told the pool is busy.
            assertThatThrownBy(pool::borrow).isInstanceOf(ServiceException.class).hasMessageContaining("busy");
            lent.forEach(SqlConnections.Lease::close);

            // A prepared statement is known to the connection that prepared it, DDL never is.
            try (SqlConnections.Lease lease = pool.borrow()) {
                assertThat(lease.isPrepared("SELECT v FROM " + db + ".kv WHERE id = ?")).isTrue();
                assertThat(lease.isPrepared("SELECT 1")).isFalse();
            }

            // Point queries from several threads at once, each on a connection of its own, all right.
            ExecutorService threads = Executors.newFixedThreadPool(3);
            try {
                List<Future<String>> answers = new ArrayList<>();
                for (int id = 0; id < 50; id++) {
                    int key = id;
                    answers.add(threads.submit(() -> {
                        try (SqlConnections.Lease lease = pool.borrow()) {
                            PreparedStatement statement = lease.prepare("SELECT v FROM " + db + ".kv WHERE id = ?");
                            statement.setInt(1, key);
                            try (ResultSet rs = statement.executeQuery()) {
                                return rs.next() ? rs.getString(1) : "none";
                            }
                        }
                    }));
                }
                for (int id = 0; id < 50; id++) {
                    assertThat(answers.get(id).get()).isEqualTo("v" + id);
                }
            } finally {
                threads.shutdownNow();
            }

            // A connection given up as broken is closed; the session stays for the others.
            try (SqlConnections.Lease lease = pool.borrow()) {
                lease.discard();
            }
            try (SqlConnections.Lease lease = pool.borrow(); Statement statement = lease.prepare(
                    "SELECT count(*) FROM " + db + ".kv").getConnection().createStatement();
                    ResultSet rs = statement.executeQuery("SELECT count(*) FROM " + db + ".kv")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(50);
            }
        }
        // Closing the pool closed the session, and with it the session's own Arrow allocator.
        assertThatThrownBy(() -> shared.riffle().allocator().buffer(8)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(pool::borrow).isInstanceOf(ServiceException.class).hasMessageContaining("shutting down");
    }

    /**
     * A server's pool runs over its session's Fluss connection: the statements' session holds no
     * connection of its own, its memory is a child of the session's allocator, and closing the pool
     * leaves the session's connection and allocator open and empty.
     */
    @Test
    void aSessionsPoolRunsOverTheSessionsOwnConnection(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("over");
        try (org.apache.fluss.client.Connection connection = org.apache.fluss.client.ConnectionFactory
                        .createConnection(cluster.clientConfig());
                org.apache.arrow.memory.BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator()) {
            dev.riffle.core.Riffle riffle = dev.riffle.core.Riffle.using(connection, allocator);
            FlussSession shared;
            try (SqlConnections pool = SqlConnections.over(riffle, 2, Duration.ofSeconds(5), StatementLimits.DEFAULT)) {
                try (SqlConnections.Lease lease = pool.borrow()) {
                    lease.executeDdl("CREATE DATABASE " + db);
                    lease.executeDdl("CREATE TABLE " + db + ".t (id INT, v STRING)");
                    try (Statement insert = lease.prepare("SELECT 1").getConnection().createStatement()) {
                        insert.executeUpdate("INSERT INTO " + db + ".t VALUES (1, 'a'), (2, 'b')");
                    }
                    PreparedStatement count = lease.prepare("SELECT count(*) FROM " + db + ".t");
                    try (ResultSet rs = count.executeQuery()) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(1)).isEqualTo(2);
                    }
                    shared = count.getConnection().unwrap(org.apache.calcite.jdbc.CalciteConnection.class)
                            .getRootSchema().unwrap(FlussRootSchema.class).session();
                }
                assertThat(shared.riffle().connection()).as("the statements' Fluss connection")
                        .isSameAs(connection);
                assertThat(allocator.getChildAllocators()).as("the statements' allocator, a child of the session's")
                        .hasSize(1);
            }
            assertThat(allocator.getChildAllocators()).as("closed with the pool").isEmpty();
            assertThat(allocator.getAllocatedMemory()).isZero();
            // The session's connection outlives the pool.
            assertThat(connection.getAdmin().listDatabases().get()).contains(db);
        }
    }

    @Test
    void aStatementTooDeepToPlanIsRefusedByName(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("deep");
        dev.riffle.core.Riffle riffle = dev.riffle.core.Riffle.connect(cluster.clientConfig());
        try (riffle; SqlConnections pool = SqlConnections.over(riffle, 1, Duration.ofSeconds(5),
                StatementLimits.DEFAULT)) {
            try (SqlConnections.Lease lease = pool.borrow()) {
                lease.executeDdl("CREATE DATABASE " + db);
                lease.executeDdl("CREATE TABLE " + db + ".readings (id BIGINT, reading DOUBLE)");
            }
            // Decimals a DOUBLE column converts: Calcite plans the rows as a union of one row each
            // and walks it recursively, past what a small stack holds.
            StringBuilder insert = new StringBuilder("INSERT INTO " + db + ".readings VALUES ");
            for (int id = 0; id < 3000; id++) {
                insert.append(id == 0 ? "" : ", ").append("(").append(id).append(", ").append(id / 2.0).append(")");
            }
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread smallStack = new Thread(null, () -> {
                try (SqlConnections.Lease lease = pool.borrow()) {
                    lease.prepare(insert.toString());
                } catch (Throwable e) {
                    failure.set(e);
                }
            }, "small-stack", 256 << 10);
            smallStack.start();
            smallStack.join();

            assertThat(failure.get()).isInstanceOf(ServiceException.class)
                    .hasMessageContaining("nests too deeply to plan").hasMessageContaining("fewer rows per INSERT");
            assertThat(((ServiceException) failure.get()).kind()).isEqualTo(FailureKind.TOO_LARGE);
            // The connection still plans what fits.
            try (SqlConnections.Lease lease = pool.borrow()) {
                assertThat(lease.prepare("INSERT INTO " + db + ".readings VALUES (1, 0.5)").executeUpdate())
                        .isEqualTo(1);
            }
        }
    }
}
