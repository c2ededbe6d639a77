package dev.riffle.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Arrays;
import java.util.Locale;
import java.util.Properties;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

/**
 * {@link SqlBenchmark}'s point queries: one reused {@code PreparedStatement} against one
 * {@code Lookuper}, the same keys in the same order, sequential calls from this thread, the two
 * sides interleaved call by call so that noise on this shared machine hits both alike. Every
 * answer is checked (the row of that key, and only it).
 */
final class PointQueryPhase {
    static final String SQL = "SELECT * FROM " + SqlBenchmark.KV + " WHERE k = ?";

    /**
     * Latencies in nanoseconds, sorted, and the calling thread's CPU time per call (what each side
     * costs the caller, apart from waiting for the tablet server and the batch timer).
     */
    record Result(String plan, long[] jdbcNanos, long[] javaNanos, double jdbcCpuNanos, double javaCpuNanos,
            String batchTimeout, long[] plainNanos, long[] plainJavaNanos) {
        long jdbc(double quantile) {
            return percentile(jdbcNanos, quantile);
        }

        long java(double quantile) {
            return percentile(javaNanos, quantile);
        }

        double p50Ratio() {
            return (double) jdbc(0.5) / java(0.5);
        }

        /** A plain {@code Statement} running the same point query text again, against the Lookuper. */
        double plainP50Ratio() {
            return (double) percentile(plainNanos, 0.5) / percentile(plainJavaNanos, 0.5);
        }
    }

    /** The nearest-rank percentile of sorted values. */
    static long percentile(long[] sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private interface Call {
        void call(int key) throws Exception;
    }

    private PointQueryPhase() {}

    static Result run(String bootstrap, SqlOptions options) throws Exception {
        Properties properties = new Properties();
        properties.setProperty("fluss.client.lookup.batch-timeout", options.lookupBatchTimeout());
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrap);
        conf.setString("client.lookup.batch-timeout", options.lookupBatchTimeout());
        Class.forName("dev.riffle.sql.jdbc.RiffleDriver");
        try (java.sql.Connection sql = DriverManager.getConnection("jdbc:riffle://" + bootstrap, properties);
                PreparedStatement statement = sql.prepareStatement(SQL);
                java.sql.Statement plain = sql.createStatement();
                Connection fluss = ConnectionFactory.createConnection(conf);
                Table table = fluss.getTable(SqlBenchmark.KV)) {
            String plan = explain(sql);
            Lookuper lookuper = table.newLookup().createLookuper();
            Call jdbc = key -> {
                statement.setInt(1, key);
                try (ResultSet rows = statement.executeQuery()) {
                    if (!rows.next()) {
                        throw new IllegalStateException("SQL found no row for k = " + key);
                    }
                    check(key, rows.getInt(1), rows.getString(2), rows.getLong(3), rows.getDouble(4), "SQL");
                    if (rows.next()) {
                        throw new IllegalStateException("SQL found more than one row for k = " + key);
                    }
                }
            };
            Call java = key -> {
                InternalRow row = lookuper.lookup(GenericRow.of(key)).get().getSingletonRow();
                if (row == null) {
                    throw new IllegalStateException("Lookuper found no row for k = " + key);
                }
                check(key, row.getInt(0), row.getString(1).toString(), row.getLong(2), row.getDouble(3), "Lookuper");
            };

            // The same query text again and again through a plain Statement (keys = 1: always key 0),
            // which the driver's plan cache plans once.
            Call again = key -> {
                try (ResultSet rows = plain.executeQuery("SELECT * FROM " + SqlBenchmark.KV + " WHERE k = " + key)) {
                    if (!rows.next()) {
                        throw new IllegalStateException("SQL found no row for k = " + key);
                    }
                    check(key, rows.getInt(1), rows.getString(2), rows.getLong(3), rows.getDouble(4), "SQL");
                }
            };

            int warmup = Math.max(2_000, options.lookups() / 5);
            alternate(jdbc, java, options.keys(), 1_000_000, warmup, new long[2]);
            long[] cpu = new long[2];
            long[][] nanos = alternate(jdbc, java, options.keys(), 0, options.lookups(), cpu);
            Arrays.sort(nanos[0]);
            Arrays.sort(nanos[1]);
            alternate(again, java, 1, 0, warmup, new long[2]);
            long[][] repeated = alternate(again, java, 1, 0, options.lookups(), new long[2]);
            Arrays.sort(repeated[0]);
            Arrays.sort(repeated[1]);
            return new Result(plan, nanos[0], nanos[1], (double) cpu[0] / options.lookups(),
                    (double) cpu[1] / options.lookups(), options.lookupBatchTimeout(), repeated[0], repeated[1]);
        }
    }

