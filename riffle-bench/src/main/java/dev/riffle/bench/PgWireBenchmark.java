package dev.riffle.bench;

import dev.riffle.local.LocalCluster;
import dev.riffle.pgwire.PgWireServer;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.postgresql.PGConnection;

/**
 * Issue 16's benchmark: Riffle's PostgreSQL protocol server, driven by pgjdbc, against the
 * in-process baselines, each client in its own JVM, alternating, every round printed, medians
 * compared:
 * <ul>
 *   <li>prepared point query p50 through pgjdbc (a server-side prepared statement after
 *       pgjdbc's {@code prepareThreshold}, binary results) ÷ the Fluss {@code Lookuper}'s p50, both
 *       with a 1 ms lookup batch timeout: target &lt;= 2x;</li>
 *   <li>full scan of a 3-column log table through pgjdbc (binary transfer, {@code setFetchSize}
 *       portions, every value read) ÷ the same query and reads through the in-process
 *       {@code jdbc:riffle} driver, rows/s: target &gt;= 0.5x;</li>
 *   <li>{@code COPY bench.events TO STDOUT} through pgjdbc's {@code CopyManager}, rows/s (reported).</li>
 * </ul>
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=PgWireBenchmark -Dbench.args="5000000 3"
 * </pre>
 * Arguments: scan rows (default 5,000,000), rounds (default 3), and optionally which parts to run
 * ({@code lookup,scan,copy}, the default).
 */
public final class PgWireBenchmark {
    private static final int KEYS = 100_000;
    private static final int LOOKUPS = 2_000;
    private static final int WARMUP = 500;
    private static final int FETCH_SIZE = 10_000;

