package dev.riffle.sql.planner;

import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Filter;
import org.apache.fluss.metadata.TableInfo;

/**
 * Equality on the bucket key, when it is a proper prefix of the primary key, becomes a Fluss
 * prefix lookup: {@code FlussScan(access=PrefixLookup[...])}. Every other conjunct stays above.
 */
public final class PrefixLookupRule extends RelOptRule {
    public static final PrefixLookupRule INSTANCE = new PrefixLookupRule();

    @SuppressWarnings("deprecation")
    private PrefixLookupRule() {
        super(operand(Filter.class, operand(FlussScan.class, none())), "PrefixLookupRule");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        FlussScan scan = call.rel(1);
        TableInfo table = scan.plan().table();
        return scan.plan().access() instanceof ReadPlan.Scan && scan.plan().limit().isEmpty()
                && scan.plan().filters().isEmpty() && KeyAccess.servesKeyLookups(scan.plan()) && KeyAccess.hasPrefixKey(table);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Filter filter = call.rel(0);
        FlussScan scan = call.rel(1);
        KeyEqualities equalities = KeyEqualities.of(filter.getCondition(), scan);
        List<String> prefixColumns = scan.plan().table().getBucketKeys();
        List<KeyEqualities.Equality> used = new ArrayList<>();
        List<ReadPlan.KeyValue> prefix = new ArrayList<>();
        for (String column : prefixColumns) {
            KeyEqualities.Equality equality = equalities.get(column);
            if (equality == null || equality.values().size() != 1) {
                return;
            }
            used.add(equality);
            prefix.add(equality.values().get(0));
        }
        FlussScan lookup = scan.withPlan(scan.plan().withAccess(new ReadPlan.PrefixLookup(prefixColumns, prefix)));
        call.transformTo(KeyAccess.withRemaining(call.builder(), lookup, equalities.remaining(used)));
    }
}
