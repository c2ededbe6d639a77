package dev.riffle.bench;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.union.UnionRead;
import dev.riffle.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;

/**
 * Issue 43's first item: a primary-key table's union read (lake snapshot + log tail merged by key)
 * against reading the same lake snapshot alone, in a reader JVM with {@code -Xmx512m}.
 *
 * <p>The table has KEYS keys (an INT key, a STRING value) tiered into the lake, then the first
 * UPDATED of them upserted again into the log tail. The reader JVM reads the merged table and the
 * lake alone and the log tail alone (a changelog read from the lake snapshot's offsets), in turn,
 * ROUNDS times after one warm-up round; it checks every merged read (KEYS rows, exactly UPDATED
 * carrying the tail's value), prints every round and the medians. "merged / (lake + tail)" is the
 * merge's time against reading its two inputs one after the other: 1.0x means the merge by key
 * itself costs nothing.
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=MergeBenchmark -Dbench.args="1000000 1000000 5"
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=MergeBenchmark -Dbench.args="10000000 1000000 3"
 * </pre>
 * Targets: 1M keys all updated at least 2 M rows/s; 10M keys with 10% updated at least 5 M rows/s.
 * {@code -Dbench.readerJvmArgs="-XX:StartFlightRecording=..."} adds flags to the reader JVM.
 */
public final class MergeBenchmark {
    private static final int BUCKETS = 4;

