package dev.riffle.bench;

import dev.riffle.core.Riffle;
import dev.riffle.core.reader.TableReader;
import dev.riffle.local.LocalCluster;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.TimeZone;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.duckdb.DuckDBConnection;

/**
 * An analytical query suite (issue 43, item 2): fourteen queries of the shapes analysts write, over
 * a log table of web events, through Riffle's SQL ({@code jdbc:riffle}) and through DuckDB (JDBC,
 * its default threads: one per core) fed Riffle's bounded read of the same table as an Arrow C
 * stream ({@code registerArrowStream}) with the columns the query uses. Each query is read from
 * Fluss on every round on both sides; a round times one side from "run the query" to "last row in
 * hand", the sides alternate who goes first, one unmeasured round of each warms up. Every answer of
 * every round is compared between the two sides (doubles to 10 significant digits, since the two
 * add in different orders) and a difference stops the run.
 *
 * <p>The table ({@code suite.events}, 4 buckets): {@code ts TIMESTAMP(3)} (10 ms apart from
 * 2026-01-01), {@code user_id BIGINT} (~1M values), {@code url STRING} (~100k values),
 * {@code region STRING} (20), {@code device STRING} (5), {@code duration INT}, {@code amount DOUBLE},
 * {@code status INT} (200/301/404/500), every column a hash of the row number. The cluster runs in
 * this JVM; the queries run in a child JVM ({@code -Xmx2g}; more options with
 * {@code -Dbench.readerJvmArgs=...}).
 *
 * <pre>
 * mvn -q -B install -DskipTests -pl riffle-bench
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=QuerySuiteBenchmark -Dbench.args="1000000 1"     # smoke
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=QuerySuiteBenchmark -Dbench.args="10000000 3"    # issue 43's run
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=QuerySuiteBenchmark -Dbench.args="10000000 3 q06_group_high"
 * </pre>
 * Arguments: ROWS (default 10,000,000), ROUNDS (default 3), then query names to run only those.
 * Target: the geometric mean of the per-query ratios (Riffle ÷ DuckDB, each the median of its
 * rounds' ratios) at most 1.0x, no query above 2x.
 */
public final class QuerySuiteBenchmark {
    static final TablePath EVENTS = TablePath.of("suite", "events");
    private static final int BUCKETS = 4;
    private static final long BASE_MILLIS = LocalDateTime.of(2026, 1, 1, 0, 0).toInstant(ZoneOffset.UTC).toEpochMilli();
    private static final String[] DEVICES = {"desktop", "phone", "tablet", "tv", "watch"};
    private static final String T = "suite.events";

    /** One query: its name, its text for Riffle (Calcite's dialect) and for DuckDB, the columns it reads. */
    record Query(String name, String riffle, String duck, List<String> columns, boolean ordered) {
        static Query of(String name, String sql, String columns) {
            return new Query(name, sql.replace("$T", T), sql.replace("$T", "events"), List.of(columns.split(",")),
                    sql.contains("ORDER BY"));
        }

        static Query of(String name, String riffle, String duck, String columns) {
            return new Query(name, riffle.replace("$T", T), duck.replace("$T", "events"), List.of(columns.split(",")),
                    riffle.contains("ORDER BY"));
        }
    }

