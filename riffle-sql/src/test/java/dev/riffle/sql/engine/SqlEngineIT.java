package dev.riffle.sql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.statement.StatementLimits;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The embedded engine, as a server uses it: no URL, the caller's Fluss connection, each dialect's
 * connections over one session; closing the engine frees its memory and leaves the caller's
 * connection and allocator open.
 */
@ExtendWith(LocalClusterExtension.class)
class SqlEngineIT {

    @Test
    void connectionsOfEachDialectShareTheCallersFlussConnection(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("engine");
        try (org.apache.fluss.client.Connection fluss = ConnectionFactory.createConnection(cluster.clientConfig());
                BufferAllocator allocator = new RootAllocator()) {
            Riffle riffle = Riffle.using(fluss, allocator);
            try (SqlEngine engine = SqlEngine.over(riffle, StatementLimits.DEFAULT)) {
                try (Connection calcite = engine.connect(Dialect.CALCITE); Statement statement = calcite.createStatement()) {
                    statement.execute("CREATE DATABASE " + db);
                    statement.execute("CREATE TABLE " + db + ".t (id INT, v STRING)");
                    assertThat(statement.executeUpdate("INSERT INTO " + db + ".t VALUES (1, 'a'), (2, 'b')"))
                            .isEqualTo(2);
                }
                assertThat(allocator.getChildAllocators()).as("the engine's memory, a child of the caller's")
                        .hasSize(1);
                try (Connection pg = engine.connect(Dialect.POSTGRESQL); Statement statement = pg.createStatement();
                        // PostgreSQL's own spelling: a cast with ::, string_agg
                        ResultSet rs = statement.executeQuery("SELECT count(*)::text AS n, string_agg(v, ',' ORDER BY v)"
                                + " AS vs FROM " + db + ".t")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString("n")).isEqualTo("2");
                    assertThat(rs.getString("vs")).isEqualTo("a,b");
                }
                try (Connection calcite = engine.connect(Dialect.CALCITE); Statement statement = calcite.createStatement();
                        ResultSet plan = statement.executeQuery("EXPLAIN PLAN FOR SELECT v FROM " + db + ".t WHERE id = 1")) {
                    assertThat(plan.next()).isTrue();
                    assertThat(plan.getString(1)).contains("FlussScan");
                }
            }
            assertThat(allocator.getChildAllocators()).as("closed with the engine").isEmpty();
            assertThat(allocator.getAllocatedMemory()).isZero();
            assertThat(fluss.getAdmin().listDatabases().get()).as("the caller's connection outlives the engine")
                    .contains(db);
        }
    }

    @Test
    void theJdbcUrlNamesTheFirstBootstrapServer(LocalCluster cluster) {
        assertThat(SqlEngine.jdbcUrl(cluster.clientConfig())).isEqualTo("jdbc:riffle://" + cluster.bootstrapServers());
    }
}
