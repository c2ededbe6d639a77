package dev.riffle.cli.sql;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sqlline.SqlLine;

/**
 * {@code riffle sql}: an interactive SQL shell (sqlline) over {@code jdbc:riffle://HOST:PORT}, or
 * one-shot with {@code -e SQL} / {@code -f FILE}: prints the results as CSV and exits non-zero
 * when a statement fails.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "SQL over Fluss tables (one schema per database; t$log, t$lake, t$changelog beside each table t)."
                + " Interactive unless -e or -f is given.")
public final class SqlCommand implements Callable<Integer> {

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:9123",
            description = "Fluss bootstrap servers (default: ${DEFAULT-VALUE}).")
    String bootstrapServers;

    @Option(names = {"-e", "--execute"}, paramLabel = "SQL", description = "Run these statements and exit.")
    String execute;

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "Run the statements in FILE and exit.")
    Path file;

    @Override
    public Integer call() throws Exception {
        if (execute != null && file != null) {
            throw new IllegalArgumentException("Give -e SQL or -f FILE, not both");
        }
        if (file != null && !Files.isReadable(file)) {
            throw new IllegalArgumentException("Cannot read " + file);
        }
        Class.forName("dev.riffle.sql.jdbc.RiffleDriver"); // registers jdbc:riffle:
        List<String> args = new ArrayList<>(List.of("-u", "jdbc:riffle://" + bootstrapServers, "-n", "", "-p", "",
                "-d", "dev.riffle.sql.jdbc.RiffleDriver"));
        boolean interactive = execute == null && file == null;
        if (!interactive) {
            // Without a terminal sqlline prints empty tables unless told a format.
            args.addAll(List.of("--outputformat=csv", "--showHeader=true", "--silent=true", "--showWarnings=false"));
            if (execute != null) {
                args.addAll(List.of("-e", execute));
            } else {
                args.addAll(List.of("-f", file.toString()));
            }
        }
        InputStream in = interactive ? System.in : new ByteArrayInputStream(new byte[0]);
        SqlLine.Status status = new SqlLine().begin(args.toArray(String[]::new), in, interactive);
        return status == SqlLine.Status.OK ? 0 : 1;
    }
}
