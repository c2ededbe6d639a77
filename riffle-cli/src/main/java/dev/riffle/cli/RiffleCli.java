package dev.riffle.cli;

import dev.riffle.cli.local.LocalCommand;
import dev.riffle.cli.read.ReadCommand;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code riffle} command. */
@Command(
        name = "riffle",
        mixinStandardHelpOptions = true,
        versionProvider = RiffleVersion.class,
        description = "SQL, HTTP and Arrow over Apache Fluss streams and their Apache Paimon lake.",
        subcommands = {LocalCommand.class, ReadCommand.class, dev.riffle.cli.tier.TierCommand.class,
                dev.riffle.cli.sql.SqlCommand.class, dev.riffle.cli.serve.ServeCommand.class,
                dev.riffle.cli.mcp.McpCommand.class,
                CommandLine.HelpCommand.class})
public final class RiffleCli implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // UTF-8 whatever the locale: stdout carries data (riffle read), and Java 17 would use the
        // locale's charset, which can be ASCII. Built on the PrintStream so that a closed pipe shows in checkError().
        System.exit(run(args, new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true)));
    }

    /** Runs one command line and returns its exit code; the entry point for tests too. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new RiffleCli());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler(new UsageErrorHandler());
        commandLine.setExecutionExceptionHandler(new FailureHandler());
        return commandLine.execute(args);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
