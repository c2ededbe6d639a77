package dev.riffle.bench;

import dev.riffle.local.LocalCluster;
import dev.riffle.pgwire.PgWireServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
import org.apache.fluss.types.DataTypes;

/**
 * Issue 44's first ten minutes: how long the real {@code bin/riffle} process takes, start to exit,
 * for the one-shot commands a newcomer types ({@code riffle sql -e} of a count over a small table,
 * {@code riffle read} of its 1,000 rows, {@code riffle tier --status}), beside {@code psql -c} of
 * the same count against Riffle's PostgreSQL port. One in-process cluster with a lake serves all of
 * them. Prints every round and the medians; the target is 1.0 s a command.
 *
 * <pre>
 * mvn -q -B install -DskipTests
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=CliLatencyBenchmark -Dbench.args="5"
 * </pre>
 */
public final class CliLatencyBenchmark {
    private static final TablePath TABLE = TablePath.of("bench_cli", "events");
    private static final int ROWS = 1_000;

    private CliLatencyBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path riffle = BinRiffle.locate();
        Path work = Files.createTempDirectory("riffle-cli-latency");
        try (LocalCluster cluster = LocalCluster.builder().dataDir(work).coordinatorPort(0).start();
                PgWireServer pg = PgWireServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                        .start()) {
            fill(cluster);
            String bootstrap = cluster.bootstrapServers();
            String count = "SELECT count(*) FROM " + TABLE;
            Map<String, List<String>> commands = new LinkedHashMap<>();
            commands.put("riffle sql -e (count)", List.of(riffle.toString(), "sql", "--bootstrap-servers", bootstrap,
                    "-e", count));
            commands.put("riffle read (1,000 rows)", List.of(riffle.toString(), "read", TABLE.toString(),
                    "--bootstrap-servers", bootstrap, "--format", "csv"));
            commands.put("riffle tier --status", List.of(riffle.toString(), "tier", "--status", "--bootstrap-servers",
                    bootstrap));
            commands.put("psql -c (count)", List.of("psql", "-X", "-q", "-h", "127.0.0.1", "-p",
                    Integer.toString(pg.port()), "-U", "riffle", "-d", "riffle", "-c", count));
            System.out.printf(Locale.ROOT, "One-shot commands, whole process (bin/riffle builds first if it must), "
                    + "%d rounds, cluster %s%n", rounds, bootstrap);
            for (List<String> command : commands.values()) {
                run(command); // builds bin/riffle if needed; warms the page cache
            }
            Map<String, List<Double>> seconds = new LinkedHashMap<>();
            commands.keySet().forEach(name -> seconds.put(name, new ArrayList<>()));
            for (int round = 1; round <= rounds; round++) {
                StringBuilder line = new StringBuilder("round " + round + ":");
                for (Map.Entry<String, List<String>> command : commands.entrySet()) {
                    double took = run(command.getValue());
                    seconds.get(command.getKey()).add(took);
                    line.append(String.format(Locale.ROOT, " %s %.2f s,", command.getKey(), took));
                }
                System.out.println(line.substring(0, line.length() - 1));
            }
            double psql = Median.of(seconds.get("psql -c (count)"));
            for (Map.Entry<String, List<Double>> entry : seconds.entrySet()) {
                double median = Median.of(entry.getValue());
                boolean riffleCommand = !entry.getKey().startsWith("psql");
                System.out.printf(Locale.ROOT, "median %-26s %.2f s%s%n", entry.getKey(), median, riffleCommand
                        ? String.format(Locale.ROOT, " (%.1fx psql; target <= 1.0 s: %s)", median / psql,
                                median <= 1.0 ? "met" : "NOT met") : "");
            }
        }
    }

    /** Seconds from start to exit; fails on a non-zero exit. */
    private static double run(List<String> command) throws Exception {
        long started = System.nanoTime();
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.PIPE).start();
        String err = new String(process.getErrorStream().readAllBytes());
        int code = process.waitFor();
        double took = (System.nanoTime() - started) / 1e9;
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + code + ": " + err);
        }
        return took;
    }

    private static void fill(LocalCluster cluster) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase(TABLE.getDatabaseName(), DatabaseDescriptor.EMPTY, true).get();
            admin.createTable(TABLE, TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build()).distributedBy(1)
                    .property("table.datalake.enabled", "true").build(), true).get();
            try (Table table = connection.getTable(TABLE)) {
                AppendWriter writer = table.newAppend().createWriter();
                for (int i = 0; i < ROWS; i++) {
                    writer.append(GenericRow.of(i, BinaryString.fromString("event-" + i)));
                }
                writer.flush();
            }
        }
    }
}
