package dev.riffle.sql.planner;

import java.util.List;
import java.util.stream.Stream;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;

/**
 * Riffle's access-path rules, one per path, and the vectorized aggregate's (with the candidate that
 * lets it see {@code DISTINCT} aggregates over pushed scans) and top-N's; registered by every
 * {@link FlussScan}.
 */
public final class FlussRules {
    public static final List<RelOptRule> RULES = Stream.of(
            Stream.<RelOptRule>of(
                    PointLookupRule.INSTANCE,
                    PrefixLookupRule.INSTANCE,
                    LimitScanRule.INSTANCE,
                    FilterPushdownRule.INSTANCE,
                    ProjectPushdownRule.PROJECT,
                    ProjectPushdownRule.PROJECT_FILTER,
                    TableModifyRule.INSTANCE,
                    DistinctAggregateCandidateRule.INSTANCE,
                    VectorizedHavingRule.INSTANCE),
            VectorizedAggregateRule.RULES.stream(),
            VectorizedTopNRule.RULES.stream())
            .<RelOptRule>flatMap(rules -> rules).toList();

    private FlussRules() {}

    static void register(RelOptPlanner planner) {
        RULES.forEach(planner::addRule);
    }
}
