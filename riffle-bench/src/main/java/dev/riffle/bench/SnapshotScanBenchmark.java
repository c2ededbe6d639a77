package dev.riffle.bench;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.core.filter.BatchFilter;
import dev.riffle.core.merge.KeyedMergeReader;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.reader.EmptyReader;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;

/**
 * Issue 13's benchmark: a primary-key table's current rows read from each bucket's KV snapshot
 * plus the changelog after it (Riffle's {@code SnapshotScan}) against replaying the whole
 * changelog and folding it by key (what Riffle did before, the same {@link KeyedMergeReader} over
 * the changelog from offset 0). The table has N keys, each updated U times, snapshotted, then a
 * tail of N/100 more updates. Each side runs in its own JVM with {@code -Xmx512m}, alternating,
 * and reports its time and peak heap; target: the snapshot read at least 3x faster.
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.class=SnapshotScanBenchmark -Dbench.args="1000000 10 3"
 * </pre>
 * Arguments: keys (default 1,000,000), updates per key (default 10), rounds per side (default 3).
 */
public final class SnapshotScanBenchmark {
    private static final int BUCKETS = 4;

    private SnapshotScanBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && (args[0].equals("snapshot") || args[0].equals("replay"))) {
            measure(args[0], args[1], args[2], Integer.parseInt(args[3]));
            return;
        }
        String[] words = String.join(" ", args).trim().split("\\s+");
        int keys = words.length > 0 && !words[0].isEmpty() ? Integer.parseInt(words[0]) : 1_000_000;
        int updates = words.length > 1 ? Integer.parseInt(words[1]) : 10;
        int rounds = words.length > 2 ? Integer.parseInt(words[2]) : 3;
        Path dataDir = Files.createTempDirectory("riffle-snapshot-bench");
        TablePath path = TablePath.of("bench", "accounts");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false)
                .serverConfig("kv.snapshot.interval", "5s").start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig())) {
            try (Admin admin = connection.getAdmin()) {
                admin.createDatabase("bench", DatabaseDescriptor.EMPTY, true).get();
                admin.createTable(path, TableDescriptor.builder().schema(org.apache.fluss.metadata.Schema.newBuilder()
                        .column("id", DataTypes.INT()).column("version", DataTypes.INT())
                        .column("note", DataTypes.STRING()).primaryKey("id").build()).distributedBy(BUCKETS).build(),
                        false).get();
            }
            long started = System.nanoTime();
            for (int version = 1; version <= updates; version++) {
                upsert(connection, path, 0, keys, version);
                System.out.printf(Locale.ROOT, "  wrote version %d of %,d keys (%.0f s)%n", version, keys,
                        (System.nanoTime() - started) / 1e9);
            }
            awaitSnapshots(connection, path);
            upsert(connection, path, 0, keys / 100, updates + 1);
            System.out.printf(Locale.ROOT, "Current rows of %,d keys x %d updates (+ a tail of %,d updates after"
                    + " the KV snapshot), %d buckets; each reader in its own JVM with -Xmx512m%n", keys, updates,
                    keys / 100, BUCKETS);
            List<Double> snapshot = new ArrayList<>();
            List<Double> replay = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                replay.add(child("replay", cluster, path, keys));
                snapshot.add(child("snapshot", cluster, path, keys));
                System.out.printf(Locale.ROOT, "round %d: replay %.2f s, snapshot %.2f s, ratio %.2fx%n", round,
                        replay.get(round - 1), snapshot.get(round - 1), replay.get(round - 1) / snapshot.get(round - 1));
            }
            double ratio = Median.of(replay) / Median.of(snapshot);
            System.out.printf(Locale.ROOT, "median: replay %.2f s, snapshot %.2f s: snapshot read %.2fx faster"
                    + " (target >= 3x): %s%n", Median.of(replay), Median.of(snapshot), ratio, ratio >= 3 ? "met" : "NOT met");
        }
    }

    private static double child(String side, LocalCluster cluster, TablePath path, int keys) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx512m", "--add-opens=java.base/java.nio=ALL-UNNAMED"));
        // -Dbench.readerJvmArgs=... (e.g. a JFR recording) goes to the reader JVMs.
        String extra = System.getProperty("bench.readerJvmArgs", "").replace("SIDE", side).trim();
        if (!extra.isEmpty()) {
            command.addAll(List.of(extra.split("\\s+")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), SnapshotScanBenchmark.class.getName(),
                side, cluster.bootstrapServers(), path.toString(), Integer.toString(keys)));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (process.waitFor() != 0) {
            throw new IllegalStateException("The " + side + " reader failed:\n" + output);
        }
        // Fluss's snapshot scanner logs how long each bucket's files took to download.
        output.lines().filter(l -> l.contains("cost") && l.contains("ms")).forEach(l -> System.out.println("    | " + l));
        String line = output.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("No result from the " + side + " reader:\n" + output));
        System.out.println("  " + side + ": " + line.substring("RESULT ".length()));
        return Double.parseDouble(line.split(" ")[1]);
    }

    /** One read in this JVM; prints "RESULT seconds rows peak-MiB". */
    private static void measure(String side, String bootstrap, String table, int keys) throws Exception {
        long rows = 0;
        long started;
        long firstBatch = 0;
        long created = 0;
        double seconds;
        try (Riffle riffle = Riffle.connect(bootstrap)) {
            RiffleTable t = riffle.table(table);
            // The read alone: connecting and closing the connection (about 2 s of Netty's quiet period) are the same for both sides.
            HeapPeak.reset();
            started = System.nanoTime();
            try (TableReader reader = side.equals("snapshot") ? t.read().columns("id", "version").createReader()
                    : replay(riffle, t)) {
                created = System.nanoTime();
                while (reader.hasNext()) {
                    if (firstBatch == 0) {
                        firstBatch = System.nanoTime();
                    }
                    try (ReadBatch batch = reader.next()) {
                        IntVector id = (IntVector) batch.root().getVector("id");
                        for (int i = 0; i < batch.rowCount(); i++) {
                            rows += id.get(i) >= 0 ? 1 : 0;
                        }
                    }
                }
            }
            seconds = (System.nanoTime() - started) / 1e9;
        }
        if (rows != keys) {
            throw new IllegalStateException(side + " read " + rows + " rows of " + keys + " keys");
        }
        System.out.printf(Locale.ROOT, "RESULT %.3f %d rows, reader made after %.3f s, first batch after %.3f s,"
                + " peak heap %.0f MiB%n", seconds, rows, (created - started) / 1e9, (firstBatch - started) / 1e9, HeapPeak.peakBytes() / 1048576.0);
    }

    /** The whole changelog folded by key, the way Riffle read primary-key tables before the KV snapshot. */
    private static TableReader replay(Riffle riffle, RiffleTable table) {
        BoundedLogReader tail = table.read().changelog().columns("id", "version").createLogReader();
        Schema schema = ArrowTypeMapping.toArrowSchema(table.info().getRowType().project(new int[] {0, 1}));
        return new KeyedMergeReader(new EmptyReader(schema, tail.allocator()), tail, new int[] {0},
                BatchFilter.all(), schema, KeyedMergeReader.DEFAULT_TAIL_ROWS_IN_MEMORY,
                () -> table.read().changelog().columns("id", "version")
                        .from(dev.riffle.core.read.StartingOffsets.explicit(Map.of()))
                        .until(dev.riffle.core.read.StoppingOffsets.explicit(refs(tail.stopOffsets())))
                        .createLogReader(),
                tail.allocator());
    }

    private static Map<dev.riffle.core.read.BucketRef, Long> refs(Map<org.apache.fluss.metadata.TableBucket, Long> stops) {
        Map<dev.riffle.core.read.BucketRef, Long> refs = new java.util.HashMap<>();
        stops.forEach((bucket, offset) -> refs.put(dev.riffle.core.read.BucketRef.of(bucket.getBucket()), offset));
        return refs;
    }

    private static void upsert(Connection connection, TablePath path, int from, int to, int version) throws Exception {
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            BinaryString note = BinaryString.fromString("version " + version);
            for (int id = from; id < to; id++) {
                writer.upsert(GenericRow.of(id, version, note));
            }
            writer.flush();
        }
    }

    /** Waits until every bucket's KV snapshot covers its whole log. */
    private static void awaitSnapshots(Connection connection, TablePath path) throws Exception {
        List<Integer> buckets = java.util.stream.IntStream.range(0, BUCKETS).boxed().toList();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        try (Admin admin = connection.getAdmin()) {
            while (System.nanoTime() < deadline) {
                Map<Integer, Long> latest = admin.listOffsets(path, buckets, new OffsetSpec.LatestSpec()).all().get();
                KvSnapshots snapshots = admin.getLatestKvSnapshots(path).get();
                if (buckets.stream().allMatch(b -> snapshots.getLogOffset(b).orElse(-1) >= latest.get(b))) {
                    return;
                }
                Thread.sleep(Duration.ofSeconds(1).toMillis()); // KV snapshots come on the server's schedule
            }
        }
        throw new IllegalStateException("No KV snapshot covered the log within 10 minutes");
    }
}
