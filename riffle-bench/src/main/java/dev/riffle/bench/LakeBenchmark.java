package dev.riffle.bench;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.tiering.TieredTable;
import dev.riffle.lake.tiering.TieringService;
import dev.riffle.lake.union.UnionRead;
import dev.riffle.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;

/**
 * Issue 4's benchmarks, in one run on the embedded cluster with its Paimon lake:
 * <ol>
 *   <li>tiering rows/s against append rows/s into the same cluster, and against Paimon's writer alone
 *       writing the same rows from memory into an identical table (issue 17's P6: at least 0.9x);
 *   <li>a union read of a table 90% in the lake against reading the same lake snapshot alone plus the
 *       log tail alone (target at least 0.9x);
 *   <li>a primary-key merge with a 1M-key log tail in a reader JVM with {@code -Xmx512m}.
 * </ol>
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=LakeBenchmark -Dbench.args="5000000 3"
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=LakeBenchmark -Dbench.args="tiering 4500000 3"   (the first part only, 3 repetitions)
 * </pre>
 *
 * <p>The tiering part prints, per repetition and phase, each thread group's CPU seconds with the
 * JIT's compile time and the GC's: tiering's path (fetch, decode, the tablet server's serving) is
 * hot per batch rather than per row, so it compiles over several repetitions, which is why three
 * warm-up repetitions come first ({@code -Dbench.tieringWarmups=N} for another count).

 */
public final class LakeBenchmark {
    private static final int BUCKETS = 4;

