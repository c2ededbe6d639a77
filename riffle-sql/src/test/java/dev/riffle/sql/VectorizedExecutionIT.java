package dev.riffle.sql;

import static dev.riffle.sql.SqlFixtures.explain;
import static dev.riffle.sql.SqlFixtures.query;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.sql.catalog.FlussRootSchema;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Aggregates and top-Ns computed on Arrow batches ({@code VectorizedAggregate},
 * {@code VectorizedTopN}) answer as Calcite's row-at-a-time operators do: seeded random GROUP BY
 * queries (any number of keys of every type, COUNT, COUNT DISTINCT, SUM, MIN, MAX, AVG, nulls,
 * pushed filters, a filter matching nothing) and ORDER BY ... LIMIT queries (keys of every type in
 * either direction, NULLS FIRST/LAST, OFFSET, projections) run on a connection with vectorized
 * execution and on one with {@code vectorized=false}, over a log table and over a primary-key table
 * with updates and deletes; both answers must be equal, and equal to a plain Java aggregation or
 * sort of the rows the test wrote where the test computes one.
 */
@ExtendWith(LocalClusterExtension.class)
class VectorizedExecutionIT {
    private static final long SEED = 20261203L;
    private static final String COLUMNS = "id INT, ti TINYINT, si SMALLINT, i INT, b BIGINT, f FLOAT, d DOUBLE,"
            + " amt DECIMAL(12, 2), s STRING, flag BOOLEAN, dt DATE, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(6)";
    private static final List<String> KEYS = List.of("ti", "si", "i", "b", "amt", "s", "flag", "dt", "ts", "ltz");
    /**
     * Values of {@code s}: group keys that are empty, share prefixes or take several UTF-8 bytes,
     * and more of them than a group table's first size.
     */
    private static final String[] STRINGS = {"s0", "s1", "s2", "", "s10", "s5", "é", "日本語"};
    /** Keys the Java oracle renders as JDBC does. */
    private static final Set<String> ORACLE_KEYS = Set.of("ti", "si", "i", "b", "s", "flag");

    /** A row as written; null fields are SQL NULL. Floats are multiples of 0.25, so every sum is exact in any order. */
    record Row(int id, Byte ti, Short si, Integer i, Long b, Float f, Double d, BigDecimal dec, String s, Boolean flag,
            LocalDate day, String ts, String ltz) {
        Object get(String column) {
            return switch (column) {
                case "ti" -> ti;
                case "si" -> si;
                case "i" -> i;
                case "b" -> b;
                case "f" -> f;
                case "d" -> d;
                case "amt" -> dec;
                case "s" -> s;
                case "flag" -> flag;
                default -> throw new IllegalArgumentException(column);
            };
        }
    }

    /** An aggregate of a random query, with the Java oracle's value for it where the test computes one. */
    record Aggregate(String sql, Function<List<Row>, Object> oracle) {}

    @Test
    void randomAggregatesAnswerAsCalciteDoesAndAsAJavaAggregation(LocalCluster cluster,
            org.apache.fluss.client.Connection fluss, TestNames names) throws Exception {
        Random random = new Random(SEED);
        String db = names.database("vagg");
        try (Connection vectorized = connect(cluster, true); Connection rows = connect(cluster, false)) {
            Tables tables = Tables.create(vectorized, fluss, db, random);
            int vectorizedPlans = 0;
            int mixedDistinctPlans = 0;
            int errors = 0;
            for (String table : List.of("events", "users")) {
                List<Row> content = tables.content(table);
                for (int round = 0; round < 30; round++) {
                    List<String> keys = new ArrayList<>(KEYS);
                    Collections.shuffle(keys, random);
                    keys = keys.subList(0, random.nextInt(4));
                    List<Aggregate> aggregates = new ArrayList<>();
                    int count = 1 + random.nextInt(4);
                    for (int a = 0; a < count; a++) {
                        aggregates.add(aggregate(random));
                    }
                    Filter filter = filter(random);
                    List<String> select = new ArrayList<>(keys);
                    aggregates.forEach(a -> select.add(a.sql()));
                    String sql = "SELECT " + String.join(", ", select) + " FROM " + db + "." + table
                            + filter.sql() + (keys.isEmpty() ? "" : " GROUP BY " + String.join(", ", keys));
                    String label = String.format(Locale.ROOT, "%s round %d: %s", table, round, sql);

                    String plan = explain(vectorized, sql);
                    if (plan.contains("VectorizedAggregate")) {
                        vectorizedPlans++;
                        mixedDistinctPlans += plan.contains("COUNT(DISTINCT ") && count > 1 ? 1 : 0;
                    }
                    assertThat(explain(rows, sql)).as(label).doesNotContain("VectorizedAggregate");
                    List<String> answer = answer(vectorized, sql);
                    assertThat(answer).as(label + "\nplan:\n" + plan).isEqualTo(answer(rows, sql));
                    if (answer.equals(List.of("error: out of range"))) {
                        errors++;
                        continue;
                    }
                    if (ORACLE_KEYS.containsAll(keys) && aggregates.stream().allMatch(a -> a.oracle() != null)) {
                        assertThat(answer).as(label + " (Java oracle)")
                                .isEqualTo(oracle(content.stream().filter(filter.test()).toList(), keys, aggregates));
                    }
                }
            }
            assertThat(vectorizedPlans).as("queries planned as VectorizedAggregate").isGreaterThan(30);
            assertThat(mixedDistinctPlans).as("VectorizedAggregates counting DISTINCT beside other aggregates")
                    .isGreaterThan(5);
            // sums (and averages) of TINYINT, SMALLINT and INTEGER are BIGINTs, as in PostgreSQL: none is out of range
            assertThat(errors).as("queries whose sum is out of range").isZero();
            assertThat(vectorized.unwrap(CalciteConnection.class).getRootSchema().unwrap(FlussRootSchema.class)
                    .session().riffle().allocator().getAllocatedMemory()).as("Arrow memory after the queries")
                    .isZero();
        }
    }

