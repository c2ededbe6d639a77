package dev.riffle.cli;

import dev.riffle.cli.local.LocalCommand;
import dev.riffle.cli.read.ReadCommand;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code riffle} command. */
@Command(
        name = "riffle",
        mixinStandardHelpOptions = true,
        versionProvider = RiffleVersion.class,
        description = "SQL, HTTP and Arrow over Apache Fluss streams and their Apache Paimon lake.")
public final class RiffleCli implements Runnable {
    /**
     * The subcommands, by name. Only the one a command line names is built: picocli reads every
     * option of every command it is given, and a one-shot command pays for each class it loads.
     */
    private static final Map<String, Supplier<Object>> COMMANDS = commands();

    private static Map<String, Supplier<Object>> commands() {
        Map<String, Supplier<Object>> commands = new LinkedHashMap<>();
        commands.put("local", LocalCommand::new);
        commands.put("read", ReadCommand::new);
        commands.put("tier", dev.riffle.cli.tier.TierCommand::new);
        commands.put("sql", dev.riffle.cli.sql.SqlCommand::new);
        commands.put("serve", dev.riffle.cli.serve.ServeCommand::new);
        commands.put("mcp", dev.riffle.cli.mcp.McpCommand::new);
        commands.put("help", CommandLine.HelpCommand::new);
        return commands;
    }

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
        Supplier<Object> named = args.length > 0 && !args[0].equals("help") ? COMMANDS.get(args[0]) : null;
        if (named != null) {
            commandLine.addSubcommand(args[0], named.get());
        } else { // help, usage, or a mistyped name: picocli lists them all and suggests the nearest
            COMMANDS.forEach((name, command) -> commandLine.addSubcommand(name, command.get()));
        }
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
