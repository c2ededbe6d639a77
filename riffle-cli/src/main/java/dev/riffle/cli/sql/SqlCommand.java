package dev.riffle.cli.sql;

import dev.riffle.cli.running.GatewayClient;
import dev.riffle.cli.running.RunningGateway;
import dev.riffle.cli.running.RunningGateways;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sqlline.SqlLine;

/**
 * {@code riffle sql}: an interactive SQL shell (sqlline, with history and completion) over
 * {@code jdbc:riffle://HOST:PORT}, or one-shot with {@code -e SQL} / {@code -f FILE}: prints the
 * results as an aligned table, CSV, JSON lines or Arrow ({@code --format}), and stops at the first
 * statement that fails with one line naming its code, and exit code 1.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "SQL over Fluss tables (one schema per database; t$log, t$lake, t$changelog beside each table t)."
                + " Interactive unless -e or -f is given.")
public final class SqlCommand implements Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9123",
            description = "Fluss bootstrap servers (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = "--direct",
            description = "With -e or -f: run on this command's own connection to the cluster even when a running"
                    + " Riffle gateway on this machine serves it (by default the statements go through that gateway,"
                    + " which answers in a fraction of the time).")
    boolean direct;

    @Option(names = {"-e", "--execute"}, paramLabel = "SQL", description = "Run these statements and exit.")
    String execute;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Run the statements in FILE and exit.")
    Path file;

    @Option(names = "--format", paramLabel = "table|csv|json|arrow", defaultValue = "table",
            description = "How -e and -f print rows: an aligned table with the row count (default), CSV with a "
                    + "header, a JSON object per line, or an Arrow IPC stream.")
    String format;

    /** A running gateway of the same cluster, unless --direct; else this command's own connection. */
    private StatementTarget target(BufferAllocator allocator) throws Exception {
        if (!direct) {
            Optional<RunningGateway> gateway = RunningGateways.atDefaultPlace().find(bootstrapServers);
            if (gateway.isPresent()) {
                return new GatewayStatements(new GatewayClient(gateway.get()), allocator,
                        () -> JdbcStatements.connect(bootstrapServers, allocator));
            }
        }
        return JdbcStatements.connect(bootstrapServers, allocator);
    }

    @Override
    public Integer call() throws Exception {
        if (execute != null && file != null) {
            throw new IllegalArgumentException("Give -e SQL or -f FILE, not both");
        }
        if (file != null && !Files.isReadable(file)) {
            throw new IllegalArgumentException("Cannot read " + file);
        }
        if (execute != null || file != null) {
            OutputFormat output = OutputFormat.parse(format);
            String script = execute != null ? execute : Files.readString(file);
            try (BufferAllocator allocator = new RootAllocator(); StatementTarget target = target(allocator)) {
                // Rows go to stdout itself (not picocli's writer): Arrow's are bytes, and every
                // format's must reach the same stream in order.
                PrintWriter text = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
                return new OneShotSql(target, output, text, System.out, spec.commandLine().getErr()).run(script);
            }
        }
        String url = JdbcStatements.url(bootstrapServers);
        List<String> args = new ArrayList<>(List.of("-u", url, "-n", "", "-p", "",
                "-d", "dev.riffle.sql.jdbc.RiffleDriver"));
        SqlLine.Status status = new SqlLine().begin(args.toArray(String[]::new), System.in, true);
        return status == SqlLine.Status.OK ? 0 : 1;
    }
}
