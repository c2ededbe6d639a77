package dev.riffle.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A benchmark client run in a JVM of its own, so that the client's threads, heap and JIT do not
 * share the measured server's: it prints its measurement as a line {@code RESULT <number> ...},
 * which {@link #run} returns, and any line starting with one of the given prefixes is echoed.
 *
 * <pre>{@code
 * double rowsPerSecond = ClientJvm.run(FlightSqlBenchmark.class, List.of("child-scan-riffle", bootstrap), "pass ");
 * }</pre>
 */
final class ClientJvm {
    private ClientJvm() {}

    /** Runs {@code main}'s {@code main(args)} in a new JVM and returns the number on its RESULT line. */
    static double run(Class<?> main, List<String> args, String... echoedPrefixes) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx1g", "--add-opens=java.base/java.nio=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                main.getName()));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String mode = args.get(0);
        if (process.waitFor() != 0) {
            throw new IllegalStateException(mode + " failed:\n" + output);
        }
        String line = output.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                .orElseThrow(() -> new IllegalStateException("No result from " + mode + ":\n" + output));
        for (String prefix : echoedPrefixes) {
            output.lines().filter(l -> l.startsWith(prefix)).forEach(l -> System.out.println("    client " + l));
        }
        System.out.println("  " + mode.replaceFirst("^child-", "") + ": " + line.substring("RESULT ".length()));
        return Double.parseDouble(line.split(" ")[1]);
    }
}