    @Test
    void randomAggregatesOfComputedValuesAnswerAsCalciteDoes(LocalCluster cluster,
            org.apache.fluss.client.Connection fluss, TestNames names) throws Exception {
        Random random = new Random(SEED + 2);
        String db = names.database("vexpr");
        try (Connection vectorized = connect(cluster, true); Connection rows = connect(cluster, false)) {
            Tables.create(vectorized, fluss, db, random);
            int vectorizedPlans = 0;
            int residualPlans = 0;
            for (String table : List.of("events", "users")) {
                for (int round = 0; round < 30; round++) {
                    List<String> keys = new ArrayList<>();
                    if (random.nextBoolean()) {
                        keys.add(random.nextBoolean() ? KEYS.get(random.nextInt(KEYS.size())) : integerExpression(random, 1));
                    }
                    List<String> select = new ArrayList<>(keys);
                    int count = 1 + random.nextInt(3);
                    for (int a = 0; a < count; a++) {
                        select.add(computedAggregate(random));
                    }
                    String sql = "SELECT " + String.join(", ", select) + " FROM " + db + "." + table
                            + filter(random).sql()
                            + (keys.isEmpty() ? "" : " GROUP BY " + String.join(", ", keys));
                    String label = String.format(Locale.ROOT, "%s round %d: %s", table, round, sql);

                    String plan = explain(vectorized, sql);
                    if (plan.contains("VectorizedAggregate")) {
                        vectorizedPlans++;
                        residualPlans += plan.contains("filter=[") ? 1 : 0;
                    }
                    assertThat(explain(rows, sql)).as(label).doesNotContain("VectorizedAggregate");
                    assertThat(answer(vectorized, sql)).as(label + "\nplan:\n" + plan).isEqualTo(answer(rows, sql));
                }
            }
            assertThat(vectorizedPlans).as("queries planned as VectorizedAggregate").isGreaterThan(25);
            assertThat(residualPlans).as("of those, with a condition checked on the batches").isGreaterThan(3);
            assertThat(vectorized.unwrap(CalciteConnection.class).getRootSchema().unwrap(FlussRootSchema.class)
                    .session().riffle().allocator().getAllocatedMemory()).as("Arrow memory after the queries")
                    .isZero();
        }
    }

    /**
     * An aggregate of a computed value. Sums are of integers (a BIGINT wrapping as a {@code long}) or of
     * doubles that are exact in any order (multiples of 0.25 well inside a double's precision): the
     * rows of a read come in no fixed order, and a float sum depends on it.
     */
    private static String computedAggregate(Random random) {
        return switch (random.nextInt(7)) {
            case 0, 1 -> "sum(" + integerExpression(random, 2) + ")";
            case 2 -> "sum(CAST(" + floatingExpression(random, 2) + " AS DOUBLE))";
            case 3 -> "min(" + (random.nextBoolean() ? integerExpression(random, 2) : floatingExpression(random, 2)) + ")";
            case 4 -> "max(" + (random.nextBoolean() ? integerExpression(random, 2) : floatingExpression(random, 2)) + ")";
            case 5 -> "count(" + integerExpression(random, 1) + ")";
            default -> "avg(" + integerExpression(random, 1) + ")";
        };
    }

    /**
     * Integer arithmetic over the integer columns: products of BIGINTs wrap around as {@code long}s,
     * {@code si * 3000009} (an INTEGER) as {@code int}s for most rows.
     */
    private static String integerExpression(Random random, int depth) {
        if (depth == 0 || random.nextInt(4) == 0) {
            String[] leaves = {"ti", "si", "i", "b", "3", "1000003", "(si * 3000009)"};
            return leaves[random.nextInt(leaves.length)];
        }
        return switch (random.nextInt(6)) {
            case 0 -> "-(" + integerExpression(random, depth - 1) + ")";
            case 1 -> "CAST(" + integerExpression(random, depth - 1) + " AS BIGINT)";
            case 2 -> "CAST(" + integerExpression(random, depth - 1) + " AS INTEGER)";
            default -> "(" + integerExpression(random, depth - 1) + " " + "+-*".charAt(random.nextInt(3)) + " "
                    + integerExpression(random, depth - 1) + ")";
        };
    }

    /** Floating-point arithmetic: REAL and DOUBLE columns, integers converted to them, products with small integers. */
    private static String floatingExpression(Random random, int depth) {
        if (depth == 0 || random.nextInt(4) == 0) {
            String[] leaves = {"f", "d", "CAST(i AS DOUBLE)", "CAST(si AS REAL)", "CAST(f AS DOUBLE)"};
            return leaves[random.nextInt(leaves.length)];
        }
        return switch (random.nextInt(5)) {
            case 0 -> "-(" + floatingExpression(random, depth - 1) + ")";
            case 1 -> "(" + floatingExpression(random, depth - 1) + " * " + new String[] {"ti", "i", "2"}[random.nextInt(3)]
                    + ")";
            default -> "(" + floatingExpression(random, depth - 1) + " " + "+-".charAt(random.nextInt(2)) + " "
                    + floatingExpression(random, depth - 1) + ")";
        };
    }

