package dev.riffle.bench;

import java.util.Locale;

/**
 * How a scan client reports: it reads the whole table {@link #PASSES} times in its JVM and reports
 * the last pass. The first pays for loading and compiling the read path (a fresh JVM's cost, not a
 * scan's); the last is the steady state a long-lived client sees. Every client alike.
 *
 * <pre>{@code
 * for (int pass = 1; pass <= ScanPasses.PASSES; pass++) {
 *     long started = System.nanoTime(), cpu = CpuTime.processNanos();
 *     long rows = readEverything();
 *     ScanPasses.report(pass, rows, started, cpu, "");
 * }
 * }</pre>
 */
final class ScanPasses {
    static final int PASSES = 2;

    private ScanPasses() {}

    /** Prints the pass, and for the last one the {@code RESULT <rows/s>} line {@link ClientJvm} reads. */
    static void report(int pass, long rows, long started, long cpu, String detail) {
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf(Locale.ROOT, "pass %d: %,.0f rows/s, client CPU %.2f s%s%n", pass, rows / seconds,
                (CpuTime.processNanos() - cpu) / 1e9, detail);
        if (pass == PASSES) {
            System.out.printf(Locale.ROOT, "RESULT %.0f rows/s (%,d rows in %.2f s)%n", rows / seconds, rows, seconds);
        }
    }

    /** Fails the round when a client read another number of rows than the table holds. */
    static void check(long rows, long expected) {
        if (rows != expected) {
            throw new IllegalStateException("read " + rows + " rows, expected " + expected);
        }
    }
}
