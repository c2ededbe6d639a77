package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.explain;
import static dev.riffle.sql.SqlFixtures.explainPrepared;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class PartitionPruningIT {

    @Test
    void conditionsOnPartitionKeysSkipPartitionsAndLeaveThePlan(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("prune");
        try (Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id INT, region STRING, v INT) PARTITIONED BY (region)"
                    + " WITH ('bucket.num' = '2', 'table.auto-partition.enabled' = 'false')");
            statement.execute("CREATE TABLE " + db + ".state (id INT, region STRING, v INT,"
                    + " PRIMARY KEY (id, region) NOT ENFORCED) PARTITIONED BY (region) WITH ('bucket.num' = '2',"
                    + " 'bucket.key' = 'id', 'table.auto-partition.enabled' = 'false')");
            try (var fluss = org.apache.fluss.client.ConnectionFactory.createConnection(cluster.clientConfig());
                    var admin = fluss.getAdmin()) {
                for (String table : new String[] {"events", "state"}) {
                    for (String region : new String[] {"eu", "us", "ap"}) {
                        admin.createPartition(org.apache.fluss.metadata.TablePath.of(db, table),
                                new org.apache.fluss.metadata.PartitionSpec(java.util.Map.of("region", region)), false)
                                .get();
                    }
                }
            }
            statement.executeUpdate("INSERT INTO " + db + ".events VALUES (1, 'eu', 10), (2, 'eu', 20), (3, 'us', 30),"
                    + " (4, 'ap', 40), (5, 'ap', 50)");
            statement.executeUpdate("INSERT INTO " + db + ".state VALUES (1, 'eu', 1), (1, 'us', 2), (2, 'ap', 3)");
            statement.executeUpdate("INSERT INTO " + db + ".state VALUES (1, 'eu', 100)");

            String eu = "SELECT id, v FROM " + db + ".events WHERE region = 'eu'";
            assertThat(explain(sql, eu)).contains("LogScan[region = 'eu']").doesNotContain("$condition");
            assertThat(query(sql, eu + " ORDER BY id")).containsExactly("1|10", "2|20");

            String mixed = "SELECT id FROM " + db + ".events WHERE region IN ('us', 'ap') AND v > 35";
            // The read tests the other conditions on its batches too: nothing is left for Calcite to filter.
            assertThat(explain(sql, mixed)).contains("LogScan[region IN ('ap', 'us') AND v > 35]")
                    .doesNotContain("$condition");
            assertThat(query(sql, mixed + " ORDER BY id")).containsExactly("4", "5");
            assertThat(query(sql, "SELECT count(*) FROM " + db + ".events WHERE region = 'none'")).containsExactly("0");
            assertThat(query(sql, "SELECT count(*) FROM " + db + ".events WHERE region > 'b'")).containsExactly("3");

            // with a parameter, the partitions are chosen at each execution
            String byRegion = "SELECT v FROM " + db + ".state WHERE region = ?";
            assertThat(explainPrepared(sql, byRegion, "eu")).contains("SnapshotScan[region = ?0]");
            try (PreparedStatement prepared = sql.prepareStatement(byRegion)) {
                prepared.setString(1, "eu");
                assertThat(SqlFixtures.rows(prepared.executeQuery())).containsExactly("100");
                prepared.setString(1, "ap");
                assertThat(SqlFixtures.rows(prepared.executeQuery())).containsExactly("3");
            }
            // a full key still wins: a point lookup
            assertThat(explain(sql, "SELECT v FROM " + db + ".state WHERE region = 'us' AND id = 1"))
                    .contains("PointLookup");
            assertThat(query(sql, "SELECT v FROM " + db + ".state WHERE region = 'us' AND id = 1")).containsExactly("2");
        }
    }
}