    /** The two tables of a random test, written with the rows they hold. */
    record Tables(List<Row> events, Map<Integer, Row> users) {
        /** Creates {@code db.events} (a log table, 3,000 rows) and {@code db.users} (a PK table, updated and deleted). */
        static Tables create(Connection sql, org.apache.fluss.client.Connection fluss, String db, Random random)
                throws Exception {
            try (Statement statement = sql.createStatement()) {
                statement.execute("CREATE DATABASE " + db);
                statement.execute("CREATE TABLE " + db + ".events (" + COLUMNS + ") WITH ('bucket.num' = '3')");
                statement.execute("CREATE TABLE " + db + ".users (" + COLUMNS + ", PRIMARY KEY (id) NOT ENFORCED)"
                        + " WITH ('bucket.num' = '3')");
            }
            List<Row> events = new ArrayList<>();
            for (int i = 0; i < 3000; i++) {
                events.add(row(random, i));
            }
            write(fluss, db, "events", events, null);
            Map<Integer, Row> users = new LinkedHashMap<>();
            List<Row> written = new ArrayList<>();
            for (int i = 0; i < 1500; i++) {
                Row row = row(random, random.nextInt(900));
                users.put(row.id(), row);
                written.add(row);
            }
            List<Row> deleted = new ArrayList<>();
            for (int id : new ArrayList<>(users.keySet())) {
                if (random.nextInt(6) == 0) {
                    deleted.add(users.remove(id));
                }
            }
            write(fluss, db, "users", written, deleted);
            return new Tables(events, users);
        }

        List<Row> content(String table) {
            return table.equals("events") ? events : List.copyOf(users.values());
        }
    }

    @Test
    void randomTopNsAnswerAsCalciteDoesAndAsAJavaSort(LocalCluster cluster, org.apache.fluss.client.Connection fluss,
            TestNames names) throws Exception {
        Random random = new Random(SEED + 1);
        String db = names.database("vtop");
        List<String> columns = List.of("id", "ti", "si", "i", "b", "f", "d", "amt", "s", "flag", "dt", "ts", "ltz");
        try (Connection vectorized = connect(cluster, true); Connection rows = connect(cluster, false)) {
            Tables tables = Tables.create(vectorized, fluss, db, random);
            int vectorizedPlans = 0;
            int oracled = 0;
            for (String table : List.of("events", "users")) {
                for (int round = 0; round < 30; round++) {
                    List<String> keys = new ArrayList<>(KEYS);
                    keys.add("f");
                    keys.add("d");
                    Collections.shuffle(keys, random);
                    keys = new ArrayList<>(keys.subList(0, 1 + random.nextInt(3)));
                    // Half the rounds end the order with the unique id, so whole rows are in one order; the
                    // others select only the keys, so rows that tie are equal anyway.
                    boolean total = random.nextBoolean();
                    List<String> select;
                    if (total) {
                        keys.add("id");
                        List<String> shuffled = new ArrayList<>(columns);
                        Collections.shuffle(shuffled, random);
                        select = shuffled.subList(0, 1 + random.nextInt(4));
                    } else {
                        select = keys;
                    }
                    List<String> order = new ArrayList<>();
                    List<Comparator<Row>> comparators = new ArrayList<>();
                    for (String key : keys) {
                        boolean descending = random.nextBoolean();
                        int nulls = random.nextInt(3); // 0: the default for the direction, 1: FIRST, 2: LAST
                        boolean nullsFirst = nulls == 0 ? descending : nulls == 1;
                        order.add(key + (descending ? " DESC" : "") + (nulls == 1 ? " NULLS FIRST"
                                : nulls == 2 ? " NULLS LAST" : ""));
                        comparators.add(oracleOrder(key, descending, nullsFirst));
                    }
                    int limit = random.nextInt(10) == 0 ? 5000 : random.nextInt(40);
                    int offset = random.nextInt(4) == 0 ? random.nextInt(30) : -1;
                    Filter filter = filter(random);
                    String sql = "SELECT " + String.join(", ", select) + " FROM " + db + "." + table + filter.sql()
                            + " ORDER BY " + String.join(", ", order) + " LIMIT " + limit
                            + (offset >= 0 ? " OFFSET " + offset : "");
                    String label = String.format(Locale.ROOT, "%s round %d: %s", table, round, sql);

                    String plan = explain(vectorized, sql);
                    if (plan.contains("VectorizedTopN")) {
                        vectorizedPlans++;
                    }
                    assertThat(explain(rows, sql)).as(label).doesNotContain("VectorizedTopN");
                    List<String> answer = query(vectorized, sql);
                    assertThat(answer).as(label + "\nplan:\n" + plan).isEqualTo(query(rows, sql));
                    if (ORACLE_KEYS.containsAll(keys.stream().filter(k -> !k.equals("id")).toList())
                            && ORACLE_KEYS.containsAll(select.stream().filter(k -> !k.equals("id")).toList())) {
                        oracled++;
                        Comparator<Row> comparator = comparators.stream().reduce(Comparator::thenComparing).orElseThrow();
                        List<String> expected = tables.content(table).stream().filter(filter.test()).sorted(comparator)
                                .skip(Math.max(offset, 0)).limit(limit)
                                .map(r -> String.join("|", select.stream().map(c -> c.equals("id")
                                        ? String.valueOf(r.id()) : String.valueOf(r.get(c))).toList()))
                                .toList();
                        assertThat(answer).as(label + " (Java oracle)").isEqualTo(expected);
                    }
                }
            }
            assertThat(vectorizedPlans).as("queries planned as VectorizedTopN").isGreaterThan(40);
            assertThat(oracled).as("queries checked against the Java sort").isGreaterThan(5);
            assertThat(vectorized.unwrap(CalciteConnection.class).getRootSchema().unwrap(FlussRootSchema.class)
                    .session().riffle().allocator().getAllocatedMemory()).as("Arrow memory after the queries")
                    .isZero();
        }
    }

