package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.connect;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.lake.tiering.TieringService;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Predicate;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Seeded random filters over the two reads filters are pushed into: a datalake primary-key table
 * read as lake snapshot + log tail (conditions go into the union read, applied after the merge) and
 * a partitioned log table (conditions on the partition key choose partitions). Every answer equals
 * a plain Java filter over the rows the test wrote; EXPLAIN must show the pushdown happened.
 */
@ExtendWith(LocalClusterExtension.class)
class RandomPushdownIT {
    private static final long SEED = 20261130L;
    private static final String[] PARTITIONS = {"a", "b", "c"};

    record Row(int k, String p, String s, Integer v) {
        String render() {
            return k + "|" + p + "|" + s + "|" + v;
        }
    }

    @Test
    void randomFiltersOverUnionAndPartitionedReadsMatchAJavaFilter(LocalCluster cluster, Connection fluss,
            TestNames names) throws Exception {
        Random random = new Random(SEED);
        String db = names.database("pushdown");
        Map<List<Object>, Row> lake = new LinkedHashMap<>();
        List<Row> log = new ArrayList<>();
        try (java.sql.Connection sql = connect(cluster); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".state (k INT, p STRING, s STRING, v INT,"
                    + " PRIMARY KEY (k, p) NOT ENFORCED) PARTITIONED BY (p) WITH ('bucket.num' = '2',"
                    + " 'bucket.key' = 'k', 'table.auto-partition.enabled' = 'false',"
                    + " 'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s')");
            statement.execute("CREATE TABLE " + db + ".events (k INT, p STRING, s STRING, v INT) PARTITIONED BY (p)"
                    + " WITH ('bucket.num' = '2', 'table.auto-partition.enabled' = 'false')");
            try (Admin admin = fluss.getAdmin()) {
                for (String table : new String[] {"state", "events"}) {
                    for (String p : PARTITIONS) {
                        admin.createPartition(TablePath.of(db, table), new PartitionSpec(Map.of("p", p)), false).get();
                    }
                }
            }
            // first half, tiered into the lake
            upsert(sql, db, lake, random, 300);
            try (TieringService tiering = TieringService.builder().clientConfig(cluster.clientConfig())
                    .lake("paimon", cluster.lakeCatalogOptions()).pollInterval(Duration.ofMillis(200)).start()) {
                String expected = String.valueOf(lake.size());
                await().atMost(Duration.ofSeconds(90)).ignoreExceptionsMatching(e -> String.valueOf(e.getMessage())
                        .contains("no lake snapshot yet")).untilAsserted(() -> assertThat(
                                query(sql, "SELECT count(*) FROM " + db + ".\"state$lake\"")).containsExactly(expected));
            }
            // second half only in the log: updates and deletes of lake rows, new rows
            upsert(sql, db, lake, random, 150);
            for (int i = 0; i < 400; i++) {
                log.add(randomRow(random));
            }
            insert(sql, db + ".events", log);

            for (int round = 0; round < 30; round++) {
                List<String> clauses = new ArrayList<>();
                List<Object> params = new ArrayList<>();
                Predicate<Row> expected = randomFilter(random, clauses, params);
                String where = " WHERE " + String.join(" AND ", clauses);
                check(sql, db + ".state", where, params, lake.values().stream().filter(expected).toList(), round);
                check(sql, db + ".events", where, params, log.stream().filter(expected).toList(), round);
            }
            // the pushdown happened: conditions are in the scans
            assertThat(SqlFixtures.explain(sql, "SELECT * FROM " + db + ".state WHERE s LIKE 's1%' AND v > 3"))
                    .contains("UnionScan[s LIKE 's1'% AND v > 3]").doesNotContain("$condition");
            assertThat(SqlFixtures.explain(sql, "SELECT * FROM " + db + ".events WHERE p = 'a' AND v > 3"))
                    .contains("LogScan[p = 'a' AND v > 3]").doesNotContain("$condition");
        }
    }

    private static void check(java.sql.Connection sql, String table, String where, List<Object> params,
            List<Row> matching, int round) throws Exception {
        String query = "SELECT k, p, s, v FROM " + table + where;
        List<String> want = matching.stream()
                .sorted(Comparator.comparing(Row::k).thenComparing(Row::p).thenComparing(Row::render))
                .map(Row::render).toList();
        try (PreparedStatement statement = sql.prepareStatement(query + " ORDER BY k, p, 4, 3")) {
            for (int i = 0; i < params.size(); i++) {
                statement.setObject(i + 1, params.get(i));
            }
            List<String> got = SqlFixtures.rows(statement.executeQuery());
            assertThat(got).as("round %s: %s %s", round, query, params).containsExactlyInAnyOrderElementsOf(want);
        }
    }

    private static Predicate<Row> randomFilter(Random random, List<String> clauses, List<Object> params) {
        Predicate<Row> expected = row -> true;
        int terms = 1 + random.nextInt(3);
        for (int term = 0; term < terms; term++) {
            switch (random.nextInt(9)) {
                case 0 -> {
                    String p = PARTITIONS[random.nextInt(PARTITIONS.length)];
                    clauses.add("p = ?");
                    params.add(p);
                    expected = expected.and(r -> r.p().equals(p));
                }
                case 1 -> {
                    clauses.add("p IN ('a', 'c')");
                    expected = expected.and(r -> !r.p().equals("b"));
                }
                case 2 -> {
                    int lo = random.nextInt(100);
                    int hi = lo + random.nextInt(40);
                    clauses.add("k BETWEEN " + lo + " AND " + hi);
                    expected = expected.and(r -> r.k() >= lo && r.k() <= hi);
                }
                case 3 -> {
                    int v = random.nextInt(10);
                    clauses.add("v >= " + v);
                    expected = expected.and(r -> r.v() != null && r.v() >= v);
                }
                case 4 -> {
                    clauses.add("v IS NULL");
                    expected = expected.and(r -> r.v() == null);
                }
                case 5 -> {
                    String prefix = "s" + random.nextInt(3);
                    clauses.add("s LIKE '" + prefix + "%'");
                    expected = expected.and(r -> r.s().startsWith(prefix));
                }
                case 6 -> {
                    String suffix = String.valueOf(random.nextInt(10));
                    clauses.add("s LIKE '%" + suffix + "'");
                    expected = expected.and(r -> r.s().endsWith(suffix));
                }
                case 7 -> {
                    int v = random.nextInt(10);
                    clauses.add("(v < " + v + " OR p > 'b')");
                    expected = expected.and(r -> (r.v() != null && r.v() < v) || r.p().compareTo("b") > 0);
                }
                default -> {
                    int k = random.nextInt(100);
                    clauses.add("k <> ?");
                    params.add(k);
                    expected = expected.and(r -> r.k() != k);
                }
            }
        }
        return expected;
    }

    private static Row randomRow(Random random) {
        return new Row(random.nextInt(100), PARTITIONS[random.nextInt(PARTITIONS.length)], "s" + random.nextInt(30),
                random.nextInt(6) == 0 ? null : random.nextInt(10));
    }

    /** Upserts (and some deletes) into the PK table through SQL, tracking the newest row per key. */
    private static void upsert(java.sql.Connection sql, String db, Map<List<Object>, Row> state, Random random,
            int changes) throws Exception {
        List<Row> upserts = new ArrayList<>();
        for (int i = 0; i < changes; i++) {
            Row row = randomRow(random);
            List<Object> key = List.of(row.k(), row.p());
            if (random.nextInt(8) == 0 && state.containsKey(key)) {
                if (!upserts.isEmpty()) {
                    insert(sql, db + ".state", upserts);
                    upserts.clear();
                }
                try (PreparedStatement delete = sql.prepareStatement("DELETE FROM " + db
                        + ".state WHERE k = ? AND p = ?")) {
                    delete.setInt(1, row.k());
                    delete.setString(2, row.p());
                    assertThat(delete.executeUpdate()).isEqualTo(1);
                }
                state.remove(key);
                continue;
            }
            upserts.add(row);
            state.put(key, row);
        }
        if (!upserts.isEmpty()) {
            insert(sql, db + ".state", upserts);
        }
    }

    /** One multi-row INSERT per call (a statement per row would wait for Fluss's acknowledgement each time). */
    private static void insert(java.sql.Connection sql, String table, List<Row> rows) throws Exception {
        List<String> values = new ArrayList<>();
        for (Row row : rows) {
            values.add("(" + row.k() + ", '" + row.p() + "', '" + row.s() + "', " + row.v() + ")");
        }
        try (Statement statement = sql.createStatement()) {
            assertThat(statement.executeUpdate("INSERT INTO " + table + " VALUES " + String.join(", ", values)))
                    .isEqualTo(rows.size());
        }
    }
}
