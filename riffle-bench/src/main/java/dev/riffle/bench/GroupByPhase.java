package dev.riffle.bench;

import dev.riffle.core.Riffle;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.scan.LogBatch;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.duckdb.DuckDBConnection;

/**
 * {@link SqlBenchmark}'s GROUP BY: the same aggregate over the same log table through the
 * {@code jdbc:riffle:} driver (Calcite over Riffle's scan) and through DuckDB fed by Riffle's
 * bounded reader as an Arrow C stream ({@code Data.exportArrayStream} +
 * {@code DuckDBConnection.registerArrowStream}). Both timings run from "start the read" to "last
 * group in hand", reading from Fluss every time. A third timing, the bounded read of the two
 * columns aggregated with primitive arrays, is the floor under both and what a vectorized
 * aggregate in riffle-sql could reach. The sides rotate each round; one unmeasured round of
 * each warms up. Every answer is compared with the generator's.
 */
final class GroupByPhase {
    static final String SQL = "SELECT k, count(*), sum(v) FROM %s GROUP BY k";

    /** Count and sum per {@code k}. */
    record Groups(Map<Integer, List<Long>> byKey) {
        long rows() {
            return byKey.values().stream().mapToLong(g -> g.get(0)).sum();
        }
    }

    record Result(String plan, int rows, int groups, List<Double> sqlSeconds, List<Double> duckSeconds,
            List<Double> columnarSeconds, int duckThreads) {
        double sql() {
            return Median.of(sqlSeconds);
        }

        double duck() {
            return Median.of(duckSeconds);
        }

        double columnar() {
            return Median.of(columnarSeconds);
        }

        /**
         * The median of the per-round ratios: each round times the two sides back to back, so a
         * slow patch of this shared machine mostly hits one round rather than one side.
         */
        double ratio() {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < sqlSeconds.size(); i++) {
                ratios.add(sqlSeconds.get(i) / duckSeconds.get(i));
            }
            return Median.of(ratios);
        }