    /** SQL's order of one column for the Java oracle: values naturally (reversed when descending), nulls as told. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Comparator<Row> oracleOrder(String column, boolean descending, boolean nullsFirst) {
        Comparator<Comparable> values = descending ? Comparator.<Comparable>reverseOrder() : Comparator.<Comparable>naturalOrder();
        Comparator<Comparable> withNulls = nullsFirst ? Comparator.nullsFirst(values) : Comparator.nullsLast(values);
        return Comparator.comparing(row -> column.equals("id") ? (Comparable) row.id() : (Comparable) row.get(column),
                withNulls);
    }

    @Test
    void explainShowsWhereVectorizedExecutionEnds(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("vplan");
        try (Connection vectorized = connect(cluster, true); Connection rows = connect(cluster, false);
                Statement statement = vectorized.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (k STRING, v BIGINT, w INT) WITH ('bucket.num' = '2')");
            statement.execute("INSERT INTO " + db + ".t VALUES ('a', 1, 1), ('a', 2, 2), ('b', 5, 3), ('c', NULL, 4)");
            String top = "SELECT k, count(*) AS n, sum(v) AS total FROM " + db + ".t WHERE w > 1 GROUP BY k"
                    + " ORDER BY total DESC NULLS LAST LIMIT 2";

            String plan = explain(vectorized, top);
            assertThat(plan).contains("VectorizedAggregate").contains("group [k] aggregates [COUNT(*), SUM(v)]")
                    .contains("w > 1").doesNotContain("EnumerableAggregate");
            // The sort above the groups is Calcite's, one level up.
            assertThat(plan.indexOf("EnumerableLimitSort") + plan.indexOf("EnumerableSort") + 1)
                    .isLessThan(plan.indexOf("VectorizedAggregate"));
            assertThat(query(vectorized, top)).containsExactly("b|1|5", "a|1|2");
            assertThat(explain(rows, top)).contains("EnumerableAggregate").doesNotContain("VectorizedAggregate");
            assertThat(query(rows, top)).containsExactly("b|1|5", "a|1|2");

            // Arithmetic under the aggregate is computed on the batches too; a function is Calcite's, and
            // so is the aggregate over it.
            String computed = "SELECT k, sum(v * 2 - w) FROM " + db + ".t GROUP BY k";
            assertThat(explain(vectorized, computed)).contains("VectorizedAggregate")
                    .contains("aggregates [SUM((v * 2) - w)]").doesNotContain("EnumerableAggregate");
            assertThat(sorted(query(vectorized, computed))).containsExactly("a|3", "b|7", "c|null");
            // So is a condition the scan cannot take: it is checked on the batches before the aggregate.
            String residual = "SELECT k, sum(v) FROM " + db + ".t WHERE v > w OR w * 2 = 8 GROUP BY k";
            assertThat(explain(vectorized, residual)).contains("VectorizedAggregate")
                    .contains("filter=[(v > CAST(w AS BIGINT)) OR (w * 2 = 8)]").doesNotContain("EnumerableAggregate");
            assertThat(sorted(query(vectorized, residual))).containsExactly("b|5", "c|null");
            assertThat(sorted(query(rows, residual))).containsExactly("b|5", "c|null");
            String function = "SELECT k, sum(char_length(k) * v) FROM " + db + ".t GROUP BY k";
            assertThat(explain(vectorized, function)).contains("EnumerableAggregate")
                    .doesNotContain("VectorizedAggregate");
            assertThat(sorted(query(vectorized, function))).containsExactly("a|3", "b|5", "c|null");

            // COUNT(DISTINCT) beside other aggregates, over the scan that took the filter and the columns
            // (Calcite's own plan expands it into grouping sets).
            String distinct = "SELECT k, count(DISTINCT v), count(*), max(w) FROM " + db + ".t WHERE w > 1 GROUP BY k";
            assertThat(explain(vectorized, distinct)).contains("VectorizedAggregate").contains("LogScan[w > 1]")
                    .contains("columns=[[k, v, w]]").contains("aggregates [COUNT(DISTINCT v), COUNT(*), MAX(w)]")
                    .doesNotContain("EnumerableAggregate");
            assertThat(sorted(query(vectorized, distinct))).containsExactly("a|1|1|2", "b|1|1|3", "c|0|1|4");
            assertThat(explain(rows, distinct)).contains("groups=[[");
            assertThat(sorted(query(rows, distinct))).containsExactly("a|1|1|2", "b|1|1|3", "c|0|1|4");
            String fewerColumns = "SELECT count(DISTINCT k), sum(v) FROM " + db + ".t WHERE w > 1";
            assertThat(explain(vectorized, fewerColumns)).contains("VectorizedAggregate").contains("columns=[[k, v]]");
            assertThat(query(vectorized, fewerColumns)).containsExactly("3|7");
            // SUM(DISTINCT) is Calcite's.
            String sumDistinct = "SELECT sum(DISTINCT w), count(*) FROM " + db + ".t";
            assertThat(explain(vectorized, sumDistinct)).doesNotContain("VectorizedAggregate");
            assertThat(query(vectorized, sumDistinct)).containsExactly("10|4");

            // No GROUP BY over no row is still one row.
            assertThat(query(vectorized, "SELECT count(*), sum(v), min(k) FROM " + db + ".t WHERE w > 100"))
                    .containsExactly("0|null|null");

            // HAVING that compares integer outputs with integer constants is checked on the groups
            // before they become rows (a null sum meets no comparison); any other stays Calcite's.
            String having = "SELECT k, count(*) AS n, sum(v) FROM " + db + ".t GROUP BY k"
                    + " HAVING count(*) >= 2 AND sum(v) < 10";
            assertThat(explain(vectorized, having)).contains("having [COUNT(*) >= 2 AND SUM(v) < 10]")
                    .doesNotContain("$condition").doesNotContain("EnumerableFilter");
            assertThat(query(vectorized, having)).containsExactly("a|2|3");
            assertThat(query(rows, having)).containsExactly("a|2|3");
            String notFive = "SELECT k, sum(v) FROM " + db + ".t GROUP BY k HAVING sum(v) <> 5";
            assertThat(explain(vectorized, notFive)).contains("having [SUM(v) <> 5]");
            assertThat(query(vectorized, notFive)).containsExactly("a|3");
            String flipped = "SELECT k FROM " + db + ".t GROUP BY k HAVING 1 < count(*)";
            assertThat(explain(vectorized, flipped)).contains("having [COUNT(*) > 1]");
            assertThat(query(vectorized, flipped)).containsExactly("a");
            for (String calcite : List.of("SELECT k, avg(v) FROM " + db + ".t GROUP BY k HAVING avg(v) > 1.5",
                    "SELECT k FROM " + db + ".t GROUP BY k HAVING count(*) > 1.5",
                    "SELECT k FROM " + db + ".t GROUP BY k HAVING count(*) > 1 OR max(k) = 'c'")) {
                assertThat(explain(vectorized, calcite)).as(calcite).contains("VectorizedAggregate")
                        .doesNotContain("having [");
                assertThat(sorted(query(vectorized, calcite))).as(calcite).isEqualTo(sorted(query(rows, calcite)))
                        .isNotEmpty();
            }
        }
    }

    /**
     * Time buckets ({@code GROUP BY FLOOR(ts TO unit)}) are computed on the batches for the units of
     * fixed length, in the column's own precision, as Calcite computes them: timestamps on both sides
     * of 1970 (floored toward the past), fractions of milli- and microseconds, nulls; a calendar unit
     * (MONTH) stays Calcite's. {@code count(*)} alone reads the narrowest column.
     */
    @Test
    void timeBucketsAreComputedOnTheBatchesAsCalciteComputesThem(LocalCluster cluster, TestNames names)
            throws Exception {
        String db = names.database("vtime");
        Random random = new Random(SEED + 5);
        try (Connection vectorized = connect(cluster, true); Connection rows = connect(cluster, false);
                Statement statement = vectorized.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".times (id INT, label STRING, t3 TIMESTAMP(3), t6 TIMESTAMP(6),"
                    + " v BIGINT) WITH ('bucket.num' = '2')");
            List<String> values = new ArrayList<>();
            long from = java.time.LocalDateTime.of(1969, 12, 30, 22, 0).toEpochSecond(java.time.ZoneOffset.UTC);
            for (int id = 0; id < 600; id++) {
                // three days around 1970-01-01, so days, hours, minutes and seconds all have several buckets
                long second = from + random.nextInt(3 * 86_400);
                String t3 = java.time.LocalDateTime.ofEpochSecond(second, random.nextInt(1000) * 1_000_000,
                        java.time.ZoneOffset.UTC).toString().replace('T', ' ');
                String t6 = java.time.LocalDateTime.ofEpochSecond(second, random.nextInt(1_000_000) * 1_000,
                        java.time.ZoneOffset.UTC).toString().replace('T', ' ');
                values.add("(" + id + ", 'x" + (id % 3) + "', " + (random.nextInt(10) == 0 ? "NULL" : "TIMESTAMP '" + t3 + "'")
                        + ", " + (random.nextInt(10) == 0 ? "NULL" : "TIMESTAMP '" + t6 + "'") + ", " + random.nextInt(1000)
                        + ")");
            }
            statement.execute("INSERT INTO " + db + ".times VALUES " + String.join(", ", values));

            int buckets = 0;
            for (String column : List.of("t3", "t6")) {
                for (String unit : List.of("SECOND", "MINUTE", "HOUR", "DAY")) {
                    String bucket = "FLOOR(" + column + " TO " + unit + ")";
                    String sql = "SELECT " + bucket + " AS b, count(*), sum(v) FROM " + db + ".times GROUP BY " + bucket;
                    assertThat(explain(vectorized, sql)).as(sql).contains("VectorizedAggregate")
                            .contains("group [FLOOR(" + column + " TO " + unit + ")]")
                            .doesNotContain("EnumerableAggregate");
                    List<String> answer = answer(vectorized, sql);
                    assertThat(answer).as(sql).isEqualTo(answer(rows, sql));
                    buckets += answer.size();
                    // A bucket in a condition the scan cannot take is checked on the batches too.
                    String filtered = "SELECT label, count(*) FROM " + db + ".times WHERE " + bucket
                            + " IS NOT NULL GROUP BY label";
                    assertThat(answer(vectorized, filtered)).as(filtered).isEqualTo(answer(rows, filtered));
                }
            }
            assertThat(buckets).as("buckets over every column and unit").isGreaterThan(600);
            String months = "SELECT FLOOR(t3 TO MONTH) AS b, count(*) FROM " + db + ".times GROUP BY FLOOR(t3 TO MONTH)";
            assertThat(explain(vectorized, months)).contains("EnumerableAggregate");
            assertThat(answer(vectorized, months)).isEqualTo(answer(rows, months));

            String count = "SELECT count(*) FROM " + db + ".times";
            assertThat(explain(vectorized, count)).contains("VectorizedAggregate").contains("columns=[[id]]");
            assertThat(query(vectorized, count)).containsExactly("600");
            assertThat(vectorized.unwrap(CalciteConnection.class).getRootSchema().unwrap(FlussRootSchema.class)
                    .session().riffle().allocator().getAllocatedMemory()).as("Arrow memory after the queries")
                    .isZero();
        }
    }

    @Test
    void topNOverAScanIsVectorizedAndBindsItsLimitPerExecution(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("vtopn");
        try (Connection vectorized = connect(cluster, true); Connection rows = connect(cluster, false);
                Statement statement = vectorized.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (k STRING, v BIGINT, w INT) WITH ('bucket.num' = '2')");
            statement.execute("INSERT INTO " + db + ".t VALUES ('a', 1, 1), ('b', 2, 2), ('c', 5, 3), ('d', NULL, 4),"
                    + " ('e', 3, 5)");
            String t = db + ".t";
            String top = "SELECT k, v FROM " + t + " WHERE w > 1 ORDER BY v DESC LIMIT 2";

            String plan = explain(vectorized, top);
            assertThat(plan).contains("VectorizedTopN").contains("topN=[order [v DESC] fetch 2]").contains("w > 1")
                    .doesNotContain("EnumerableLimitSort").doesNotContain("EnumerableSort");
            // DESC puts nulls first unless told otherwise (Calcite's default), as row-at-a-time Calcite does.
            assertThat(query(vectorized, top)).containsExactly("d|null", "c|5");
            assertThat(explain(rows, top)).doesNotContain("VectorizedTopN");
            assertThat(query(rows, top)).containsExactly("d|null", "c|5");

            // NULLS LAST and an OFFSET; the key need not be selected.
            String skipped = "SELECT k FROM " + t + " ORDER BY v DESC NULLS LAST LIMIT 2 OFFSET 1";
            assertThat(explain(vectorized, skipped)).contains("order [v DESC NULLS LAST] fetch 2 offset 1");
            assertThat(query(vectorized, skipped)).containsExactly("e", "b");

            // LIMIT ? OFFSET ? are bound at each execution of one prepared statement.
            String prepared = "SELECT k FROM " + t + " ORDER BY v LIMIT ? OFFSET ?";
            assertThat(SqlFixtures.explainPrepared(vectorized, prepared, 2, 0)).contains("fetch ?0 offset ?1");
            try (PreparedStatement statementWithLimit = vectorized.prepareStatement(prepared)) {
                statementWithLimit.setInt(1, 2);
                statementWithLimit.setInt(2, 0);
                assertThat(SqlFixtures.rows(statementWithLimit.executeQuery())).containsExactly("a", "b");
                statementWithLimit.setInt(1, 3);
                statementWithLimit.setInt(2, 2);
                assertThat(SqlFixtures.rows(statementWithLimit.executeQuery())).containsExactly("e", "c", "d");
                statementWithLimit.setInt(1, -1);
                assertThatThrownBy(statementWithLimit::executeQuery).isInstanceOf(SQLException.class)
                        .hasMessageContaining("FETCH/LIMIT must be a number of rows >= 0, got -1");
            }

            // A computed key and a condition the scan cannot take are computed on the batches too.
            String computed = "SELECT k FROM " + t + " WHERE v > w OR w IS NULL ORDER BY v * -1 LIMIT 1";
            assertThat(explain(vectorized, computed)).contains("VectorizedTopN")
                    .contains("filter=[(v > CAST(w AS BIGINT)) OR (w IS NULL)]").contains("computes=[[k, v * -1]]");
            assertThat(query(vectorized, computed)).containsExactly("c");
            assertThat(query(rows, computed)).containsExactly("c");
        }
    }

    /**
     * A read large enough for the aggregate to fold batches on a helper thread as well (past the
     * first 262,144 rows, which the statement's thread folds alone) answers as Calcite's
     * operators do: the helper's groups merged into the statement thread's, for low- and
     * high-cardinality keys (a key in both sets of groups), two keys, no key, a pushed filter,
     * COUNT DISTINCT, MIN/MAX and sums (of multiples of 0.25, exact in any order).
     */
    @Test
    void aggregatesOfALargeReadFoldedOnTwoThreadsAnswerAsCalciteDoes(LocalCluster cluster,
            org.apache.fluss.client.Connection fluss, TestNames names) throws Exception {
        String db = names.database("vbig");
        try (Connection vectorized = connect(cluster, true); Connection rows = connect(cluster, false);
                Statement statement = vectorized.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".big (k STRING, u BIGINT, v INT, d DOUBLE)"
                    + " WITH ('bucket.num' = '2')");
            Random random = new Random(SEED);
            try (Table table = fluss.getTable(TablePath.of(db, "big"))) {
                AppendWriter writer = table.newAppend().createWriter();
                for (int i = 0; i < 600_000; i++) {
                    writer.append(GenericRow.of(
                            random.nextInt(50) == 0 ? null : BinaryString.fromString("k" + random.nextInt(30)),
                            (long) random.nextInt(100_000), random.nextInt(10) == 0 ? null : random.nextInt(1000),
                            random.nextInt(400) / 4.0));
                }
                writer.flush();
            }
            String big = db + ".big";
            List<String> queries = List.of(
                    "SELECT k, count(*), sum(v), min(d), max(d), count(DISTINCT u) FROM " + big + " GROUP BY k",
                    "SELECT u, count(*), sum(d), max(k) FROM " + big + " GROUP BY u",
                    "SELECT k, v, count(*) FROM " + big + " WHERE v < 100 GROUP BY k, v",
                    "SELECT count(*), count(v), sum(v), avg(d), min(k), max(u), count(DISTINCT k) FROM " + big);
            for (String sql : queries) {
                assertThat(sorted(query(vectorized, sql))).as(sql).isEqualTo(sorted(query(rows, sql)));
                assertThat(explain(vectorized, sql)).as(sql).contains("VectorizedAggregate");
            }
            assertThat(query(vectorized, queries.get(0))).as("30 keys and null").hasSize(31);
            assertThat(query(vectorized, queries.get(1))).hasSizeGreaterThan(99_000);
            assertThat(Thread.getAllStackTraces().keySet()).as("the aggregates' helper threads")
                    .anyMatch(thread -> thread.getName().startsWith("riffle-sql-aggregate-"));
        }
    }

    @Test
    void vectorizedMustBeTrueOrFalse(LocalCluster cluster) {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DriverManager.getConnection(
                "jdbc:riffle://" + cluster.bootstrapServers() + ";vectorized=maybe"))
                .isInstanceOf(SQLException.class).hasMessageContaining("vectorized must be true or false, got maybe");
    }

    private static Connection connect(LocalCluster cluster, boolean vectorized) throws SQLException {
        return DriverManager.getConnection("jdbc:riffle://" + cluster.bootstrapServers() + ";vectorized=" + vectorized);
    }

    /** The rows, sorted; or the one line "error: out of range" when the query failed that way. */
    private static List<String> answer(Connection connection, String sql) throws SQLException {
        try {
            return sorted(query(connection, sql));
        } catch (SQLException e) {
            Throwable cause = e;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause instanceof ArithmeticException && cause.getMessage().endsWith("out of range")) {
                return List.of("error: out of range");
            }
            throw e;
        }
    }

    static Row row(Random random, int id) {
        return new Row(id,
                // Non-negative: a TINYINT or SMALLINT sum out of range fails in Calcite at the first
                // partial sum out of range, which then does not depend on the order rows are read in.
                nullOr(random, (byte) random.nextInt(7)),
                nullOr(random, (short) random.nextInt(2000)),
                nullOr(random, random.nextInt(40) - 20),
                nullOr(random, random.nextInt(1_000_000) * 1_000_003L),
                nullOr(random, (random.nextInt(800) - 400) / 4f),
                nullOr(random, (random.nextInt(8000) - 4000) / 4d),
                nullOr(random, BigDecimal.valueOf(random.nextInt(200_000) - 100_000, 2)),
                nullOr(random, string(random.nextInt(64))),
                nullOr(random, random.nextBoolean()),
                nullOr(random, LocalDate.of(2024, 1, 1).plusDays(random.nextInt(12) - 4)),
                nullOr(random, String.format(Locale.ROOT, "1969-12-31 23:59:%02d.%03d", random.nextInt(4),
                        random.nextInt(3) * 250)),
                nullOr(random, String.format(Locale.ROOT, "2024-06-01 12:00:00.%06d", random.nextInt(5) * 1001)));
    }

    private static String string(int pick) {
        return pick < STRINGS.length ? STRINGS[pick] : "k" + pick;
    }

    private static <T> T nullOr(Random random, T value) {
        return random.nextInt(10) == 0 ? null : value;
    }

    /** Written with Fluss's own writers: planning thousands of rows of SQL VALUES would take most of the test. */
    private static void write(org.apache.fluss.client.Connection fluss, String db, String table, List<Row> rows,
            List<Row> deletes) throws Exception {
        try (Table target = fluss.getTable(TablePath.of(db, table))) {
            if (deletes == null) {
                AppendWriter writer = target.newAppend().createWriter();
                rows.forEach(row -> writer.append(flussRow(row)));
                writer.flush();
            } else {
                UpsertWriter writer = target.newUpsert().createWriter();
                rows.forEach(row -> writer.upsert(flussRow(row)));
                deletes.forEach(row -> writer.delete(flussRow(row)));
                writer.flush();
            }
        }
    }

    private static GenericRow flussRow(Row row) {
        return GenericRow.of(row.id(), row.ti(), row.si(), row.i(), row.b(), row.f(), row.d(),
                row.dec() == null ? null : Decimal.fromBigDecimal(row.dec(), 12, 2),
                row.s() == null ? null : BinaryString.fromString(row.s()), row.flag(),
                row.day() == null ? null : (int) row.day().toEpochDay(),
                row.ts() == null ? null : TimestampNtz.fromLocalDateTime(LocalDateTime.parse(row.ts().replace(' ', 'T'))),
                row.ltz() == null ? null
                        : TimestampLtz.fromInstant(LocalDateTime.parse(row.ltz().replace(' ', 'T')).toInstant(ZoneOffset.UTC)));
    }

    private static Aggregate aggregate(Random random) {
        String[] numbers = {"ti", "si", "i", "b", "f", "d", "amt"};
        String[] any = {"ti", "si", "i", "b", "f", "d", "amt", "s", "flag", "dt", "ts", "ltz"};
        String number = numbers[random.nextInt(numbers.length)];
        String column = any[random.nextInt(any.length)];
        boolean oracled = Set.of("i", "b", "f", "d", "amt").contains(number);
        return switch (random.nextInt(8)) {
            case 0 -> new Aggregate("count(*)", rows -> (long) rows.size());
            case 1 -> new Aggregate("count(" + column + ")", Set.of("ti", "i", "s", "flag").contains(column)
                    ? rows -> rows.stream().filter(r -> r.get(column) != null).count() : null);
            case 2 -> new Aggregate("count(DISTINCT " + column + ")", Set.of("ti", "i", "s", "flag").contains(column)
                    ? rows -> rows.stream().map(r -> r.get(column)).filter(Objects::nonNull).distinct().count() : null);
            case 3, 4 -> new Aggregate("sum(" + number + ")", oracled ? rows -> sum(rows, number) : null);
            case 5 -> new Aggregate("min(" + column + ")", Set.of("i", "s").contains(column)
                    ? rows -> extreme(rows, column, true) : null);
            case 6 -> new Aggregate("max(" + column + ")", Set.of("i", "s").contains(column)
                    ? rows -> extreme(rows, column, false) : null);
            default -> new Aggregate("avg(" + number + ")", null);
        };
    }

    private static Object sum(List<Row> rows, String column) {
        List<Object> values = rows.stream().map(r -> r.get(column)).filter(Objects::nonNull).toList();
        if (values.isEmpty()) {
            return null;
        }
        return switch (column) {
            case "i" -> values.stream().mapToLong(v -> (Integer) v).sum();
            case "b" -> values.stream().mapToLong(v -> (Long) v).sum();
            case "f" -> {
                float sum = 0;
                for (Object v : values) {
                    sum += (Float) v;
                }
                yield sum;
            }
            case "d" -> values.stream().mapToDouble(v -> (Double) v).sum();
            default -> values.stream().map(v -> (BigDecimal) v).reduce(BigDecimal::add).orElseThrow();
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object extreme(List<Row> rows, String column, boolean least) {
        Comparable best = null;
        for (Row row : rows) {
            Comparable value = (Comparable) row.get(column);
            if (value != null && (best == null || (least ? value.compareTo(best) < 0 : value.compareTo(best) > 0))) {
                best = value;
            }
        }
        return best;
    }

    /**
     * A condition the scan takes, or one it cannot (a comparison of computed values, checked on the
     * batches by the vectorized aggregate, or by Calcite's filter with {@code vectorized=false}).
     */
    record Filter(String sql, Predicate<Row> test) {}

    private static Filter filter(Random random) {
        int i = random.nextInt(40) - 20;
        return switch (random.nextInt(12)) {
            case 0 -> new Filter(" WHERE i > " + i, r -> r.i() != null && r.i() > i);
            case 1 -> new Filter(" WHERE s IN ('s1', 's2', 's5')",
                    r -> r.s() != null && Set.of("s1", "s2", "s5").contains(r.s()));
            case 2 -> new Filter(" WHERE flag = TRUE", r -> Boolean.TRUE.equals(r.flag()));
            case 3 -> new Filter(" WHERE i IS NULL OR ti <> 0", r -> r.i() == null || (r.ti() != null && r.ti() != 0));
            case 4 -> new Filter(" WHERE i > 1000", r -> false);
            case 5 -> new Filter(" WHERE i + ti > 0", r -> r.i() != null && r.ti() != null && r.i() + r.ti() > 0);
            case 9 -> new Filter(" WHERE b > i * 1000003 AND NOT (si - i < 100)", r -> r.b() != null && r.i() != null
                    && r.si() != null && r.b() > r.i() * 1000003L && !(r.si() - r.i() < 100));
            case 11 -> new Filter(" WHERE s IS NULL OR i + ti > 0", r -> r.s() == null
                    || (r.i() != null && r.ti() != null && r.i() + r.ti() > 0));
            case 10 -> new Filter(" WHERE d * 2 >= f OR i IS NULL", r -> r.i() == null
                    || (r.d() != null && r.f() != null && r.d() * 2 >= r.f()));
            case 6 -> new Filter(" WHERE NOT flag", r -> Boolean.FALSE.equals(r.flag()));
            default -> new Filter("", r -> true);
        };
    }

    private static List<String> oracle(List<Row> rows, List<String> keys, List<Aggregate> aggregates) {
        Map<List<Object>, List<Row>> groups = new HashMap<>();
        if (keys.isEmpty()) {
            groups.put(List.of(), rows);
        } else {
            for (Row row : rows) {
                List<Object> key = new ArrayList<>();
                keys.forEach(k -> key.add(row.get(k)));
                groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
            }
        }
        List<String> answer = new ArrayList<>();
        groups.forEach((key, members) -> {
            StringJoiner line = new StringJoiner("|");
            key.forEach(v -> line.add(String.valueOf(v)));
            aggregates.forEach(a -> line.add(String.valueOf(a.oracle().apply(members))));
            answer.add(line.toString());
        });
        return sorted(answer);
    }

    private static List<String> sorted(List<String> rows) {
        List<String> copy = new ArrayList<>(rows);
        Collections.sort(copy);
        return copy;
    }
}
