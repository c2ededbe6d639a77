package dev.riffle.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import dev.riffle.core.Riffle;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.config.Configuration;

/**
 * The measuring side of {@link BoundedReadBenchmark}: alternates baseline and Riffle reads for a
 * number of rounds, checks that both read the same values, and prints medians and ratios.
 */
final class ReadPhases {
    private ReadPhases() {}

    static void run(String bootstrap, String table, int rounds) throws Exception {
        // Connections are made once, outside the timings: closing a Fluss connection alone takes
        // about 2 s (its event loops shut down gracefully), which would swamp either read.
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrap);
        try (Connection connection = ConnectionFactory.createConnection(conf); Riffle riffle = Riffle.connect(bootstrap)) {
            run(connection, riffle, table, rounds);
        }
    }

    private static void run(Connection connection, Riffle riffle, String table, int rounds) throws Exception {
        List<Measurement> baselineAll = new ArrayList<>();
        List<Measurement> riffleAll = new ArrayList<>();
        List<Measurement> baselineTwo = new ArrayList<>();
        List<Measurement> riffleTwo = new ArrayList<>();
        // One unmeasured round of each warms up the JIT and the tablet server's page cache.
        LogScannerRead.read(connection, table, Optional.empty());
        RiffleRead.read(riffle, table, Optional.empty());
        for (int round = 0; round < rounds; round++) {
            baselineAll.add(LogScannerRead.read(connection, table, Optional.empty()));
            riffleAll.add(RiffleRead.read(riffle, table, Optional.empty()));
            baselineTwo.add(LogScannerRead.read(connection, table, Optional.of(BoundedReadBenchmark.PROJECTION)));
            riffleTwo.add(RiffleRead.read(riffle, table, Optional.of(BoundedReadBenchmark.PROJECTION)));
        }
        check("all columns", baselineAll, riffleAll);
        check("2 of 5 columns", baselineTwo, riffleTwo);
        System.out.printf(Locale.ROOT, "%nBounded read, median of %d rounds (reader JVM -Xmx256m, %d cores)%n", rounds,
                Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%-16s %28s %28s %8s%n", "", "LogScanner.poll, every field", "Riffle BoundedLogReader",
                "ratio");
        print("all 5 columns", baselineAll, riffleAll);
        print("2 of 5 columns", baselineTwo, riffleTwo);
        System.out.printf(Locale.ROOT, "%-16s %25.1f MB %25.1f MB%n", "peak heap", maxHeap(baselineAll) / 1048576.0,
                maxHeap(riffleAll) / 1048576.0);
        System.out.printf(Locale.ROOT, "all rounds, rows/s: baseline %s, riffle %s; 2 of 5: baseline %s, riffle %s%n",
                rates(baselineAll), rates(riffleAll), rates(baselineTwo), rates(riffleTwo));
    }

    private static void check(String what, List<Measurement> baseline, List<Measurement> riffle) {
        Measurement b = baseline.get(0);
        for (Measurement m : baseline) {
            require(m.rows() == b.rows() && m.checksum() == b.checksum(), what + ": baseline rounds disagree");
        }
        for (Measurement m : riffle) {
            require(m.rows() == b.rows() && m.checksum() == b.checksum(),
                    what + ": Riffle read " + m.rows() + " rows (checksum " + m.checksum() + "), the baseline "
                            + b.rows() + " (checksum " + b.checksum() + ")");
        }
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalStateException(message);
        }
    }

    private static void print(String label, List<Measurement> baseline, List<Measurement> riffle) {
        double b = median(baseline);
        double r = median(riffle);
        System.out.printf(Locale.ROOT, "%-16s %21.2f M rows/s %21.2f M rows/s %7.2fx%n", label, b / 1e6, r / 1e6, r / b);
    }

    private static double median(List<Measurement> measurements) {
        List<Double> rates = new ArrayList<>();
        measurements.forEach(m -> rates.add(m.rowsPerSecond()));
        Collections.sort(rates);
        return rates.get(rates.size() / 2);
    }

    private static String rates(List<Measurement> measurements) {
        List<String> out = new ArrayList<>();
        measurements.forEach(m -> out.add(String.format(Locale.ROOT, "%.2fM", m.rowsPerSecond() / 1e6)));
        return out.toString();
    }

    private static long maxHeap(List<Measurement> measurements) {
        return measurements.stream().mapToLong(Measurement::peakHeapBytes).max().orElse(0);
    }
}