        double bestRatio() {
            return Collections.min(sqlSeconds) / Collections.min(duckSeconds);
        }
    }

    private GroupByPhase() {}

    static Result run(String bootstrap, SqlOptions options) throws Exception {
        Groups expected = expected(options.rows(), options.groups());
        Class.forName("dev.riffle.sql.jdbc.RiffleDriver");
        Class.forName("org.duckdb.DuckDBDriver");
        String sql = String.format(Locale.ROOT, SQL, SqlBenchmark.EVENTS);
        List<Double> sqlSeconds = new ArrayList<>();
        List<Double> duckSeconds = new ArrayList<>();
        List<Double> columnarSeconds = new ArrayList<>();
        int duckThreads;
        try (java.sql.Connection riffleSql = DriverManager.getConnection("jdbc:riffle://" + bootstrap, new Properties());
                Riffle riffle = Riffle.connect(bootstrap);
                BufferAllocator streams = riffle.allocator().newChildAllocator("duckdb-streams", 0, Long.MAX_VALUE)) {
            String plan = explain(riffleSql, sql);
            duckThreads = duckThreads();
            for (int round = -1; round < options.rounds(); round++) {
                // Rotate who goes first, so that a slow patch of the machine does not always hit one side.
                for (int turn = 0; turn < 3; turn++) {
                    int side = Math.floorMod(turn + round, 3);
                    double seconds = switch (side) {
                        case 0 -> riffleSql(riffleSql, sql, expected);
                        case 1 -> duck(riffle, streams, expected);
                        default -> columnar(riffle, expected);
                    };
                    if (round >= 0) {
                        (side == 0 ? sqlSeconds : side == 1 ? duckSeconds : columnarSeconds).add(seconds);
                    }
                }
            }
            if (options.jfr().isPresent()) {
                profile(riffleSql, sql, expected, options.rounds(), Path.of(options.jfr().get()));
            }
            if (streams.getAllocatedMemory() != 0) {
                throw new IllegalStateException("The Arrow streams handed to DuckDB leaked "
                        + streams.getAllocatedMemory() + " bytes");
            }
            return new Result(plan, options.rows(), options.groups(), sqlSeconds, duckSeconds, columnarSeconds, duckThreads);
        }
    }

    static String explain(java.sql.Connection connection, String sql) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("EXPLAIN PLAN FOR " + sql)) {
            while (rows.next()) {
                plan.append(rows.getString(1));
            }
        }
        return plan.toString().trim();
    }

    /** Seconds from executing the query to the last group read; the answer is checked after the clock stops. */
    private static double riffleSql(java.sql.Connection connection, String sql, Groups expected) throws Exception {
        long started = System.nanoTime();
        Groups groups = riffleSql(connection, sql);
        double seconds = (System.nanoTime() - started) / 1e9;
        require(expected, groups, "Riffle SQL");
        return seconds;
    }

    private static Groups riffleSql(java.sql.Connection connection, String sql) throws Exception {
        Map<Integer, List<Long>> groups = new HashMap<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                put(groups, rows.getInt(1), rows.getLong(2), rows.getLong(3), "Riffle SQL");
            }
        }
        return new Groups(groups);
    }

    /**
     * Riffle's bounded read of {@code k, v} handed to DuckDB as an Arrow C stream; DuckDB pulls the
     * batches while it aggregates. Seconds from creating the reader (which captures the offsets,
     * as the SQL scan does) to the last group read. A fresh in-memory database per round, opened
     * before the clock starts, as a registered stream can be read once.
     */
    private static double duck(Riffle riffle, BufferAllocator streams, Groups expected) throws Exception {
        Map<Integer, List<Long>> groups = new HashMap<>();
        double seconds;
        try (java.sql.Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            long started = System.nanoTime();
            BoundedLogReader reader = riffle.table(SqlBenchmark.EVENTS).read().log().columns("k", "v").createLogReader();
            try (ArrowArrayStream stream = reader.exportArrayStream(streams)) {
                duck.unwrap(DuckDBConnection.class).registerArrowStream("events", stream);
                try (Statement statement = duck.createStatement();
                        ResultSet rows = statement.executeQuery(String.format(Locale.ROOT, SQL, "events"))) {
                    while (rows.next()) {
                        put(groups, rows.getInt(1), rows.getLong(2), ((Number) rows.getObject(3)).longValue(), "DuckDB");
                    }
                }
                seconds = (System.nanoTime() - started) / 1e9;
            } finally {
                reader.close();
            }
        }
        require(expected, new Groups(groups), "DuckDB over Arrow");
        return seconds;
    }

    /**
     * The floor under both, and the headroom of a vectorized operator: Riffle's bounded read of
     * {@code k} and {@code v} aggregated batch by batch with primitive arrays ({@link ColumnarGroupBy}).
     */
    private static double columnar(Riffle riffle, Groups expected) {
        long started = System.nanoTime();
        ColumnarGroupBy groupBy = new ColumnarGroupBy();
        try (BoundedLogReader reader = riffle.table(SqlBenchmark.EVENTS).read().log().columns("k", "v").createLogReader()) {
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    groupBy.add(batch.root());
                }
            }
        }
        Groups groups = groupBy.groups();
        double seconds = (System.nanoTime() - started) / 1e9;
        require(expected, groups, "The columnar aggregate");
        return seconds;
    }

    /** How many threads DuckDB runs a query on here (its default: one per core). */
    static int duckThreads() throws Exception {
        try (java.sql.Connection duck = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = duck.createStatement();
                ResultSet rows = statement.executeQuery("SELECT current_setting('threads')")) {
            rows.next();
            return ((Number) rows.getObject(1)).intValue();
        }
    }

    /** Extra Riffle SQL rounds under a JFR recording of their own (the measured rounds are not recorded). */
    private static void profile(java.sql.Connection connection, String sql, Groups expected, int rounds, Path file)
            throws Exception {
        try (Recording recording = new Recording(Configuration.getConfiguration("profile"))) {
            recording.setName("riffle-sql-group-by");
            recording.start();
            long started = System.nanoTime();
            for (int i = 0; i < rounds; i++) {
                require(expected, riffleSql(connection, sql), "Riffle SQL (profiled)");
            }
            recording.stop();
            recording.dump(file);
            System.out.printf(Locale.ROOT, "%nJFR: %d Riffle SQL GROUP BY rounds (%.1f s) recorded to %s%n"
                    + "     jfr print --stack-depth 64 --events jdk.ExecutionSample %s  (without --stack-depth only 5"
                    + " frames are printed)%n", rounds,
                    (System.nanoTime() - started) / 1e9, file.toAbsolutePath(), file.toAbsolutePath());
        }
    }

    /** What the generator wrote ({@link SqlBenchmark#k}, {@link SqlBenchmark#v}). */
    static Groups expected(int rows, int groupCount) {
        long[] counts = new long[groupCount];
        long[] sums = new long[groupCount];
        for (long i = 0; i < rows; i++) {
            int k = SqlBenchmark.k(i, groupCount);
            counts[k]++;
            sums[k] += SqlBenchmark.v(i);
        }
        Map<Integer, List<Long>> groups = new HashMap<>();
        for (int k = 0; k < groupCount; k++) {
            if (counts[k] > 0) {
                groups.put(k, List.of(counts[k], sums[k]));
            }
        }
        return new Groups(groups);
    }

    private static void put(Map<Integer, List<Long>> groups, int k, long count, long sum, String side) {
        if (groups.put(k, List.of(count, sum)) != null) {
            throw new IllegalStateException(side + " returned group k = " + k + " twice");
        }
    }

    /** Fails loudly, naming a few differing groups, when {@code actual} is not {@code expected}. */
    private static void require(Groups expected, Groups actual, String side) {
        if (expected.byKey().equals(actual.byKey())) {
            return;
        }
        Map<Integer, String> diff = new TreeMap<>();
        for (Integer k : expected.byKey().keySet()) {
            if (!expected.byKey().get(k).equals(actual.byKey().get(k)) && diff.size() < 5) {
                diff.put(k, "expected " + expected.byKey().get(k) + ", got " + actual.byKey().get(k));
            }
        }
        for (Integer k : actual.byKey().keySet()) {
            if (!expected.byKey().containsKey(k) && diff.size() < 10) {
                diff.put(k, "unexpected " + actual.byKey().get(k));
            }
        }
        throw new IllegalStateException(side + " answered the GROUP BY wrongly: " + actual.byKey().size() + " groups, "
                + actual.rows() + " rows; expected " + expected.byKey().size() + " groups, " + expected.rows()
                + " rows. [count, sum] by k: " + diff);
    }

    static void print(Result result) {
        System.out.printf(Locale.ROOT, "%nGROUP BY over %,d rows, %,d groups: SELECT k, count(*), sum(v) ... GROUP BY k,"
                + " median of %d rounds, read from Fluss each time%n", result.rows(), result.groups(),
                result.sqlSeconds().size());
        System.out.printf(Locale.ROOT, "  plan: %s%n", result.plan().replace("\n", "\n        "));
        System.out.printf(Locale.ROOT, "  %-56s %8.2f s %8.2f M rows/s%n", "Riffle bounded read + columnar Java aggregate (floor)",
                result.columnar(), result.rows() / result.columnar() / 1e6);
        System.out.printf(Locale.ROOT, "  %-56s %8.2f s %8.2f M rows/s%n",
                "DuckDB over Riffle's Arrow C stream (" + result.duckThreads() + " threads)", result.duck(),
                result.rows() / result.duck() / 1e6);
        System.out.printf(Locale.ROOT, "  %-56s %8.2f s %8.2f M rows/s%n", "Riffle JDBC (the plan above)", result.sql(),
                result.rows() / result.sql() / 1e6);
        System.out.printf(Locale.ROOT, "  ratio JDBC / DuckDB: %.2fx median of per-round ratios (target <= 1.0x, P7); %.2fx of the"
                + " medians, %.2fx best against best; JDBC / columnar floor %.2fx of the medians%n", result.ratio(),
                result.sql() / result.duck(), result.bestRatio(), result.sql() / result.columnar());
        System.out.printf(Locale.ROOT, "  all rounds, s: sql %s, duckdb %s, columnar %s%n", rounded(result.sqlSeconds()),
                rounded(result.duckSeconds()), rounded(result.columnarSeconds()));
        System.out.printf(Locale.ROOT, "  answers: all three equal the generator's (%,d groups, %,d rows, counts and sums)%n",
                result.groups(), result.rows());
    }

    private static List<String> rounded(List<Double> seconds) {
        return seconds.stream().map(s -> String.format(Locale.ROOT, "%.2f", s)).toList();
    }
}