    private LakeBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("pk-merge")) {
            pkMergeReader(args[1], args[2], args[3]);
            return;
        }
        List<String> values = new ArrayList<>();
        for (String arg : args) {
            values.addAll(List.of(arg.trim().split("\\s+")));
        }
        values.removeIf(String::isEmpty);
        // "tiering" first: only tiering against appending and against Paimon's writer alone, repeated.
        boolean tieringOnly = !values.isEmpty() && values.get(0).equals("tiering");
        if (tieringOnly) {
            values.remove(0);
        }
        int rows = values.size() > 0 ? Integer.parseInt(values.get(0)) : 5_000_000;
        int rounds = values.size() > 1 ? Integer.parseInt(values.get(1)) : 3;
        int pkKeys = values.size() > 2 ? Integer.parseInt(values.get(2)) : 1_000_000;

        Path dataDir = Files.createTempDirectory("riffle-lake-bench");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig())) {
            try (Admin admin = connection.getAdmin()) {
                admin.createDatabase("bench", DatabaseDescriptor.EMPTY, true).get();
            }
            if (tieringOnly) {
                // "tiering ROWS REPS": fresh tables per repetition, every one printed, then the medians.
                // The first repetitions (-Dbench.tieringWarmups, 3 unless set) warm the JIT up for every
                // writer and are not counted. One was not enough: tiering's second and third repetitions
                // still spent 1.8 s and 1.0 s of wall time compiling (Paimon's writer alone 0.5 s, its code
                // being the writer's alone), as the printed JIT times show; from the fourth, 0.4-0.6 s.
                int warmups = Integer.getInteger("bench.tieringWarmups", 3);
                List<TieringRatios> reps = new ArrayList<>();
                for (int rep = 1 - warmups; rep <= rounds; rep++) {
                    TablePath path = TablePath.of("bench", "tiering_" + (rep + warmups));
                    create(connection, path, BoundedReadBenchmark.SCHEMA, BUCKETS);
                    System.out.printf(Locale.ROOT, "%n%s", rep <= 0 ? "Warm-up, not counted:" : "Repetition " + rep + ":");
                    TieringRatios ratios = tieringVersusWriters(cluster, connection, path, rows, "alone_" + (rep + warmups));
                    if (rep > 0) {
                        reps.add(ratios);
                    }
                }
                System.out.printf(Locale.ROOT, "%nMedians of %d repetitions: tiering / Paimon alone %.2fx (P6, target >= 0.9x;"
                        + " CPU %.2fx); / Paimon with tiering's options %.2fx (CPU %.2fx); / append %.2fx (CPU %.2fx)%n",
                        reps.size(), Median.of(reps.stream().map(TieringRatios::versusPaimon).toList()),
                        Median.of(reps.stream().map(TieringRatios::cpuVersusPaimon).toList()),
                        Median.of(reps.stream().map(TieringRatios::versusTuned).toList()),
                        Median.of(reps.stream().map(TieringRatios::cpuVersusTuned).toList()),
                        Median.of(reps.stream().map(TieringRatios::versusAppend).toList()),
                        Median.of(reps.stream().map(TieringRatios::cpuVersusAppend).toList()));
                return;
            }
            TablePath path = TablePath.of("bench", "union_read");
            create(connection, path, BoundedReadBenchmark.SCHEMA, BUCKETS);
            int lakeRows = rows / 10 * 9;
            tieringVersusWriters(cluster, connection, path, lakeRows, "alone");
            append(connection, path, lakeRows, rows);
            unionVersusParts(cluster, connection, path, rows, rounds);
            pkMerge(cluster, connection, pkKeys);
        } finally {
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /**
     * One repetition's ratios: tiering against Paimon's writer alone (with the table's own options:
     * P6), against Paimon's writer with tiering's write options, and against appending; in wall time
     * and in process CPU.
     */
    record TieringRatios(double versusPaimon, double versusTuned, double versusAppend, double cpuVersusPaimon,
            double cpuVersusTuned, double cpuVersusAppend) {}

    /**
     * Appends {@code rows} rows to the empty log table {@code path}, tiers them, and writes the same
     * rows with Paimon's writer alone into {@code bench.<aloneName>} (the table's options) and
     * {@code bench.<aloneName>_tuned} (plus tiering's write options); prints all four.
     */
    private static TieringRatios tieringVersusWriters(LocalCluster cluster, Connection connection, TablePath path,
            int rows, String aloneName) throws Exception {
        double appendCpu = cpuSeconds();
        double appendRate = append(connection, path, 0, rows);
        appendCpu = cpuSeconds() - appendCpu;
        double tieringCpu = cpuSeconds();
        Map<String, Long> threadsBefore = CpuTime.threadNanos();
        TieringRun tiering = tier(cluster, path, rows);
        tieringCpu = cpuSeconds() - tieringCpu;
        String tieringThreads = CpuTime.spent(threadsBefore, CpuTime.threadNanos(), tieringCpu);
        List<Integer> bucketRows = new ArrayList<>();
        try (Admin admin = connection.getAdmin()) {
            admin.getReadableLakeSnapshot(path).get().getTableBucketsOffset().values()
                    .forEach(offset -> bucketRows.add(Math.toIntExact(offset))); // the log starts at offset 0
        }
        double aloneCpu = cpuSeconds();
        double aloneRate = PaimonWriterAlone.write(cluster.lakeCatalogOptions(), path, aloneName, bucketRows, Map.of());
        aloneCpu = cpuSeconds() - aloneCpu;
        double tunedCpu = cpuSeconds();
        threadsBefore = CpuTime.threadNanos();
        double tunedRate = PaimonWriterAlone.write(cluster.lakeCatalogOptions(), path, aloneName + "_tuned", bucketRows,
                tunedOptions());
        tunedCpu = cpuSeconds() - tunedCpu;
        String tunedThreads = CpuTime.spent(threadsBefore, CpuTime.threadNanos(), tunedCpu);
        double tieringRate = tiering.rowsPerSecond();
        TieringRatios ratios = new TieringRatios(tieringRate / aloneRate, tieringRate / tunedRate,
                tieringRate / appendRate, aloneCpu / tieringCpu, tunedCpu / tieringCpu, appendCpu / tieringCpu);
        System.out.printf(Locale.ROOT, "%nTiering %s vs appending and vs Paimon's writer alone (%,d rows, 5 columns, %d buckets,"
                + " rows per bucket %s)%n", path, rows, BUCKETS, bucketRows);
        System.out.printf(Locale.ROOT, "  append (AppendWriter)                      %,12.0f rows/s   %,10.0f rows/CPU-s%n",
                appendRate, rows / appendCpu);
        System.out.printf(Locale.ROOT, "  Paimon writer alone, table's options       %,12.0f rows/s   %,10.0f rows/CPU-s%n",
                aloneRate, rows / aloneCpu);
        System.out.printf(Locale.ROOT, "  Paimon writer alone, tiering's options     %,12.0f rows/s   %,10.0f rows/CPU-s%n",
                tunedRate, rows / tunedCpu);
        System.out.printf(Locale.ROOT, "  tiering (rounds only)                      %,12.0f rows/s   %,10.0f rows/CPU-s   (%d rounds;"
                + " %.1f s from start to caught up, freshness 1 s included)%n", tieringRate, rows / tieringCpu,
                tiering.rounds(), tiering.wallSeconds());
        System.out.printf(Locale.ROOT, "  CPU s by thread, tiering (from start to caught up): %s%n", tieringThreads);
        System.out.printf(Locale.ROOT, "  CPU s by thread, Paimon with tiering's options: %s%n", tunedThreads);
        // The machine may be shared: CPU time (this process: client and cluster) is steadier than wall time.
        System.out.printf(Locale.ROOT, "  tiering / Paimon alone %.2fx (CPU %.2fx); / Paimon with tiering's options %.2fx (CPU %.2fx);"
                + " / append %.2fx (CPU %.2fx)%n", ratios.versusPaimon(), ratios.cpuVersusPaimon(), ratios.versusTuned(),
                ratios.cpuVersusTuned(), ratios.versusAppend(), ratios.cpuVersusAppend());
        return ratios;
    }

    /**
     * Tiering's write options (PaimonTieringFactory.WRITE_OPTIONS in riffle-lake), or the options of
     * -Dbench.tunedOptions=parquet.writer.version=v2,... to try others against the table's.
     */
    private static Map<String, String> tunedOptions() {
        Map<String, String> given = keyValues("bench.tunedOptions");
        return given.isEmpty() ? Map.of("parquet.enable.dictionary", "false") : given;
    }

    /** A system property of the form {@code k=v,k=v} as a map (empty when the property is not set). */
    private static Map<String, String> keyValues(String property) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String kv : System.getProperty(property, "").split(",")) {
            if (!kv.isBlank()) {
                values.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
            }
        }
        return values;
    }

    static void create(Connection connection, TablePath path, Schema schema, int buckets, String... keys)
            throws Exception {
        try (Admin admin = connection.getAdmin()) {
            TableDescriptor.Builder descriptor = TableDescriptor.builder().schema(schema).distributedBy(buckets, keys)
                    .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s");
            // -Dbench.tableProperties=paimon.file.compression=zstd,...: custom properties for trying lake options.
            keyValues("bench.tableProperties").forEach(descriptor::customProperty);
            admin.createTable(path, descriptor.build(), false).get();
        }
    }

    static double append(Connection connection, TablePath path, int from, int to) throws Exception {
        TimestampNtz base = TimestampNtz.fromLocalDateTime(LocalDateTime.of(2024, 1, 1, 0, 0));
        long started = System.nanoTime();
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = from; i < to; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("customer-" + (i % 10_000)), (long) i * 3,
                        i * 0.25, TimestampNtz.fromMillis(base.getMillisecond() + i)));
            }
            writer.flush();
        }
        return (to - from) / ((System.nanoTime() - started) / 1e9);
    }

    record TieringRun(long rows, long roundNanos, int rounds, double wallSeconds) {
        double rowsPerSecond() {
            return rows / (roundNanos / 1e9);
        }
    }

    static TieringRun tier(LocalCluster cluster, TablePath path, long rows) throws Exception {
        Map<Long, TieredTable> rounds = new ConcurrentHashMap<>();
        long[] roundNanos = {0};
        long[] tiered = {0};
        long started = System.nanoTime();
        try (TieringService tiering = TieringService.builder().clientConfig(cluster.clientConfig())
                .lake("paimon", cluster.lakeCatalogOptions()).pollInterval(Duration.ofMillis(100))
                .onTiered(table -> {
                    if (table.table().equals(path)) {
                        synchronized (roundNanos) {
                            roundNanos[0] += table.lastRoundDuration().toNanos();
                            tiered[0] += table.lastRoundRows();
                            rounds.put(table.rounds(), table);
                            roundNanos.notifyAll();
                        }
                    }
                }).start()) {
            synchronized (roundNanos) {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
                while (tiered[0] < rows && System.nanoTime() < deadline) {
                    roundNanos.wait(1000);
                }
            }
        }
        return new TieringRun(tiered[0], roundNanos[0], rounds.size(), (System.nanoTime() - started) / 1e9);
    }

    private static void unionVersusParts(LocalCluster cluster, Connection connection, TablePath path, int rows,
            int rounds) throws Exception {
        List<Double> union = new ArrayList<>();
        List<Double> parts = new ArrayList<>();
        List<Double> lakeRates = new ArrayList<>();
        List<Double> logRates = new ArrayList<>();
        List<Double> lakeVersusLog = new ArrayList<>();
        try (Riffle riffle = Riffle.connect(cluster.bootstrapServers())) {
            RiffleTable table = riffle.table(path);
            var lake = FlussPluginLakeSource.create("paimon", cluster.lakeCatalogOptions(), path, table.info().getRowType());
            Map<BucketRef, Long> snapshotOffsets = new HashMap<>();
            try (Admin admin = connection.getAdmin()) {
                admin.getReadableLakeSnapshot(path).get().getTableBucketsOffset()
                        .forEach((bucket, offset) -> snapshotOffsets.put(BucketRef.of(bucket.getBucket()), offset));
            }
            for (int round = -1; round < rounds; round++) {
                long started = System.nanoTime();
                long read = count(UnionRead.of(riffle, lake, table).createReader());
                double unionSeconds = (System.nanoTime() - started) / 1e9;
                started = System.nanoTime();
                long lakeOnly = count(UnionRead.of(riffle, lake, table).lakeOnly().createReader());
                long tail = 0;
                try (BoundedLogReader log = table.read().log().from(StartingOffsets.explicit(snapshotOffsets)).createLogReader()) {
                    while (log.hasNext()) {
                        try (LogBatch batch = log.next()) {
                            tail += touch(batch.root());
                        }
                    }
                }
                double partsSeconds = (System.nanoTime() - started) / 1e9;
                if (read != rows || lakeOnly + tail != rows) {
                    throw new IllegalStateException("union read " + read + " rows, lake " + lakeOnly + " + tail " + tail
                            + ", expected " + rows);
                }
                // The lake's rows read from the lake alone, then the same rows read from the log (Fluss keeps them).
                started = System.nanoTime();
                long lakeAgain = count(UnionRead.of(riffle, lake, table).lakeOnly().createReader());
                double lakeSeconds = (System.nanoTime() - started) / 1e9;
                started = System.nanoTime();
                long logRows = 0;
                try (BoundedLogReader log = table.read().log().until(StoppingOffsets.explicit(snapshotOffsets))
                        .createLogReader()) {
                    while (log.hasNext()) {
                        try (LogBatch batch = log.next()) {
                            logRows += touch(batch.root());
                        }
                    }
                }
                double logSeconds = (System.nanoTime() - started) / 1e9;
                if (lakeAgain != lakeOnly || logRows != lakeOnly) {
                    throw new IllegalStateException("lake " + lakeAgain + " rows, log up to the snapshot " + logRows
                            + ", expected " + lakeOnly);
                }
                if (round >= 0) { // round -1 warms up
                    union.add(rows / unionSeconds);
                    parts.add(rows / partsSeconds);
                    lakeRates.add(lakeOnly / lakeSeconds);
                    logRates.add(lakeOnly / logSeconds);
                    lakeVersusLog.add(logSeconds / lakeSeconds);
                }
            }
        }
        Collections.sort(union);
        Collections.sort(parts);
        double u = union.get(union.size() / 2);
        double p = parts.get(parts.size() / 2);
        System.out.printf(Locale.ROOT, "%nUnion read, %,d rows (90%% in the lake), median of %d rounds%n", rows, rounds);
        System.out.printf(Locale.ROOT, "  lake snapshot alone + log tail alone  %,12.0f rows/s%n", p);
        System.out.printf(Locale.ROOT, "  union read                            %,12.0f rows/s   ratio %.2fx%n", u, u / p);
        System.out.printf(Locale.ROOT, "  all rounds: union %s, parts %s%n", union, parts);
        System.out.printf(Locale.ROOT, "%nLake read of the snapshot's rows (Paimon -> Arrow) vs the same rows from the log"
                + " (Fluss -> Arrow), 5 columns%n");
        System.out.printf(Locale.ROOT, "  lake %,12.0f rows/s, log %,12.0f rows/s (medians)   ratio %.2fx median of per-round"
                + " ratios (target >= 0.5x)%n", Median.of(lakeRates), Median.of(logRates), Median.of(lakeVersusLog));
        System.out.printf(Locale.ROOT, "  all rounds: lake %s, log %s, ratios %s%n", rounded(lakeRates), rounded(logRates),
                lakeVersusLog.stream().map(r -> String.format(Locale.ROOT, "%.2f", r)).toList());
    }

    private static List<String> rounded(List<Double> rates) {
        return rates.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r)).toList();
    }

    static long count(TableReader reader) throws Exception {
        long rows = 0;
        try (reader) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    rows += touch(batch.root());
                }
            }
        }
        return rows;
    }

    /** Reads the id column of every row, so both sides pay for using the data. */
    private static long touch(VectorSchemaRoot batch) {
        var id = (org.apache.arrow.vector.IntVector) batch.getVector(0);
        long sum = 0;
        for (int i = 0; i < batch.getRowCount(); i++) {
            sum += id.get(i);
        }
        return sum >= 0 ? batch.getRowCount() : 0;
    }

    private static void pkMerge(LocalCluster cluster, Connection connection, int keys) throws Exception {
        TablePath path = TablePath.of("bench", "pk_merge");
        Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING())
                .primaryKey("id").build();
        create(connection, path, schema, BUCKETS, "id");
        upsert(connection, path, keys, "lake-");
        tier(cluster, path, keys);
        upsert(connection, path, keys, "tail-");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-XX:+UseParallelGC", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), LakeBenchmark.class.getName(), "pk-merge",
                cluster.bootstrapServers(), path.toString(), cluster.lakeCatalogOptions().get("warehouse")));
        System.out.printf(Locale.ROOT, "%nPrimary-key merge: %,d keys in the lake, all %,d updated in the log tail, reader -Xmx512m%n",
                keys, keys);
        Process reader = new ProcessBuilder(command).inheritIO().start();
        if (reader.waitFor() != 0) {
            throw new IllegalStateException("The PK merge reader failed");
        }
    }

    /** Keys 0 to {@code keys - 1} of an (INT, STRING) primary-key table, each with the value {@code prefix + key}. */
    static void upsert(Connection connection, TablePath path, int keys, String prefix) throws Exception {
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < keys; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString(prefix + i)));
            }
            writer.flush();
        }
    }

    private static void pkMergeReader(String bootstrap, String table, String warehouse) throws Exception {
        HeapPeak.reset();
        long started = System.nanoTime();
        long rows = 0;
        long tailValues = 0;
        try (Riffle riffle = Riffle.connect(bootstrap)) {
            RiffleTable t = riffle.table(table);
            var lake = FlussPluginLakeSource.create("paimon", Map.of("metastore", "filesystem", "warehouse", warehouse),
                    t.info().getTablePath(), t.info().getRowType());
            try (TableReader reader = UnionRead.of(riffle, lake, t).createReader()) {
                while (reader.hasNext()) {
                    try (VectorSchemaRoot batch = reader.next().root()) {
                        for (int i = 0; i < batch.getRowCount(); i++) {
                            if (batch.getVector(1).getObject(i).toString().startsWith("tail-")) {
                                tailValues++;
                            }
                        }
                        rows += batch.getRowCount();
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "  completed: %,d rows (%,d with the tail's values) in %.1f s, peak heap %.0f MB%n",
                rows, tailValues, (System.nanoTime() - started) / 1e9, HeapPeak.peakBytes() / 1048576.0);
        if (rows != tailValues) {
            throw new IllegalStateException("The merge kept " + (rows - tailValues) + " stale rows");
        }
    }
}
