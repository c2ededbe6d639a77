package dev.riffle.sql.planner;

import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Filter;

/**
 * Equality on every primary-key column (literals, {@code ?} parameters, or IN-lists) becomes
 * point lookups in Fluss's KV store: {@code Filter(pk = v) over FlussScan} turns into
 * {@code FlussScan(access=PointLookup[...])}, or {@code BatchLookup} for several keys. The other
 * conjuncts stay in a filter above.
 */
public final class PointLookupRule extends RelOptRule {
    public static final PointLookupRule INSTANCE = new PointLookupRule();
    /** More keys than this (an IN-list cross product) are left to a scan. */
    static final int MAX_KEYS = 10_000;

    @SuppressWarnings("deprecation")
    private PointLookupRule() {
        super(operand(Filter.class, operand(FlussScan.class, none())), "PointLookupRule");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        FlussScan scan = call.rel(1);
        return scan.plan().access() instanceof ReadPlan.Scan && scan.plan().limit().isEmpty()
                && scan.plan().filters().isEmpty()
                && KeyAccess.servesKeyLookups(scan.plan());
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Filter filter = call.rel(0);
        FlussScan scan = call.rel(1);
        KeyEqualities equalities = KeyEqualities.of(filter.getCondition(), scan);
        List<String> keyColumns = scan.plan().table().getPrimaryKeys();
        List<KeyEqualities.Equality> used = new ArrayList<>();
        List<List<ReadPlan.KeyValue>> keys = new ArrayList<>();
        keys.add(List.of());
        for (String column : keyColumns) {
            KeyEqualities.Equality equality = equalities.get(column);
            if (equality == null) {
                return;
            }
            used.add(equality);
            List<List<ReadPlan.KeyValue>> extended = new ArrayList<>();
            for (List<ReadPlan.KeyValue> prefix : keys) {
                for (ReadPlan.KeyValue value : equality.values()) {
                    List<ReadPlan.KeyValue> key = new ArrayList<>(prefix);
                    key.add(value);
                    extended.add(key);
                }
            }
            if (extended.size() > MAX_KEYS) {
                return;
            }
            keys = extended;
        }
        FlussScan lookup = scan.withPlan(scan.plan().withAccess(new ReadPlan.Lookup(keyColumns, keys)));
        call.transformTo(KeyAccess.withRemaining(call.builder(), lookup, equalities.remaining(used)));
    }
}
