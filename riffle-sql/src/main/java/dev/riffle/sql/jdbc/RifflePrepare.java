package dev.riffle.sql.jdbc;

import dev.riffle.sql.planner.FlussRules;
import java.util.Optional;
import org.apache.calcite.plan.RelOptCostFactory;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.prepare.CalcitePrepareImpl;

/**
 * Calcite's statement preparation with Riffle's rules in every planner from the start, so that
 * plans without a Fluss scan (an {@code INSERT ... VALUES}) still meet the rule that writes to
 * Fluss.
 */
final class RifflePrepare extends CalcitePrepareImpl {
    @Override
    protected RelOptPlanner createPlanner(org.apache.calcite.jdbc.CalcitePrepare.Context prepareContext,
            org.apache.calcite.plan.Context externalContext, RelOptCostFactory costFactory) {
        RelOptPlanner planner = super.createPlanner(prepareContext, externalContext, costFactory);
        FlussRules.RULES.forEach(planner::addRule);
        return planner;
    }

    /**
     * Statements Riffle refuses while planning (a DELETE on a log table) fail inside a rule; the
     * user should read the reason, not Calcite's "Error while applying rule" around it.
     */
    @Override
    public <T> CalciteSignature<T> prepareSql(org.apache.calcite.jdbc.CalcitePrepare.Context context, Query<T> query,
            java.lang.reflect.Type elementType, long maxRowCount) {
        try {
            return ConstantFailures.guard(super.prepareSql(context, query, elementType, maxRowCount));
        } catch (RuntimeException e) {
            Throwable cause = e;
            while (cause.getMessage() != null && cause.getMessage().startsWith("Error while applying rule")
                    && cause.getCause() instanceof RuntimeException inner) {
                cause = inner;
            }
            Optional<String> hint = UnknownNameHint.forMessage(cause.getMessage(), query.sql, context);
            if (hint.isPresent()) {
                throw new IllegalArgumentException(cause.getMessage() + hint.get(), cause);
            }
            throw (RuntimeException) cause;
        }
    }
}
