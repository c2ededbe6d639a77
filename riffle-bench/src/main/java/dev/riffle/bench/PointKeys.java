package dev.riffle.bench;

import java.util.Arrays;
import java.util.Locale;

/**
 * The keys a point-query benchmark asks for, the same sequence for every client (a stride through
 * the key space, so no two neighbours share a cache line of the KV store), and the way their
 * latencies are reported.
 *
 * <pre>{@code
 * long id = PointKeys.key(i, 100_000);
 * }</pre>
 */
final class PointKeys {
    private PointKeys() {}

    static long key(int i, int keys) {
        return (i * 7919L) % keys;
    }

    /** Prints {@code RESULT <p50> ms p50 (p99 ...)} of the latencies, which it sorts. */
    static void printResult(double[] millis, String what) {
        Arrays.sort(millis);
        System.out.printf(Locale.ROOT, "RESULT %.3f ms p50 (p99 %.3f ms, %,d %s)%n", millis[millis.length / 2],
                millis[millis.length * 99 / 100], millis.length, what);
    }
}
