package dev.riffle.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@link SqlBenchmark}'s top-N: {@code ORDER BY v DESC, k LIMIT 10} over the whole log table through
 * the {@code jdbc:riffle:} driver, vectorized ({@code VectorizedTopN}: rows compared on the read's
 * Arrow batches) against the same driver with {@code vectorized=false} (Calcite's sort over
 * {@code Object[]} rows). Both read from Fluss every time; the sides alternate each round after one
 * unmeasured round of each, and their answers must be equal.
 */
final class TopNPhase {
    static final String SQL = "SELECT k, v FROM %s ORDER BY v DESC, k LIMIT 10";

    record Result(String plan, int rows, List<Double> vectorizedSeconds, List<Double> rowSeconds) {
        /** Row-at-a-time time over vectorized time, the median of the per-round ratios. */
        double speedup() {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < vectorizedSeconds.size(); i++) {
                ratios.add(rowSeconds.get(i) / vectorizedSeconds.get(i));
            }
            return Median.of(ratios);
        }
    }

    private TopNPhase() {}

    static Result run(String bootstrap, SqlOptions options) throws Exception {
        Class.forName("dev.riffle.sql.jdbc.RiffleDriver");
        String sql = String.format(Locale.ROOT, SQL, SqlBenchmark.EVENTS);
        String url = "jdbc:riffle://" + bootstrap;
        try (Connection vectorized = DriverManager.getConnection(url + ";vectorized=true");
                Connection rows = DriverManager.getConnection(url + ";vectorized=false")) {
            String plan = GroupByPhase.explain(vectorized, sql);
            if (!plan.contains("VectorizedTopN") || GroupByPhase.explain(rows, sql).contains("VectorizedTopN")) {
                throw new IllegalStateException("Expected VectorizedTopN only with vectorized=true, got:\n" + plan);
            }
            List<Double> vectorizedSeconds = new ArrayList<>();
            List<Double> rowSeconds = new ArrayList<>();
            for (int round = -1; round < options.rounds(); round++) {
                boolean vectorizedFirst = round % 2 == 0;
                double[] v = {0};
                double[] r = {0};
                List<String> a;
                List<String> b;
                if (vectorizedFirst) {
                    a = timed(vectorized, sql, v);
                    b = timed(rows, sql, r);
                } else {
                    b = timed(rows, sql, r);
                    a = timed(vectorized, sql, v);
                }
                if (!a.equals(b) || a.size() != 10) {
                    throw new IllegalStateException("Vectorized " + a + " but row at a time " + b);
                }
                if (round >= 0) {
                    vectorizedSeconds.add(v[0]);
                    rowSeconds.add(r[0]);
                    System.out.printf(Locale.ROOT, "  top-N round %d: vectorized %.3f s, row at a time %.3f s (%.2fx)%n",
                            round, v[0], r[0], r[0] / v[0]);
                }
            }
            return new Result(plan, options.rows(), vectorizedSeconds, rowSeconds);
        }
    }

    private static List<String> timed(Connection connection, String sql, double[] seconds) throws Exception {
        long started = System.nanoTime();
        List<String> answer = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            while (rs.next()) {
                answer.add(rs.getInt(1) + "|" + rs.getLong(2));
            }
        }
        seconds[0] = (System.nanoTime() - started) / 1e9;
        return answer;
    }

    static void print(Result result) {
        System.out.printf(Locale.ROOT, "%nTop-N over %,d rows: %s%n", result.rows(),
                String.format(Locale.ROOT, SQL, SqlBenchmark.EVENTS));
        System.out.printf(Locale.ROOT, "  plan: %s%n", result.plan().replace("\n", "\n        "));
        System.out.printf(Locale.ROOT, "  vectorized %.3f s, row at a time %.3f s (medians); row at a time / vectorized"
                + " %.2fx (median of per-round ratios)%n", Median.of(result.vectorizedSeconds()),
                Median.of(result.rowSeconds()), result.speedup());
    }
}
