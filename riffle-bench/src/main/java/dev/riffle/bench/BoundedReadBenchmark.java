package dev.riffle.bench;

import dev.riffle.local.LocalCluster;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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

/**
 * Issue 3's benchmark: Riffle's bounded Arrow read against the official client's
 * {@code LogScanner.poll} loop reading every field of every row, on the same table in the same
 * run, all columns and a 2-of-5 projection, with the reader's peak heap.
 *
 * <p>The cluster (embedded, one tablet server) runs in this JVM; the reads run in a child JVM with
 * {@code -Xmx256m}, so its heap holds nothing but the reader's.
 *
 * <pre>
 * mvn -q -B install -DskipTests &amp;&amp; mvn -q -B -pl riffle-bench exec:exec -Dbench.args="5000000 3"
 * </pre>
 */
public final class BoundedReadBenchmark {
    static final Schema SCHEMA = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).column("amount", DataTypes.BIGINT())
            .column("price", DataTypes.DOUBLE()).column("ts", DataTypes.TIMESTAMP(3)).build();
    static final List<String> PROJECTION = List.of("id", "price");
    private static final int BUCKETS = 4;

    private BoundedReadBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("reader")) {
            ReadPhases.run(args[1], args[2], Integer.parseInt(args[3]));
            return;
        }
        List<String> values = new ArrayList<>();
        for (String arg : args) {
            values.addAll(List.of(arg.trim().split("\\s+")));
        }
        values.removeIf(String::isEmpty);
        int rows = values.size() > 0 ? Integer.parseInt(values.get(0)) : 5_000_000;
        int rounds = values.size() > 1 ? Integer.parseInt(values.get(1)) : 3;

        Path dataDir = Files.createTempDirectory("riffle-bench");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false).start()) {
            TablePath path = TablePath.of("bench", "bounded_read");
            double appendRate = load(cluster, path, rows);
            System.out.printf(Locale.ROOT, "Loaded %,d rows x 5 columns (INT, STRING, BIGINT, DOUBLE, TIMESTAMP(3)) "
                    + "into %d buckets at %,.0f rows/s (AppendWriter)%n", rows, BUCKETS, appendRate);
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m", "-XX:+UseParallelGC", "--add-opens=java.base/java.nio=ALL-UNNAMED"));
            // e.g. -Dbench.readerJvmArgs=-XX:StartFlightRecording=filename=reader.jfr,settings=profile
            String extra = System.getProperty("bench.readerJvmArgs", "").trim();
            if (!extra.isEmpty()) {
                command.addAll(List.of(extra.split("\\s+")));
            }
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), BoundedReadBenchmark.class.getName(),
                    "reader", cluster.bootstrapServers(), path.toString(), Integer.toString(rounds)));
            Process reader = new ProcessBuilder(command).inheritIO().start();
            int exit = reader.waitFor();
            if (exit != 0) {
                throw new IllegalStateException("The reader JVM failed with exit code " + exit);
            }
        } finally {
            deleteRecursively(dataDir);
        }
    }

    private static double load(LocalCluster cluster, TablePath path, int rows) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase(path.getDatabaseName(), DatabaseDescriptor.EMPTY, true).get();
            admin.createTable(path, TableDescriptor.builder().schema(SCHEMA).distributedBy(BUCKETS).build(), false).get();
            TimestampNtz base = TimestampNtz.fromLocalDateTime(LocalDateTime.of(2024, 1, 1, 0, 0));
            long started = System.nanoTime();
            try (Table table = connection.getTable(path)) {
                AppendWriter writer = table.newAppend().createWriter();
                for (int i = 0; i < rows; i++) {
                    writer.append(GenericRow.of(i, BinaryString.fromString("customer-" + (i % 10_000)), (long) i * 3,
                            i * 0.25, TimestampNtz.fromMillis(base.getMillisecond() + i)));
                }
                writer.flush();
            }
            return rows / ((System.nanoTime() - started) / 1e9);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
