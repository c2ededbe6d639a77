package dev.riffle.sql.planner;

import java.util.List;
import java.util.stream.Stream;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;

/** Riffle's access-path rules, one per path, and the vectorized aggregate's and top-N's; registered by every {@link FlussScan}. */
public final class FlussRules {
    public static final List<RelOptRule> RULES = Stream.concat(Stream.of(
            PointLookupRule.INSTANCE,
            PrefixLookupRule.INSTANCE,
            LimitScanRule.INSTANCE,
            FilterPushdownRule.INSTANCE,
            ProjectPushdownRule.PROJECT,
            ProjectPushdownRule.PROJECT_FILTER,
            TableModifyRule.INSTANCE,
            VectorizedAggregateRule.INSTANCE,
            VectorizedAggregateRule.OVER_PROJECT,
            VectorizedAggregateRule.OVER_FILTER,
            VectorizedAggregateRule.OVER_PROJECT_FILTER,
            VectorizedTopNRule.LIMIT_OVER_SORT,
            VectorizedTopNRule.SORT_WITH_FETCH), VectorizedTopNRule.OVER_FILTER_OR_PROJECT.stream())
            .<RelOptRule>map(rule -> rule).toList();

    private FlussRules() {}

    static void register(RelOptPlanner planner) {
        RULES.forEach(planner::addRule);
    }
}
