package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.fluss.metadata.TablePath;

/**
 * What one tiering round of a table reads: a span per bucket that has something the lake lacks.
 * Buckets with nothing new have no span.
 *
 * <pre>{@code
 * TieringPlan plan = TieringPlanner.plan(inputs);
 * if (plan.isEmpty()) { ... nothing to tier ... }
 * }</pre>
 */
record TieringPlan(TablePath table, List<BucketSpan> spans) {

    TieringPlan {
        requireNonNull(table, "table is null");
        spans = List.copyOf(requireNonNull(spans, "spans is null"));
    }

    boolean isEmpty() {
        return spans.isEmpty();
    }

    /** How many log offsets the lake was behind the log when the round was planned, over all buckets. */
    long lagOffsets() {
        return spans.stream().mapToLong(BucketSpan::lagOffsets).sum();
    }
}
