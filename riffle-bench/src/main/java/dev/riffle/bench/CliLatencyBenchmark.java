package dev.riffle.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.config.Configuration;
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
 * the same count against Riffle's PostgreSQL port. All of them run against one real
 * {@code bin/riffle local} process: by default the one-shot commands answer through its gateway
 * (which it publishes in {@code RIFFLE_RUN_DIR}), and with {@code --direct} they connect to the
 * cluster themselves. Prints every round and the medians; the target is 1.0 s a command.
 *
 * <pre>
 * mvn -q -B install -DskipTests
 * mvn -q -B -pl riffle-bench exec:exec -Dbench.class=CliLatencyBenchmark -Dbench.args="5"
 * </pre>
 */
public final class CliLatencyBenchmark {
    private static final TablePath TABLE = TablePath.of("bench_cli", "events");
    private static final int ROWS = 1_000;
    private static final Pattern BOOTSTRAP = Pattern.compile("Fluss bootstrap servers\\s+(\\S+)");
    private static final Pattern PG_PORT = Pattern.compile("PostgreSQL \\(psql\\)\\s+psql \"host=\\S+ port=(\\d+)");

    private CliLatencyBenchmark() {}

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0].trim()) : 5;
        Path riffle = BinRiffle.locate();
        Path work = Files.createTempDirectory("riffle-cli-latency");
        Path runDir = work.resolve("run");
        Path banner = work.resolve("riffle-local.out");
        ProcessBuilder startLocal = new ProcessBuilder(riffle.toString(), "local", "--data-dir",
                work.resolve("data").toString(), "--port", "0", "--http-port", "0", "--flight-port", "0",
                "--pg-port", "0").redirectErrorStream(true).redirectOutput(banner.toFile());
        startLocal.environment().put("RIFFLE_RUN_DIR", runDir.toString());
        Process local = startLocal.start();
        try {
            String text = awaitBanner(local, banner);
            String bootstrap = group(BOOTSTRAP, text, "the bootstrap servers");
            String pgPort = group(PG_PORT, text, "the PostgreSQL port");
            fill(bootstrap);
            String count = "SELECT count(*) FROM " + TABLE;
            Map<String, List<String>> commands = new LinkedHashMap<>();
            commands.put("riffle sql -e (count)", List.of(riffle.toString(), "sql", "--bootstrap-servers", bootstrap,
                    "-e", count));
            commands.put("riffle read (1,000 rows)", List.of(riffle.toString(), "read", TABLE.toString(),
                    "--bootstrap-servers", bootstrap, "--format", "csv"));
            commands.put("riffle tier --status", List.of(riffle.toString(), "tier", "--status", "--bootstrap-servers",
                    bootstrap));
            commands.put("riffle sql -e --direct", List.of(riffle.toString(), "sql", "--direct", "--bootstrap-servers",
                    bootstrap, "-e", count));
            commands.put("riffle read --direct", List.of(riffle.toString(), "read", TABLE.toString(), "--direct",
                    "--bootstrap-servers", bootstrap, "--format", "csv"));
            commands.put("riffle tier --status --direct", List.of(riffle.toString(), "tier", "--status", "--direct",
                    "--bootstrap-servers", bootstrap));
            commands.put("psql -c (count)", List.of("psql", "-X", "-q", "-h", "127.0.0.1", "-p", pgPort, "-U", "riffle",
                    "-d", "riffle", "-c", count));
            System.out.printf(Locale.ROOT, "One-shot commands, whole process, against bin/riffle local (process %d, "
                    + "cluster %s), %d rounds%n", local.pid(), bootstrap, rounds);
            for (List<String> command : commands.values()) {
                run(command, runDir); // the first one after a build writes bin/riffle's class archive; warms the page cache
            }
            Map<String, List<Double>> seconds = new LinkedHashMap<>();
            commands.keySet().forEach(name -> seconds.put(name, new ArrayList<>()));
            for (int round = 1; round <= rounds; round++) {
                StringBuilder line = new StringBuilder("round " + round + ":");
                for (Map.Entry<String, List<String>> command : commands.entrySet()) {
                    double took = run(command.getValue(), runDir);
                    seconds.get(command.getKey()).add(took);
                    line.append(String.format(Locale.ROOT, " %s %.2f s,", command.getKey(), took));
                }
                System.out.println(line.substring(0, line.length() - 1));
            }
            double psql = Median.of(seconds.get("psql -c (count)"));
            for (Map.Entry<String, List<Double>> entry : seconds.entrySet()) {
                double median = Median.of(entry.getValue());
                boolean target = !entry.getKey().startsWith("psql") && !entry.getKey().endsWith("--direct");
                System.out.printf(Locale.ROOT, "median %-30s %.2f s%s%n", entry.getKey(), median,
                        entry.getKey().startsWith("psql") ? "" : String.format(Locale.ROOT, " (%.1fx psql%s)",
                                median / psql, target ? "; target <= 1.0 s: " + (median <= 1.0 ? "met" : "NOT met") : ""));
            }
        } finally {
            local.destroy(); // SIGTERM: riffle local stops cleanly
            if (!local.waitFor(120, TimeUnit.SECONDS)) {
                local.destroyForcibly();
            }
        }
    }

    /** The banner of {@code riffle local}, once it says it is up. */
    private static String awaitBanner(Process local, Path banner) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5); // a first run builds bin/riffle
        while (System.nanoTime() < deadline) {
            String text = Files.exists(banner) ? Files.readString(banner) : "";
            if (text.contains("Press Ctrl-C to stop.")) {
                return text;
            }
            if (!local.isAlive()) {
                throw new IllegalStateException("bin/riffle local exited " + local.exitValue() + ":\n" + text);
            }
            Thread.sleep(200); // polling a child's output file; no event to wait on
        }
        throw new IllegalStateException("bin/riffle local did not come up within 5 minutes:\n" + Files.readString(banner));
    }

    private static String group(Pattern pattern, String text, String what) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            throw new IllegalStateException("The banner of bin/riffle local does not say " + what + ":\n" + text);
        }
        return matcher.group(1);
    }

    /** Seconds from start to exit; fails on a non-zero exit. */
    private static double run(List<String> command, Path runDir) throws Exception {
        long started = System.nanoTime();
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.PIPE);
        builder.environment().put("RIFFLE_RUN_DIR", runDir.toString());
        Process process = builder.start();
        String err = new String(process.getErrorStream().readAllBytes());
        int code = process.waitFor();
        double took = (System.nanoTime() - started) / 1e9;
        if (code != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + code + ": " + err);
        }
        return took;
    }

    private static void fill(String bootstrap) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrap);
        try (Connection connection = ConnectionFactory.createConnection(conf);
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