    static final List<Query> QUERIES = List.of(
            Query.of("q01_count", "SELECT count(*) FROM $T", "status"),
            Query.of("q02_selective", "SELECT ts, url, amount FROM $T WHERE user_id = 424242 ORDER BY ts",
                    "ts,url,amount,user_id"),
            Query.of("q03_aggregates", "SELECT sum(duration), min(amount), max(amount), avg(amount) FROM $T",
                    "duration,amount"),
            Query.of("q04_count_distinct", "SELECT count(DISTINCT user_id) FROM $T", "user_id"),
            Query.of("q05_group_low", "SELECT region, count(*), sum(duration) FROM $T GROUP BY region",
                    "region,duration"),
            Query.of("q06_group_high", "SELECT url, count(*), sum(duration) FROM $T GROUP BY url", "url,duration"),
            Query.of("q07_group_two", "SELECT region, device, count(*), avg(amount) FROM $T GROUP BY region, device",
                    "region,device,amount"),
            Query.of("q08_top_n", "SELECT url, count(*) AS c FROM $T GROUP BY url ORDER BY c DESC, url LIMIT 10", "url"),
            Query.of("q09_like", "SELECT count(*) FROM $T WHERE url LIKE '%/77%'", "url"),
            Query.of("q10_minutes", "SELECT FLOOR(ts TO MINUTE) AS m, count(*), sum(amount) FROM $T"
                    + " GROUP BY FLOOR(ts TO MINUTE)",
                    "SELECT date_trunc('minute', ts) AS m, count(*), sum(amount) FROM $T GROUP BY 1", "ts,amount"),
            Query.of("q11_order_limit", "SELECT ts, user_id, amount FROM $T ORDER BY amount DESC, ts LIMIT 10",
                    "ts,user_id,amount"),
            Query.of("q12_having", "SELECT user_id, count(*) AS c FROM $T GROUP BY user_id HAVING count(*) >= 24",
                    "user_id"),
            Query.of("q13_range_group", "SELECT device, count(*), sum(duration) FROM $T WHERE ts >= TIMESTAMP"
                    + " '2026-01-01 06:00:00' AND ts < TIMESTAMP '2026-01-01 08:00:00' GROUP BY device",
                    "ts,device,duration"),
            Query.of("q14_errors", "SELECT status, device, count(*) FROM $T WHERE status >= 400 GROUP BY status, device",
                    "status,device"));

    private QuerySuiteBenchmark() {}

