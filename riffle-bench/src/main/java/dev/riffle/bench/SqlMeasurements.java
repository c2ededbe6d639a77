package dev.riffle.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The measuring JVM of {@link SqlBenchmark}: runs the point-query, GROUP BY, top-N and computed GROUP BY phases against the
 * cluster the parent started, prints each, then one summary block with the ratios.
 */
final class SqlMeasurements {
    private SqlMeasurements() {}

    static void run(String bootstrap, SqlOptions options) throws Exception {
        PointQueryPhase.Result lookups = null;
        GroupByPhase.Result groupBy = null;
        if (options.runsLookups()) {
            lookups = PointQueryPhase.run(bootstrap, options);
            PointQueryPhase.print(lookups);
        }
        if (options.runsGroupBy()) {
            groupBy = GroupByPhase.run(bootstrap, options);
            GroupByPhase.print(groupBy);
        }
        List<VectorizedPhase.Result> vectorized = new ArrayList<>();
        if (options.runsTopN()) {
            vectorized.add(VectorizedPhase.run(bootstrap, options, VectorizedPhase.Query.TOP_N));
        }
        if (options.runsComputed()) {
            vectorized.add(VectorizedPhase.run(bootstrap, options, VectorizedPhase.Query.COMPUTED_GROUP_BY));
            vectorized.add(VectorizedPhase.run(bootstrap, options, VectorizedPhase.Query.RESIDUAL_GROUP_BY));
            vectorized.add(VectorizedPhase.run(bootstrap, options, VectorizedPhase.Query.COMPUTED_TOP_N));
        }
        if (options.runsDistinct()) {
            vectorized.add(VectorizedPhase.run(bootstrap, options, VectorizedPhase.Query.COUNT_DISTINCT));
            vectorized.add(VectorizedPhase.run(bootstrap, options, VectorizedPhase.Query.MIXED_DISTINCT));
            vectorized.add(VectorizedPhase.run(bootstrap, options, VectorizedPhase.Query.TWO_KEYS));
        }
        vectorized.forEach(VectorizedPhase::print);
        System.out.printf(Locale.ROOT, "%n==== SqlBenchmark summary (issue 5; measuring JVM -Xmx2g, %d cores; "
                + "same run, same cluster) ====%n", Runtime.getRuntime().availableProcessors());
        if (lookups != null) {
            System.out.printf(Locale.ROOT, "point query   p50 JDBC %6.0f us  vs Lookuper %6.0f us   ratio %5.2fx  "
                    + "(target <= 1.5x)  %s   [p99 %.0f vs %.0f us; caller CPU %.1f vs %.1f us/call; batch-timeout %s]%n",
                    lookups.jdbc(0.5) / 1e3, lookups.java(0.5) / 1e3, lookups.p50Ratio(),
                    verdict(lookups.p50Ratio() <= 1.5), lookups.jdbc(0.99) / 1e3, lookups.java(0.99) / 1e3,
                    lookups.jdbcCpuNanos() / 1e3, lookups.javaCpuNanos() / 1e3, lookups.batchTimeout());
            System.out.printf(Locale.ROOT, "plain Statement, same text again: p50 JDBC %6.0f us  vs Lookuper %6.0f us   ratio"
                    + " %5.2fx  (target <= 1.5x)  %s%n", PointQueryPhase.percentile(lookups.plainNanos(), 0.5) / 1e3,
                    PointQueryPhase.percentile(lookups.plainJavaNanos(), 0.5) / 1e3, lookups.plainP50Ratio(),
                    verdict(lookups.plainP50Ratio() <= 1.5));
        }
        if (groupBy != null) {
            System.out.printf(Locale.ROOT, "GROUP BY      JDBC %8.2f s  vs DuckDB/Arrow %6.2f s   ratio %5.2fx  "
                    + "(target <= 1.0x)  %s   [median times; ratio = median of per-round ratios; %,d rows, %,d groups;"
                    + " read + columnar aggregate %.2f s, JDBC / that floor %.2fx]%n",
                    groupBy.sql(), groupBy.duck(), groupBy.ratio(), verdict(groupBy.ratio() <= 1.0), groupBy.rows(),
                    groupBy.groups(), groupBy.columnar(), groupBy.sql() / groupBy.columnar());
        }
        for (VectorizedPhase.Result result : vectorized) {
            System.out.printf(Locale.ROOT, "%-17s vectorized %6.3f s  vs row at a time %6.3f s   row at a time /"
                    + " vectorized %5.2fx   [median times; ratio = median of per-round ratios]%n", result.query().label,
                    Median.of(result.vectorizedSeconds()), Median.of(result.rowSeconds()), result.speedup());
        }
        System.out.println("================================================================================");
    }

    private static String verdict(boolean met) {
        return met ? "MET   " : "MISSED";
    }
}
