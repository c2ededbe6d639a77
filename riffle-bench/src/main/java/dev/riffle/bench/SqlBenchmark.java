package dev.riffle.bench;

import dev.riffle.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;

/**
 * Issue 5's benchmarks: SQL through the {@code jdbc:riffle:} driver against the best a user could
 * do without it, in one run on the embedded cluster, as ratios:
 * <ol>
 *   <li>a point query through a reused {@code PreparedStatement}
 *       ({@code SELECT * FROM bench.kv WHERE k = ?}, EXPLAIN must show {@code PointLookup}) against
 *       the Java client's {@code Lookuper.lookup} of the same keys; sequential calls from one
 *       thread, the same {@code client.lookup.batch-timeout} on both sides; p50 and p99 latency,
 *       target p50 ratio at most 1.5x ({@link PointQueryPhase});
 *   <li>{@code SELECT k, count(*), sum(v) FROM bench.events GROUP BY k} over a log table through
 *       the driver against DuckDB aggregating the same rows, read by Riffle's bounded reader and
 *       handed over as an Arrow C stream; wall time, target ratio at most 3x; both answers are
 *       checked against each other and the generator ({@link GroupByPhase});
 *   <li>{@code ORDER BY v DESC, k LIMIT 10}, {@code SELECT k, count(*), sum(v * 2 - k) ...
 *       GROUP BY k} (an aggregate of a computed value), {@code ... WHERE v * 10 > k GROUP BY k}
 *       (a condition the scan cannot take), a top-N of a computed key over that condition,
 *       {@code SELECT tag, count(DISTINCT k) ... GROUP BY tag}, {@code COUNT(DISTINCT)} beside
 *       other aggregates over a pushed filter and {@code GROUP BY tag, k} (the last three with
 *       {@code --only distinct}), over the same table, vectorized against
 *       {@code vectorized=false} ({@link VectorizedPhase}).
 * </ol>
 *
 * <p>The cluster (one tablet server) runs in this JVM and is loaded here; the measurements run in
 * a child JVM ({@code -Xmx2g}), so a profile of it shows the client side alone. Extra JVM options
 * for the child: {@code -Dbench.readerJvmArgs=...}.
 *
 * <pre>
 * mvn -q -B install -DskipTests -pl riffle-bench
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=SqlBenchmark -Dbench.args="--rows 200000"     # smoke, &lt; 2 min
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=SqlBenchmark -Dbench.args="5000000"           # issue 5's run
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=SqlBenchmark -Dbench.args="5000000 --only groupby --jfr /tmp/sql.jfr"
 * </pre>
 * Options: {@value SqlOptions#USAGE}.
 */
public final class SqlBenchmark {
    static final String DATABASE = "bench";
    static final TablePath KV = TablePath.of(DATABASE, "kv");
    static final TablePath EVENTS = TablePath.of(DATABASE, "events");
    static final int BUCKETS = 4;
    static final Schema KV_SCHEMA = Schema.newBuilder().column("k", DataTypes.INT()).column("name", DataTypes.STRING())
            .column("amount", DataTypes.BIGINT()).column("score", DataTypes.DOUBLE()).primaryKey("k").build();
    /** {@code tag} is there so that reading only {@code k} and {@code v} is a projection. */
    static final Schema EVENTS_SCHEMA = Schema.newBuilder().column("k", DataTypes.INT()).column("v", DataTypes.BIGINT())
            .column("tag", DataTypes.STRING()).build();

    private SqlBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("measure")) {
            String bootstrap = args[1];
            SqlOptions options = SqlOptions.parse(java.util.Arrays.copyOfRange(args, 2, args.length));
            SqlMeasurements.run(bootstrap, options);
            return;
        }
        SqlOptions options = SqlOptions.parse(args);
        Path dataDir = Files.createTempDirectory("riffle-sql-bench");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false).start()) {
            try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig())) {
                try (Admin admin = connection.getAdmin()) {
                    admin.createDatabase(DATABASE, DatabaseDescriptor.EMPTY, true).get();
                }
                if (options.runsLookups()) {
                    loadKv(connection, options.keys());
                }
                if (options.runsGroupBy() || options.runsTopN() || options.runsComputed() || options.runsDistinct()) {
                    loadEvents(connection, options.rows(), options.groups());
                }
            }
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx2g", "-XX:+UseParallelGC", "--add-opens=java.base/java.nio=ALL-UNNAMED"));
            // e.g. -Dbench.readerJvmArgs=-XX:StartFlightRecording=filename=sql.jfr,settings=profile
            String extra = System.getProperty("bench.readerJvmArgs", "").trim();
            if (!extra.isEmpty()) {
                command.addAll(List.of(extra.split("\\s+")));
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), SqlBenchmark.class.getName(), "measure",
                    cluster.bootstrapServers()));
            command.addAll(options.toArgs());
            Process measuring = new ProcessBuilder(command).inheritIO().start();
            int exit = measuring.waitFor();
            if (exit != 0) {
                throw new IllegalStateException("The measuring JVM failed with exit code " + exit);
            }
        } finally {
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** Row {@code i} of the log table: {@code k = i % groups}. */
    static int k(long i, int groups) {
        return (int) (i % groups);
    }

    /** Row {@code i} of the log table: {@code v} in 1..1000, not a function of {@code k}. */
    static long v(long i) {
        return (i * 7_919L) % 1_000 + 1;
    }

    private static void loadKv(Connection connection, int keys) throws Exception {
        create(connection, KV, KV_SCHEMA);
        long started = System.nanoTime();
        try (Table table = connection.getTable(KV)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < keys; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("customer-" + i), (long) i * 3, i * 0.25));
            }
            writer.flush();
            awaitVisible(table.newLookup().createLookuper(), keys);
        }
        System.out.printf(Locale.ROOT, "Loaded %,d keys into %s (INT key, STRING, BIGINT, DOUBLE; %d buckets) in %.1f s%n",
                keys, KV, BUCKETS, (System.nanoTime() - started) / 1e9);
    }

    private static void loadEvents(Connection connection, int rows, int groups) throws Exception {
        create(connection, EVENTS, EVENTS_SCHEMA);
        long started = System.nanoTime();
        try (Table table = connection.getTable(EVENTS)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < rows; i++) {
                writer.append(GenericRow.of(k(i, groups), v(i), BinaryString.fromString("tag-" + (i % 100))));
            }
            writer.flush();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(Locale.ROOT, "Loaded %,d rows into log table %s (k INT with %,d values, v BIGINT, tag STRING;"
                + " %d buckets) at %,.0f rows/s%n", rows, EVENTS, groups, BUCKETS, rows / seconds);
    }

    private static void create(Connection connection, TablePath path, Schema schema) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(BUCKETS).build(), false).get();
        }
    }

    /** Waits (at most a minute) until every key answers a lookup, checking them in bursts. */
    private static void awaitVisible(Lookuper lookuper, int keys) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        int from = 0;
        while (from < keys) {
            List<CompletableFuture<LookupResult>> burst = new ArrayList<>();
            int to = Math.min(keys, from + 1_000);
            for (int key = from; key < to; key++) {
                burst.add(lookuper.lookup(GenericRow.of(key)));
            }
            boolean all = true;
            for (CompletableFuture<LookupResult> result : burst) {
                all &= result.get().getSingletonRow() != null;
            }
            if (all) {
                from = to;
            } else if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Keys " + from + ".." + to + " of " + KV + " are still not all visible"
                        + " after a minute");
            } else {
                Thread.sleep(100);
            }
        }
    }
}