    public static void main(String[] given) throws Exception {
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        // exec:exec hands -Dbench.args="10000000 3" over as one argument
        String joined = String.join(" ", given).trim();
        String[] args = joined.isEmpty() ? new String[0] : joined.split("\\s+");
        if (args.length > 0 && args[0].equals("measure")) {
            measure(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    List.of(args).subList(4, args.length));
            return;
        }
        int rows = args.length > 0 ? Integer.parseInt(args[0].replace("_", "")) : 10_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<String> only = args.length > 2 ? List.of(args).subList(2, args.length) : List.of();
        for (String name : only) {
            if (QUERIES.stream().noneMatch(q -> q.name().equals(name))) {
                throw new IllegalArgumentException("No query " + name + "; the suite's: "
                        + QUERIES.stream().map(Query::name).toList());
            }
        }
        Path dataDir = Files.createTempDirectory("riffle-query-suite");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false).start()) {
            try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig())) {
                load(connection, rows);
            }
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx2g", "-XX:+UseParallelGC", "--add-opens=java.base/java.nio=ALL-UNNAMED"));
            String extra = System.getProperty("bench.readerJvmArgs", "").trim();
            if (!extra.isEmpty()) {
                command.addAll(List.of(extra.split("\\s+")));
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), QuerySuiteBenchmark.class.getName(),
                    "measure", cluster.bootstrapServers(), Integer.toString(rows), Integer.toString(rounds)));
            command.addAll(only);
            int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("The measuring JVM failed with exit code " + exit);
            }
        } finally {
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Row {@code i}'s columns come from two hashes of {@code i}. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static void load(Connection connection, int rows) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createDatabase(EVENTS.getDatabaseName(), DatabaseDescriptor.EMPTY, true).get();
            admin.createTable(EVENTS, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("ts", DataTypes.TIMESTAMP(3)).column("user_id", DataTypes.BIGINT())
                    .column("url", DataTypes.STRING()).column("region", DataTypes.STRING())
                    .column("device", DataTypes.STRING()).column("duration", DataTypes.INT())
                    .column("amount", DataTypes.DOUBLE()).column("status", DataTypes.INT()).build())
                    .distributedBy(BUCKETS).build(), false).get();
        }
        BinaryString[] urls = new BinaryString[100_000];
        for (int u = 0; u < urls.length; u++) {
            urls[u] = BinaryString.fromString("/p/" + u);
        }
        BinaryString[] regions = new BinaryString[20];
        for (int r = 0; r < regions.length; r++) {
            regions[r] = BinaryString.fromString("region-" + r);
        }
        BinaryString[] devices = new BinaryString[DEVICES.length];
        for (int d = 0; d < devices.length; d++) {
            devices[d] = BinaryString.fromString(DEVICES[d]);
        }
        long started = System.nanoTime();
        try (Table table = connection.getTable(EVENTS)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (long i = 0; i < rows; i++) {
                long h = mix(i);
                long g = mix(i ^ 0x5851f42d4c957f2dL);
                long r = Long.remainderUnsigned(g >>> 40, 100);
                int status = r < 80 ? 200 : r < 88 ? 301 : r < 95 ? 404 : 500;
                writer.append(GenericRow.of(TimestampNtz.fromMillis(BASE_MILLIS + i * 10),
                        Long.remainderUnsigned(h >>> 1, 1_000_000), urls[(int) Long.remainderUnsigned(h >>> 21, urls.length)],
                        regions[(int) Long.remainderUnsigned(h >>> 41, regions.length)],
                        devices[(int) Long.remainderUnsigned(h >>> 47, devices.length)],
                        (int) Long.remainderUnsigned(g, 10_000), Long.remainderUnsigned(g >>> 14, 100_000) / 100.0, status));
                if ((i + 1) % 1_000_000 == 0) {
                    System.out.printf(Locale.ROOT, "  loaded %,d of %,d rows%n", i + 1, rows);
                }
            }
            writer.flush();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(Locale.ROOT, "Loaded %,d rows into log table %s (%d buckets) in %.1f s%n", rows, EVENTS,
                BUCKETS, seconds);
    }

    private static void measure(String bootstrap, int rows, int rounds, List<String> only) throws Exception {
        TimeZone.setDefault(TimeZone.getTimeZone("UTC"));
        Class.forName("dev.riffle.sql.jdbc.RiffleDriver");
        Class.forName("org.duckdb.DuckDBDriver");
        List<Query> queries = QUERIES.stream().filter(q -> only.isEmpty() || only.contains(q.name())).toList();
        List<Double> ratios = new ArrayList<>();
        System.out.printf(Locale.ROOT, "%nQuery suite over %,d rows of %s: Riffle SQL (jdbc:riffle) and DuckDB (%d threads)"
                + " over Riffle's Arrow C stream, %d rounds after one warm-up, read from Fluss every round%n", rows, EVENTS,
                GroupByPhase.duckThreads(), rounds);
        try (java.sql.Connection riffleSql = DriverManager.getConnection("jdbc:riffle://" + bootstrap, new Properties());
                Riffle riffle = Riffle.connect(bootstrap);
                BufferAllocator streams = riffle.allocator().newChildAllocator("duckdb-streams", 0, Long.MAX_VALUE)) {
            for (Query query : queries) {
                List<Double> riffleSeconds = new ArrayList<>();
                List<Double> duckSeconds = new ArrayList<>();
                List<Double> roundRatios = new ArrayList<>();
                int answerRows = -1;
                for (int round = -1; round < rounds; round++) {
                    List<String> riffleAnswer = null;
                    List<String> duckAnswer = null;
                    double riffleTime = 0;
                    double duckTime = 0;
                    for (int turn = 0; turn < 2; turn++) {
                        if ((turn + Math.max(round, 0)) % 2 == 0) {
                            long started = System.nanoTime();
                            riffleAnswer = riffle(riffleSql, query);
                            riffleTime = (System.nanoTime() - started) / 1e9;
                        } else {
                            Timed timed = duck(riffle, streams, query);
                            duckAnswer = timed.answer();
                            duckTime = timed.seconds();
                        }
                    }
                    if (!riffleAnswer.equals(duckAnswer)) {
                        throw new IllegalStateException(query.name() + " answered differently:\n  Riffle (" + riffleAnswer.size()
                                + " rows): " + head(riffleAnswer) + "\n  DuckDB (" + duckAnswer.size() + " rows): "
                                + head(duckAnswer));
                    }
                    answerRows = riffleAnswer.size();
                    if (round >= 0) {
                        riffleSeconds.add(riffleTime);
                        duckSeconds.add(duckTime);
                        roundRatios.add(riffleTime / duckTime);
                    }
                }
                String plan = GroupByPhase.explain(riffleSql, query.riffle()).lines().map(String::trim)
                        .reduce((a, b) -> a + " / " + b).orElse("");
                double ratio = Median.of(roundRatios);
                ratios.add(ratio);
                System.out.printf(Locale.ROOT, "  %-19s riffle %6.2f s  duckdb %6.2f s  ratio %5.2fx  (%,d rows answered;"
                        + " rounds riffle %s, duckdb %s)%n", query.name(), Median.of(riffleSeconds), Median.of(duckSeconds),
                        ratio, answerRows, rounded(riffleSeconds), rounded(duckSeconds));
                System.out.printf(Locale.ROOT, "  %-19s plan: %s%n", "", plan);
            }
            if (streams.getAllocatedMemory() != 0) {
                throw new IllegalStateException("The Arrow streams handed to DuckDB leaked " + streams.getAllocatedMemory()
                        + " bytes");
            }
        }
        double logSum = 0;
        for (double ratio : ratios) {
            logSum += Math.log(ratio);
        }
        double geomean = Math.exp(logSum / ratios.size());
        double worst = ratios.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        long over = ratios.stream().filter(r -> r > 2.0).count();
        System.out.printf(Locale.ROOT, "  geometric mean of the ratios %.2fx (target <= 1.0x), worst %.2fx, %d of %d above"
                + " 2x (target none); every answer equal on both sides%n", geomean, worst, over, ratios.size());
    }

    private record Timed(List<String> answer, double seconds) {}

    private static List<String> riffle(java.sql.Connection connection, Query query) throws Exception {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(query.riffle())) {
            return answer(rows, query.ordered());
        }
    }

    /**
     * Riffle's bounded read of the query's columns handed to a fresh in-memory DuckDB as an Arrow C
     * stream, timed from creating the reader (which captures the offsets, as the SQL scan does) to
     * the last row read.
     */
    private static Timed duck(Riffle riffle, BufferAllocator streams, Query query) throws Exception {
        try (java.sql.Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            long started = System.nanoTime();
            TableReader reader = riffle.table(EVENTS).read().log().columns(query.columns()).createReader();
            try (ArrowArrayStream stream = reader.exportArrayStream(streams)) {
                duck.unwrap(DuckDBConnection.class).registerArrowStream("events", stream);
                try (Statement statement = duck.createStatement(); ResultSet rows = statement.executeQuery(query.duck())) {
                    List<String> answer = answer(rows, query.ordered());
                    return new Timed(answer, (System.nanoTime() - started) / 1e9);
                }
            } finally {
                reader.close();
            }
        }
    }

    /** The rows as text, each value in one spelling whichever engine gave it; sorted unless the query orders them. */
    private static List<String> answer(ResultSet rows, boolean ordered) throws Exception {
        ResultSetMetaData meta = rows.getMetaData();
        List<String> answer = new ArrayList<>();
        while (rows.next()) {
            StringBuilder row = new StringBuilder();
            for (int c = 1; c <= meta.getColumnCount(); c++) {
                if (c > 1) {
                    row.append(" | ");
                }
                row.append(value(rows, c, meta.getColumnType(c)));
            }
            answer.add(row.toString());
        }
        if (!ordered) {
            answer.sort(null);
        }
        return answer;
    }

    private static String value(ResultSet rows, int column, int type) throws Exception {
        if (type == Types.TIMESTAMP || type == Types.TIMESTAMP_WITH_TIMEZONE) {
            java.sql.Timestamp timestamp = rows.getTimestamp(column);
            return timestamp == null ? "NULL" : timestamp.toLocalDateTime().toString();
        }
        Object value = rows.getObject(column);
        if (value == null) {
            return "NULL";
        }
        if (value instanceof Double || value instanceof Float) {
            return new BigDecimal(((Number) value).doubleValue()).round(new MathContext(10)).stripTrailingZeros()
                    .toPlainString();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.round(new MathContext(10)).stripTrailingZeros().toPlainString();
        }
        if (value instanceof Number number) {
            return Long.toString(number.longValue());
        }
        return value.toString();
    }

    private static String head(List<String> answer) {
        return answer.size() <= 5 ? answer.toString() : answer.subList(0, 5) + " ...";
    }

    private static List<String> rounded(List<Double> seconds) {
        return seconds.stream().map(s -> String.format(Locale.ROOT, "%.2f", s)).toList();
    }
}
