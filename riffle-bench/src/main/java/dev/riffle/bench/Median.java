package dev.riffle.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * The median of a benchmark's rounds (the upper middle of an even count): what every benchmark here
 * reports, since one run's best round is not what another machine will see.
 *
 * <pre>{@code
 * double rowsPerSecond = Median.of(List.of(2.1e6, 2.5e6, 2.3e6));   // 2.3e6
 * }</pre>
 */
final class Median {
    private Median() {}

    static double of(List<Double> values) {
        if (values.isEmpty()) {
            throw new IllegalArgumentException("no rounds to take the median of");
        }
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
