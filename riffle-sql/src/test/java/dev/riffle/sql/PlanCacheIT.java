package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.sql.catalog.FlussRootSchema;
import dev.riffle.sql.exec.PlanCache;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.calcite.jdbc.CalciteConnection;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A plain {@code Statement} that runs the same query text again is planned once per connection,
 * answers as if planned anew (the table's current schema, the connection's current default
 * schema), and a plan whose constants failed is not handed out again.
 */
@ExtendWith(LocalClusterExtension.class)
class PlanCacheIT {

    @Test
    void aRepeatedQueryIsPlannedOnceAndStillAnswersForTheTableAsItIsNow(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("plans");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".kv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)");
            statement.execute("INSERT INTO " + db + ".kv VALUES (1, 'one'), (2, 'two')");
            PlanCache plans = plans(sql);
            int before = plans.size();

            String point = "SELECT * FROM " + db + ".kv WHERE id = 1";
            assertThat(query(sql, point)).containsExactly("1|one");
            assertThat(plans.size()).as("plans after the first run").isEqualTo(before + 1);
            for (int i = 0; i < 5; i++) {
                assertThat(query(sql, point)).containsExactly("1|one");
            }
            assertThat(plans.size()).as("plans after running the same text again").isEqualTo(before + 1);
            // New data is read by the kept plan: it is a plan, not an answer.
            statement.execute("INSERT INTO " + db + ".kv VALUES (1, 'uno')");
            assertThat(query(sql, point)).containsExactly("1|uno");
            assertThat(plans.size()).as("DML is not kept").isEqualTo(before + 1);

            // Once the table is altered, the same text answers with its new column.
            statement.execute("ALTER TABLE " + db + ".kv ADD extra BIGINT");
            Awaitility.await().untilAsserted(() -> assertThat(query(sql, point)).containsExactly("1|uno|null"));
        }
    }

    @Test
    void theSameTextInAnotherDefaultSchemaIsPlannedForThatSchema(LocalCluster cluster, TestNames names)
            throws Exception {
        String first = names.database("first");
        String second = names.database("second");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            for (String db : List.of(first, second)) {
                statement.execute("CREATE DATABASE " + db);
                statement.execute("CREATE TABLE " + db + ".t (id INT, v STRING)");
            }
            statement.execute("INSERT INTO " + first + ".t VALUES (1, 'a')");
            statement.execute("INSERT INTO " + second + ".t VALUES (1, 'b'), (2, 'c')");
            sql.setSchema(first);
            assertThat(query(sql, "SELECT count(*) FROM t")).containsExactly("1");
            sql.setSchema(second);
            assertThat(query(sql, "SELECT count(*) FROM t")).containsExactly("2");
            sql.setSchema(first);
            assertThat(query(sql, "SELECT count(*) FROM t")).containsExactly("1");
        }
    }

    @Test
    void aQueryWhoseConstantCannotBeConvertedFailsTheSameWayEveryTime(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("badconst");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id BIGINT, v STRING)");
            statement.execute("INSERT INTO " + db + ".t VALUES (1, 'a')");
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> query(sql, "SELECT v FROM " + db + ".t WHERE id = 'abc'"))
                        .as("run %d", i + 1).isInstanceOf(SQLException.class)
                        .hasMessageContaining("cannot be converted");
            }
        }
    }

    @Test
    void aQueryOfConstantsIsKeptAndPreparedAlike(LocalCluster cluster) throws Exception {
        try (Connection sql = connect(cluster)) {
            for (int i = 0; i < 2; i++) {
                assertThat(query(sql, "SELECT 1")).containsExactly("1");
                try (java.sql.PreparedStatement statement = sql.prepareStatement("SELECT 1");
                        java.sql.ResultSet rows = statement.executeQuery()) {
                    assertThat(SqlFixtures.rows(rows)).containsExactly("1");
                }
            }
        }
    }

    private static PlanCache plans(Connection sql) throws SQLException {
        return sql.unwrap(CalciteConnection.class).getRootSchema().unwrap(FlussRootSchema.class).plans();
    }
}
