package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.sql.engine.SqlEngine;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A statement kept for reuse knows when a table it was planned for was dropped and created again, or altered. */
@ExtendWith(LocalClusterExtension.class)
class PreparedTablesIT {

    @Test
    void aKeptStatementIsStaleOnceItsTableIsCreatedAgainOrAltered(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("kept");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT, v STRING)");
            try (PreparedStatement count = sql.prepareStatement("SELECT count(*) FROM " + db + ".t");
                    PreparedStatement insert = sql.prepareStatement("INSERT INTO " + db + ".t VALUES (?, ?)")) {
                assertThat(SqlEngine.isStale(count)).isFalse();
                assertThat(SqlEngine.isStale(insert)).isFalse();
                statement.execute("DROP TABLE " + db + ".t");
                statement.execute("CREATE TABLE " + db + ".t (id INT, v STRING)");
                Awaitility.await().untilAsserted(() -> assertThat(SqlEngine.isStale(count)).isTrue());
                assertThat(SqlEngine.isStale(insert)).isTrue();
            }
            try (PreparedStatement all = sql.prepareStatement("SELECT * FROM " + db + ".t")) {
                assertThat(SqlEngine.isStale(all)).isFalse();
                statement.execute("ALTER TABLE " + db + ".t ADD extra BIGINT");
                Awaitility.await().untilAsserted(() -> assertThat(SqlEngine.isStale(all)).isTrue());
            }
        }
    }
}