    /**
     * The plan of the very statement measured, with its {@code ?}: it must be a point lookup that
     * leaves nothing for Calcite to filter.
     */
    private static String explain(java.sql.Connection sql) throws Exception {
        StringBuilder plan = new StringBuilder();
        try (PreparedStatement explain = sql.prepareStatement("EXPLAIN PLAN FOR " + SQL)) {
            explain.setInt(1, 1);
            try (ResultSet rows = explain.executeQuery()) {
                while (rows.next()) {
                    plan.append(rows.getString(1));
                }
            }
        }
        String text = plan.toString().trim();
        if (!text.contains("PointLookup[k=?") || text.contains("Filter")) {
            throw new IllegalStateException("The point query is not planned as a point lookup alone:\n" + text);
        }
        return text;
    }

    private static void check(int key, int k, String name, long amount, double score, String side) {
        if (k != key || !name.equals("customer-" + key) || amount != key * 3L || score != key * 0.25) {
            throw new IllegalStateException(side + " returned the wrong row for k = " + key + ": " + k + ", " + name + ", "
                    + amount + ", " + score);
        }
    }

    /**
     * {@code count} calls per side, interleaved call by call (each key looked up by both, who goes
     * first alternating), so that the load of this shared machine, which varies by the second, hits
     * both sides alike. Per-call nanoseconds, JDBC then Java; {@code cpu} gets the calling thread's
     * CPU nanoseconds in total, JDBC then Java.
     */
    private static long[][] alternate(Call jdbc, Call java, int keys, long keySalt, int count, long[] cpu)
            throws Exception {
        long[] jdbcNanos = new long[count];
        long[] javaNanos = new long[count];
        for (int i = 0; i < count; i++) {
            int key = (int) ((keySalt + i * 104_729L + 7_919L) % keys);
            if (i % 2 == 0) {
                jdbcNanos[i] = time(jdbc, key, cpu, 0);
                javaNanos[i] = time(java, key, cpu, 1);
            } else {
                javaNanos[i] = time(java, key, cpu, 1);
                jdbcNanos[i] = time(jdbc, key, cpu, 0);
            }
        }
        return new long[][] {jdbcNanos, javaNanos};
    }

    private static long time(Call call, int key, long[] cpu, int side) throws Exception {
        long cpuStarted = THREADS.getCurrentThreadCpuTime();
        long started = System.nanoTime();
        call.call(key);
        long elapsed = System.nanoTime() - started;
        cpu[side] += THREADS.getCurrentThreadCpuTime() - cpuStarted;
        return elapsed;
    }

    static void print(Result result) {
        System.out.printf(Locale.ROOT, "%nPoint query, %,d sequential calls per side from one thread "
                + "(client.lookup.batch-timeout=%s on both sides)%n", result.jdbcNanos().length, result.batchTimeout());
        System.out.printf(Locale.ROOT, "  plan: %s%n", result.plan().replace("\n", "\n        "));
        System.out.printf(Locale.ROOT, "  %-44s %10s %10s %10s%n", "", "p50", "p90", "p99");
        row("Java Lookuper.lookup(key).get()", result.javaNanos());
        row("JDBC PreparedStatement (" + SQL.replace("SELECT * FROM ", "").replace(" WHERE", ":") + ")",
                result.jdbcNanos());
        System.out.printf(Locale.ROOT, "  %-44s %9.2fx %9.2fx %9.2fx   (target p50 <= 1.5x)%n", "ratio JDBC / Java",
                (double) result.jdbc(0.5) / result.java(0.5), (double) result.jdbc(0.9) / result.java(0.9),
                (double) result.jdbc(0.99) / result.java(0.99));
        System.out.printf(Locale.ROOT, "  calling thread's CPU per call: JDBC %.1f us, Java %.1f us (the rest is waiting for the"
                + " tablet server and the batch timer)%n", result.jdbcCpuNanos() / 1e3, result.javaCpuNanos() / 1e3);
        System.out.printf(Locale.ROOT, "  the same query text again through a plain Statement (k = 0 every time):%n");
        row("Java Lookuper.lookup(0).get()", result.plainJavaNanos());
        row("JDBC Statement.executeQuery(\"... WHERE k = 0\")", result.plainNanos());
        System.out.printf(Locale.ROOT, "  %-44s %9.2fx %9.2fx %9.2fx   (target p50 <= 1.5x)%n", "ratio JDBC / Java",
                result.plainP50Ratio(), (double) percentile(result.plainNanos(), 0.9)
                        / percentile(result.plainJavaNanos(), 0.9), (double) percentile(result.plainNanos(), 0.99)
                        / percentile(result.plainJavaNanos(), 0.99));
    }

    private static void row(String label, long[] sorted) {
        System.out.printf(Locale.ROOT, "  %-44s %7.0f us %7.0f us %7.0f us%n", label, percentile(sorted, 0.5) / 1e3,
                percentile(sorted, 0.9) / 1e3, percentile(sorted, 0.99) / 1e3);
    }
}