    private PgWireBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].startsWith("child-")) {
            child(args);
            return;
        }
        ScanBenchArgs parsed = ScanBenchArgs.parse(args, "lookup,scan,copy");
        int rows = parsed.rows();
        int rounds = parsed.rounds();
        List<String> parts = parsed.parts();
        Path dataDir = Files.createTempDirectory("riffle-pg-bench");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                PgWireServer pg = PgWireServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                        .start()) {
            BenchTables.create(connection, rows, KEYS);
            String bootstrap = cluster.bootstrapServers();
            String url = "jdbc:postgresql://127.0.0.1:" + pg.port() + "/riffle";
            System.out.printf(Locale.ROOT, "PostgreSQL protocol (pgjdbc) vs in-process, %,d scan rows in %d buckets,"
                    + " %,d keys; each client in its own JVM%n", rows, BenchTables.BUCKETS, KEYS);
            List<Double> lookupPg = new ArrayList<>();
            List<Double> lookupJava = new ArrayList<>();
            List<Double> scanPg = new ArrayList<>();
            List<Double> scanRiffle = new ArrayList<>();
            List<Double> copyPg = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                if (parts.contains("lookup")) {
                    lookupJava.add(run("child-lookup-java", bootstrap, url, rows));
                    lookupPg.add(run("child-lookup-pg", bootstrap, url, rows));
                    System.out.printf(Locale.ROOT, "round %d: point query p50 %.2fx%n", round,
                            lookupPg.get(round - 1) / lookupJava.get(round - 1));
                }
                if (parts.contains("scan")) {
                    scanRiffle.add(run("child-scan-riffle-jdbc", bootstrap, url, rows));
                    scanPg.add(run("child-scan-pg", bootstrap, url, rows));
                    System.out.printf(Locale.ROOT, "round %d: scan %.2fx%n", round,
                            scanPg.get(round - 1) / scanRiffle.get(round - 1));
                }
                if (parts.contains("copy")) {
                    copyPg.add(run("child-copy-pg", bootstrap, url, rows));
                }
            }
            if (parts.contains("lookup")) {
                double lookup = Median.of(lookupPg) / Median.of(lookupJava);
                System.out.printf(Locale.ROOT, "median point query p50: pgjdbc %.3f ms, Lookuper %.3f ms: %.2fx"
                        + " (target <= 2x): %s%n", Median.of(lookupPg), Median.of(lookupJava), lookup,
                        lookup <= 2 ? "met" : "NOT met");
            }
            if (parts.contains("scan")) {
                double scan = Median.of(scanPg) / Median.of(scanRiffle);
                System.out.printf(Locale.ROOT, "median scan: pgjdbc %.2f M rows/s, jdbc:riffle %.2f M rows/s: %.2fx"
                        + " (target >= 0.5x): %s%n", Median.of(scanPg) / 1e6, Median.of(scanRiffle) / 1e6, scan,
                        scan >= 0.5 ? "met" : "NOT met");
            }
            if (parts.contains("copy")) {
                System.out.printf(Locale.ROOT, "median COPY TO STDOUT: %.2f M rows/s%n", Median.of(copyPg) / 1e6);
            }
        }
    }

    private static double run(String mode, String bootstrap, String url, int rows) throws Exception {
        long serverCpu = CpuTime.processNanos();
        double result = ClientJvm.run(PgWireBenchmark.class, List.of(mode, bootstrap, url, Integer.toString(rows)),
                "pass ");
        if (!mode.contains("lookup")) {
            System.out.printf(Locale.ROOT, "    cluster + server JVM CPU %.2f s over the client's passes%n",
                    (CpuTime.processNanos() - serverCpu) / 1e9);
        }
        return result;
    }

    private static void child(String[] args) throws Exception {
        String mode = args[0];
        String bootstrap = args[1];
        String url = args[2];
        int rows = Integer.parseInt(args[3]);
        switch (mode) {
            case "child-lookup-java" -> LookuperBaseline.measure(bootstrap, KEYS, WARMUP, LOOKUPS);
            case "child-lookup-pg" -> lookupPg(url);
            case "child-scan-riffle-jdbc" -> scan("jdbc:riffle://" + bootstrap, new Properties(), rows);
            case "child-scan-pg" -> scan(url, binaryTransfer(), rows);
            case "child-copy-pg" -> copy(url, rows);
            default -> throw new IllegalArgumentException(mode);
        }
        System.exit(0); // client libraries keep non-daemon threads; the measurement is printed
    }

    /** pgjdbc asked for binary results from the first execution (not only past prepareThreshold). */
    private static Properties binaryTransfer() {
        Properties properties = new Properties();
        properties.setProperty("binaryTransfer", "true");
        properties.setProperty("prepareThreshold", "-1");
        return properties;
    }

    private static void lookupPg(String url) throws Exception {
        double[] millis = new double[LOOKUPS];
        // pgjdbc's defaults: a named server statement (and binary results) from the 5th execution on.
        try (java.sql.Connection sql = DriverManager.getConnection(url);
                PreparedStatement query = sql.prepareStatement("SELECT owner FROM bench.accounts WHERE id = ?")) {
            for (int i = 0; i < WARMUP + LOOKUPS; i++) {
                long id = PointKeys.key(i, KEYS);
                long started = System.nanoTime();
                query.setLong(1, id);
                try (ResultSet rs = query.executeQuery()) {
                    if (!rs.next() || !("owner-" + id).equals(rs.getString(1)) || rs.next()) {
                        throw new IllegalStateException("key " + id + " not answered with its one row");
                    }
                }
                if (i >= WARMUP) {
                    millis[i - WARMUP] = (System.nanoTime() - started) / 1e6;
                }
            }
        }
        PointKeys.printResult(millis, "queries");
    }

    /** Reads every value of every row, as a client that uses the result would, and checks the sum of the ids. */
    private static void scan(String url, Properties properties, int expected) throws Exception {
        long expectedIdSum = (long) expected * (expected - 1) / 2;
        try (java.sql.Connection sql = DriverManager.getConnection(url, properties)) {
            // pgjdbc fetches a portion at a time only inside a transaction; without one it buffers the whole
            // result. jdbc:riffle streams either way (and has no transactions to turn on).
            boolean pgjdbc = url.startsWith("jdbc:postgresql:");
            if (pgjdbc) {
                sql.setAutoCommit(false);
            }
            for (int pass = 1; pass <= ScanPasses.PASSES; pass++) {
                long started = System.nanoTime();
                long cpu = CpuTime.processNanos();
                long rows = 0;
                long idSum = 0;
                long textBytes = 0;
                double amountSum = 0;
                try (PreparedStatement query = sql.prepareStatement("SELECT id, kind, amount FROM bench.events")) {
                    query.setFetchSize(FETCH_SIZE);
                    try (ResultSet rs = query.executeQuery()) {
                        while (rs.next()) {
                            idSum += rs.getLong(1);
                            textBytes += rs.getString(2).length();
                            amountSum += rs.getDouble(3);
                            rows++;
                        }
                    }
                }
                if (pgjdbc) {
                    sql.commit();
                }
                ScanPasses.check(rows, expected);
                if (idSum != expectedIdSum || textBytes == 0 || amountSum <= 0) {
                    throw new IllegalStateException("read other values than were written: id sum " + idSum);
                }
                ScanPasses.report(pass, rows, started, cpu, "");
            }
        }
    }

    private static void copy(String url, int expected) throws Exception {
        try (java.sql.Connection sql = DriverManager.getConnection(url)) {
            for (int pass = 1; pass <= ScanPasses.PASSES; pass++) {
                long started = System.nanoTime();
                long cpu = CpuTime.processNanos();
                LineCounter lines = new LineCounter();
                long copied = sql.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY bench.events TO STDOUT", lines);
                ScanPasses.check(copied, expected);
                ScanPasses.check(lines.lines, expected);
                ScanPasses.report(pass, copied, started, cpu, String.format(Locale.ROOT, ", %,d bytes", lines.bytes));
            }
        }
    }

    /** Where COPY's text goes: counted, not kept. */
    private static final class LineCounter extends OutputStream {
        long lines;
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
            if (b == '\n') {
                lines++;
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    lines++;
                }
            }
        }
    }
}
