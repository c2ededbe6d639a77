package dev.riffle.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/**
 * {@link SqlBenchmark}'s vectorized operators against Calcite's row-at-a-time ones, one
 * {@link Query} at a time over the whole log table through the {@code jdbc:riffle:} driver:
 * vectorized ({@code VectorizedTopN}, {@code VectorizedAggregate} computing its argument,
 * checking a condition the scan cannot take, or counting distinct values beside other aggregates,
 * on the read's Arrow batches) against the same driver with {@code vectorized=false} (Calcite's operators
 * over {@code Object[]} rows). Both read from Fluss every time; the sides alternate each round
 * after one unmeasured round of each, and their answers must be equal.
 */
final class VectorizedPhase {
    /** What is measured, and the operator its vectorized plan must show. */
    enum Query {
        TOP_N("top-N", "SELECT k, v FROM %s ORDER BY v DESC, k LIMIT 10", "VectorizedTopN", true),
        COMPUTED_GROUP_BY("computed GROUP BY", "SELECT k, count(*), sum(v * 2 - k) FROM %s GROUP BY k",
                "VectorizedAggregate", false),
        RESIDUAL_GROUP_BY("residual GROUP BY", "SELECT k, count(*), sum(v) FROM %s WHERE v * 10 > k GROUP BY k",
                "VectorizedAggregate", false),
        COMPUTED_TOP_N("computed top-N", "SELECT k, v FROM %s WHERE v * 10 > k ORDER BY v * 3 - k DESC, k LIMIT 10",
                "VectorizedTopN", true),
        // tag = i % 100 and k = i % groups: 100 groups of (groups / 100) distinct keys each.
        COUNT_DISTINCT("COUNT DISTINCT", "SELECT tag, count(DISTINCT k) FROM %s GROUP BY tag", "VectorizedAggregate",
                false),
        MIXED_DISTINCT("mixed DISTINCT", "SELECT tag, count(DISTINCT k), count(*), max(v) FROM %s WHERE v > 100 GROUP BY tag",
                "VectorizedAggregate", false),
        TWO_KEYS("two-key GROUP BY", "SELECT tag, k, count(*), sum(v) FROM %s GROUP BY tag, k", "VectorizedAggregate",
                false);

        final String label;
        final String sql;
        final String operator;
        /** Whether the answer's order is part of it (else both answers are compared sorted). */
        final boolean ordered;

        Query(String label, String sql, String operator, boolean ordered) {
            this.label = label;
            this.sql = sql;
            this.operator = operator;
            this.ordered = ordered;
        }
    }

    record Result(Query query, String plan, int rows, int answerRows, List<Double> vectorizedSeconds,
            List<Double> rowSeconds) {
        /** Row-at-a-time time over vectorized time, the median of the per-round ratios. */
        double speedup() {
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < vectorizedSeconds.size(); i++) {
                ratios.add(rowSeconds.get(i) / vectorizedSeconds.get(i));
            }
            return Median.of(ratios);
        }
    }

    private VectorizedPhase() {}

    static Result run(String bootstrap, SqlOptions options, Query query) throws Exception {
        Class.forName("dev.riffle.sql.jdbc.RiffleDriver");
        String sql = String.format(Locale.ROOT, query.sql, SqlBenchmark.EVENTS);
        String url = "jdbc:riffle://" + bootstrap;
        try (Connection vectorized = DriverManager.getConnection(url + ";vectorized=true");
                Connection rows = DriverManager.getConnection(url + ";vectorized=false")) {
            String plan = GroupByPhase.explain(vectorized, sql);
            if (!plan.contains(query.operator) || GroupByPhase.explain(rows, sql).contains(query.operator)) {
                throw new IllegalStateException("Expected " + query.operator + " only with vectorized=true, got:\n" + plan);
            }
            List<Double> vectorizedSeconds = new ArrayList<>();
            List<Double> rowSeconds = new ArrayList<>();
            int answerRows = 0;
            for (int round = -1; round < options.rounds(); round++) {
                boolean vectorizedFirst = round % 2 == 0;
                double[] v = {0};
                double[] r = {0};
                List<String> a;
                List<String> b;
                if (vectorizedFirst) {
                    a = timed(vectorized, sql, v, query.ordered);
                    b = timed(rows, sql, r, query.ordered);
                } else {
                    b = timed(rows, sql, r, query.ordered);
                    a = timed(vectorized, sql, v, query.ordered);
                }
                if (!a.equals(b) || a.isEmpty()) {
                    throw new IllegalStateException("Vectorized " + a.subList(0, Math.min(10, a.size()))
                            + " but row at a time " + b.subList(0, Math.min(10, b.size())));
                }
                answerRows = a.size();
                if (round >= 0) {
                    vectorizedSeconds.add(v[0]);
                    rowSeconds.add(r[0]);
                    System.out.printf(Locale.ROOT, "  %s round %d: vectorized %.3f s, row at a time %.3f s (%.2fx)%n",
                            query.label, round, v[0], r[0], r[0] / v[0]);
                }
            }
            return new Result(query, plan, options.rows(), answerRows, vectorizedSeconds, rowSeconds);
        }
    }

    private static List<String> timed(Connection connection, String sql, double[] seconds, boolean ordered)
            throws Exception {
        long started = System.nanoTime();
        List<String> answer = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                StringJoiner row = new StringJoiner("|");
                for (int column = 1; column <= columns; column++) {
                    row.add(rs.getString(column));
                }
                answer.add(row.toString());
            }
        }
        seconds[0] = (System.nanoTime() - started) / 1e9;
        if (!ordered) {
            Collections.sort(answer);
        }
        return answer;
    }

    static void print(Result result) {
        System.out.printf(Locale.ROOT, "%n%s over %,d rows (%,d answer rows): %s%n", result.query().label, result.rows(),
                result.answerRows(), String.format(Locale.ROOT, result.query().sql, SqlBenchmark.EVENTS));
        System.out.printf(Locale.ROOT, "  plan: %s%n", result.plan().replace("\n", "\n        "));
        System.out.printf(Locale.ROOT, "  vectorized %.3f s, row at a time %.3f s (medians); row at a time / vectorized"
                + " %.2fx (median of per-round ratios)%n", Median.of(result.vectorizedSeconds()),
                Median.of(result.rowSeconds()), result.speedup());
    }
}