    private MergeBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("reader")) {
            reader(args[1], args[2], args[3], Long.parseLong(args[4]), Long.parseLong(args[5]), Integer.parseInt(args[6]));
            return;
        }
        String[] words = String.join(" ", args).trim().split("\\s+");
        int keys = words.length > 0 && !words[0].isEmpty() ? Integer.parseInt(words[0]) : 1_000_000;
        int updated = words.length > 1 ? Integer.parseInt(words[1]) : keys;
        int rounds = words.length > 2 ? Integer.parseInt(words[2]) : 5;
        Path dataDir = Files.createTempDirectory("riffle-merge-bench");
        TablePath path = TablePath.of("bench", "pk_merge");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig())) {
            try (Admin admin = connection.getAdmin()) {
                admin.createDatabase("bench", DatabaseDescriptor.EMPTY, true).get();
            }
            LakeBenchmark.create(connection, path, Schema.newBuilder().column("id", DataTypes.INT())
                    .column("v", DataTypes.STRING()).primaryKey("id").build(), BUCKETS, "id");
            long started = System.nanoTime();
            LakeBenchmark.upsert(connection, path, keys, "lake-");
            System.out.printf(Locale.ROOT, "Wrote %,d keys (%.0f s)%n", keys, (System.nanoTime() - started) / 1e9);
            LakeBenchmark.TieringRun tiered = LakeBenchmark.tier(cluster, path, keys);
            System.out.printf(Locale.ROOT, "Tiered %,d rows into the lake (%.0f s)%n", tiered.rows(), tiered.wallSeconds());
            LakeBenchmark.upsert(connection, path, updated, "tail-");
            System.out.printf(Locale.ROOT, "Updated %,d keys in the log tail%n", updated);
            List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx512m", "-XX:+UseParallelGC", "--add-opens=java.base/java.nio=ALL-UNNAMED"));
            String extra = System.getProperty("bench.readerJvmArgs", "").trim();
            if (!extra.isEmpty()) {
                command.addAll(List.of(extra.split("\\s+")));
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), MergeBenchmark.class.getName(), "reader",
                    cluster.bootstrapServers(), path.toString(), cluster.lakeCatalogOptions().get("warehouse"),
                    Long.toString(keys), Long.toString(updated), Integer.toString(rounds)));
            System.out.printf(Locale.ROOT, "%nPrimary-key merge: %,d keys in the lake, %,d of them updated in the log tail,"
                    + " reader -Xmx512m%n", keys, updated);
            Process reader = new ProcessBuilder(command).inheritIO().start();
            if (reader.waitFor() != 0) {
                throw new IllegalStateException("The merge reader failed");
            }
        } finally {
            try (var paths = Files.walk(dataDir)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void reader(String bootstrap, String table, String warehouse, long keys, long updated, int rounds)
            throws Exception {
        List<Double> mergeRates = new ArrayList<>();
        List<Double> lakeRates = new ArrayList<>();
        List<Double> ratios = new ArrayList<>();
        List<Double> parts = new ArrayList<>();
        List<Double> partsRatios = new ArrayList<>();
        long peak = 0;
        try (Riffle riffle = Riffle.connect(bootstrap)) {
            RiffleTable t = riffle.table(table);
            var lake = FlussPluginLakeSource.create("paimon", Map.of("metastore", "filesystem", "warehouse", warehouse),
                    t.info().getTablePath(), t.info().getRowType());
            for (int round = 0; round <= rounds; round++) {
                HeapPeak.reset();
                long started = System.nanoTime();
                long[] merged = read(UnionRead.of(riffle, lake, t).createReader());
                double mergeSeconds = (System.nanoTime() - started) / 1e9;
                long roundPeak = HeapPeak.peakBytes();
                if (merged[0] != keys || merged[1] != updated) {
                    throw new IllegalStateException("The merge read " + merged[0] + " rows, " + merged[1]
                            + " with the tail's value; expected " + keys + " and " + updated);
                }
                started = System.nanoTime();
                long[] lakeAlone = read(UnionRead.of(riffle, lake, t).lakeOnly().createReader());
                double lakeSeconds = (System.nanoTime() - started) / 1e9;
                if (lakeAlone[0] != keys) {
                    throw new IllegalStateException("The lake alone read " + lakeAlone[0] + " rows, expected " + keys);
                }
                started = System.nanoTime();
                long tailRows = tailAlone(riffle, t, lakeOffsets(riffle, t));
                double tailSeconds = (System.nanoTime() - started) / 1e9;
                if (tailRows < updated) {
                    throw new IllegalStateException("The tail alone read " + tailRows + " rows, expected " + updated);
                }
                double mergeRate = keys / mergeSeconds;
                double lakeRate = keys / lakeSeconds;
                System.out.printf(Locale.ROOT, "  %s: merged %.2f s (%.2f M rows/s, peak heap %.0f MB), lake alone %.2f s"
                        + " (%.2f M rows/s), tail alone %.2f s (%,d changelog rows); merged / lake alone %.2fx,"
                        + " merged / (lake + tail) %.2fx%n", round == 0 ? "warm-up" : "round " + round,
                        mergeSeconds, mergeRate / 1e6, roundPeak / 1048576.0, lakeSeconds, lakeRate / 1e6, tailSeconds,
                        tailRows, mergeRate / lakeRate, (lakeSeconds + tailSeconds) / mergeSeconds);
                partsRatios.add((lakeSeconds + tailSeconds) / mergeSeconds);
                if (round > 0) {
                    mergeRates.add(mergeRate);
                    lakeRates.add(lakeRate);
                    ratios.add(mergeRate / lakeRate);
                    parts.add(partsRatios.get(partsRatios.size() - 1));
                    peak = Math.max(peak, roundPeak);
                }
            }
        }
        System.out.printf(Locale.ROOT, "Medians of %d rounds: merged %.2f M rows/s, lake alone %.2f M rows/s,"
                + " merged / lake alone %.2fx, merged / (lake alone + tail alone) %.2fx; highest peak heap of a"
                + " merged read %.0f MB%n", rounds, Median.of(mergeRates) / 1e6, Median.of(lakeRates) / 1e6,
                Median.of(ratios), Median.of(parts), peak / 1048576.0);
    }

    /** Where the lake snapshot ends in each bucket: where the tail starts. */
    private static Map<BucketRef, Long> lakeOffsets(Riffle riffle, RiffleTable table) throws Exception {
        Map<BucketRef, Long> offsets = new HashMap<>();
        riffle.admin().getReadableLakeSnapshot(table.info().getTablePath()).get().getTableBucketsOffset()
                .forEach((bucket, offset) -> offsets.put(BucketRef.of(bucket.getBucket()), offset));
        return offsets;
    }

    /** The log tail alone, as the merge reads it (a changelog read from the lake's offsets); every key is looked at. */
    private static long tailAlone(Riffle riffle, RiffleTable table, Map<BucketRef, Long> from) {
        long rows = 0;
        try (BoundedLogReader log = table.read().changelog().from(StartingOffsets.explicit(from)).createLogReader()) {
            while (log.hasNext()) {
                try (LogBatch batch = log.next()) {
                    IntVector ids = (IntVector) batch.root().getVector(0);
                    for (int i = 0; i < batch.rowCount(); i++) {
                        rows += ids.isNull(i) ? 0 : 1;
                    }
                }
            }
        }
        return rows;
    }

    /** Rows read, and how many carry the tail's value; every value is looked at. */
    private static long[] read(TableReader reader) {
        long rows = 0;
        long fromTail = 0;
        try (reader) {
            while (reader.hasNext()) {
                try (VectorSchemaRoot batch = reader.next().root()) {
                    IntVector ids = (IntVector) batch.getVector(0);
                    VarCharVector values = (VarCharVector) batch.getVector(1);
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        // "tail-..." against "lake-...": the first byte tells them apart.
                        if (!ids.isNull(i) && values.getDataBuffer().getByte(values.getStartOffset(i)) == 't') {
                            fromTail++;
                        }
                    }
                    rows += batch.getRowCount();
                }
            }
        }
        return new long[] {rows, fromTail};
    }
}
