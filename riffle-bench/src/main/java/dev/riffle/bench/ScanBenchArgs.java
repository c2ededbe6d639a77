package dev.riffle.bench;

import java.util.List;

/**
 * The arguments of the wire-protocol benchmarks, as {@code -Dbench.args} passes them (one string or
 * several words): scan rows (default 5,000,000), rounds (default 3) and which parts to run.
 *
 * <pre>{@code
 * ScanBenchArgs a = ScanBenchArgs.parse(args, "lookup,scan,copy");   // "5000000 3 scan" -> parts [scan]
 * }</pre>
 */
record ScanBenchArgs(int rows, int rounds, List<String> parts) {
    static ScanBenchArgs parse(String[] args, String defaultParts) {
        String[] words = String.join(" ", args).trim().split("\\s+");
        int rows = words.length > 0 && !words[0].isEmpty() ? Integer.parseInt(words[0]) : 5_000_000;
        int rounds = words.length > 1 ? Integer.parseInt(words[1]) : 3;
        return new ScanBenchArgs(rows, rounds, List.of((words.length > 2 ? words[2] : defaultParts).split(",")));
    }
}
