package dev.riffle.bench;

import dev.riffle.local.LocalCluster;
import dev.riffle.pgwire.PgWireServer;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;

/**
 * Issue 43's row-at-a-time writes over the PostgreSQL protocol, as applications send them, each
 * client in a process of its own, every round printed, medians compared with the targets:
 * <ul>
 *   <li>pgjdbc {@code executeBatch} of one-row {@code INSERT ... VALUES (?, ?, ?)} (one extended-query
 *       pipeline up to its Sync): target &gt;= 20k rows/s;</li>
 *   <li>psycopg 3 {@code executemany} (pipelined, autocommit): target &gt;= 20k rows/s;</li>
 *   <li>psycopg2 {@code executemany} (a simple query per row, literals inlined, in one transaction:
 *       a round trip per row), reported;</li>
 *   <li>pandas {@code DataFrame.to_sql} through SQLAlchemy 1.4 and psycopg2 (multi-row literal
 *       INSERTs of 1,000 rows in one transaction) of 100,000 rows: target &lt;= 10 s.</li>
 * </ul>
 * Every round writes a new log table and checks its count and id sum through pgjdbc; a first
 * round warms the server up and is printed but not counted. On a 2-core machine the Python clients
 * are bound by their own CPU (psycopg 3 as Debian ships it is pure Python: about 3 s of client CPU
 * for 100,000 rows), which they share with the server and the tablet server.
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=PgWriteBenchmark -Dbench.args="20000 5"
 * </pre>
 * Arguments: rows per client and round (default 20,000; pandas always writes 100,000), rounds
 * (default 5), and optionally which clients ({@code jdbc,psycopg3,psycopg2,pandas}, the default).
 */
public final class PgWriteBenchmark {
    private static final int PANDAS_ROWS = 100_000;
    private static final String PYTHON = "/usr/bin/python3";

    private PgWriteBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("child-jdbc")) {
            jdbcBatch(args[1], args[2], Integer.parseInt(args[3]));
            return;
        }
        ScanBenchArgs parsed = ScanBenchArgs.parse(args.length == 0 ? new String[] {"20000", "5"} : args,
                "jdbc,psycopg3,psycopg2,pandas");
        int rows = parsed.rows();
        int rounds = parsed.rounds();
        List<String> clients = parsed.parts();
        Path dataDir = Files.createTempDirectory("riffle-pg-write-bench");
        Path script = Files.createTempFile("pg_writes", ".py");
        try (InputStream source = PgWriteBenchmark.class.getResourceAsStream("/bench/pg_writes.py")) {
            Files.copy(Objects.requireNonNull(source, "pg_writes.py"), script, StandardCopyOption.REPLACE_EXISTING);
        }
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false).start();
                PgWireServer pg = PgWireServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                        .start()) {
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/riffle";
            Properties user = new Properties();
            user.setProperty("user", "riffle");
            try (java.sql.Connection sql = DriverManager.getConnection(url, user); Statement statement = sql.createStatement()) {
                statement.execute("CREATE DATABASE bench");
            }
            System.out.printf(Locale.ROOT, "Row-at-a-time INSERTs over the PostgreSQL protocol: %,d rows per client and"
                    + " round (pandas %,d), %d rounds, each client in its own process%n", rows, PANDAS_ROWS, rounds);
            Map<String, List<Double>> results = new LinkedHashMap<>();
            int table = 0;
            // round 0 warms the server's JIT (its first INSERTs run interpreted): printed, not counted
            for (int round = 0; round <= rounds; round++) {
                for (String client : clients) {
                    String name = "bench.w" + (++table);
                    int written = client.equals("pandas") ? PANDAS_ROWS : rows;
                    try (java.sql.Connection sql = DriverManager.getConnection(url, user);
                            Statement statement = sql.createStatement()) {
                        statement.execute("CREATE TABLE " + name + " (id BIGINT, name STRING, amount DOUBLE)");
                    }
                    double rate = client.equals("jdbc")
                            ? ClientJvm.run(PgWriteBenchmark.class, List.of("child-jdbc", url, name,
                                    Integer.toString(written)))
                            : python(script, client, pg.port(), name, written);
                    check(url, user, name, written);
                    if (round > 0) {
                        results.computeIfAbsent(client, c -> new ArrayList<>()).add(rate);
                    }
                    System.out.printf(Locale.ROOT, "round %s: %s %.0f rows/s%n", round == 0 ? "0 (warm-up)" : round,
                            client, rate);
                }
            }
            for (Map.Entry<String, List<Double>> result : results.entrySet()) {
                double median = Median.of(result.getValue());
                String target = switch (result.getKey()) {
                    case "jdbc", "psycopg3" -> "(target >= 20000 rows/s): " + (median >= 20_000 ? "met" : "NOT met");
                    case "pandas" -> String.format(Locale.ROOT, "= %.2f s for %,d rows (target <= 10 s): %s",
                            PANDAS_ROWS / median, PANDAS_ROWS, PANDAS_ROWS / median <= 10 ? "met" : "NOT met");
                    default -> "(reported)";
                };
                System.out.printf(Locale.ROOT, "median %s: %.0f rows/s %s  rounds %s%n", result.getKey(), median, target,
                        result.getValue().stream().map(v -> String.format(Locale.ROOT, "%.0f", v)).toList());
            }
        } finally {
            Files.deleteIfExists(script);
        }
    }

    private static double python(Path script, String client, int port, String table, int rows) throws Exception {
        Process process = new ProcessBuilder(PYTHON, script.toString(), client, "127.0.0.1", Integer.toString(port),
                table, Integer.toString(rows)).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(client + " failed:\n" + output);
        }
        String line = output.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("No result from " + client + ":\n" + output));
        System.out.println("  " + client + ": " + line.substring("RESULT ".length()));
        return Double.parseDouble(line.split(" ")[1]);
    }

    /** Every row written, once: the count and the sum of the ids. */
    private static void check(String url, Properties user, String table, int rows) throws Exception {
        try (java.sql.Connection sql = DriverManager.getConnection(url, user); Statement statement = sql.createStatement();
                ResultSet rs = statement.executeQuery("SELECT count(*), sum(id) FROM " + table)) {
            rs.next();
            long expectedSum = (long) rows * (rows - 1) / 2;
            if (rs.getLong(1) != rows || rs.getLong(2) != expectedSum) {
                throw new IllegalStateException(table + " holds " + rs.getLong(1) + " rows with id sum " + rs.getLong(2)
                        + ", not the " + rows + " rows written");
            }
        }
    }

    /** pgjdbc's {@code executeBatch} of one-row INSERTs, autocommit on (one pipeline up to its Sync). */
    private static void jdbcBatch(String url, String table, int rows) throws Exception {
        Properties user = new Properties();
        user.setProperty("user", "riffle");
        try (java.sql.Connection sql = DriverManager.getConnection(url, user);
                PreparedStatement insert = sql.prepareStatement("INSERT INTO " + table
                        + " (id, name, amount) VALUES (?, ?, ?)")) {
            long started = System.nanoTime();
            for (int i = 0; i < rows; i++) {
                insert.setLong(1, i);
                insert.setString(2, "name-" + i);
                insert.setDouble(3, i * 0.5);
                insert.addBatch();
            }
            int[] counts = insert.executeBatch();
            double seconds = (System.nanoTime() - started) / 1e9;
            if (counts.length != rows) {
                throw new IllegalStateException(counts.length + " counts for " + rows + " rows");
            }
            System.out.printf(Locale.ROOT, "RESULT %.1f rows/s (%d rows in %.3f s)%n", rows / seconds, rows, seconds);
        }
        System.exit(0);
    }
}
