package dev.riffle.sql.planner;

import dev.riffle.sql.plan.ReadPlan;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * {@code LIMIT n} (literal) without {@code ORDER BY}, directly over a scan, becomes a read that
 * stops after {@code n} rows ({@code LimitScan}; Fluss's KV limit scan for PK tables). With an
 * {@code OFFSET} the scan reads {@code offset + n} rows and the sort stays above to skip. A
 * {@code LIMIT ?} without offset is bound at each execution.
 */
public final class LimitScanRule extends RelOptRule {
    public static final LimitScanRule INSTANCE = new LimitScanRule();

    @SuppressWarnings("deprecation")
    private LimitScanRule() {
        super(operand(Sort.class, operand(FlussScan.class, none())), "LimitScanRule");
    }

    @Override
    public boolean matches(RelOptRuleCall call) {
        Sort sort = call.rel(0);
        FlussScan scan = call.rel(1);
        boolean literal = sort.fetch instanceof RexLiteral && (sort.offset == null || sort.offset instanceof RexLiteral);
        boolean parameter = sort.fetch instanceof RexDynamicParam && sort.offset == null;
        return sort.getCollation().getFieldCollations().isEmpty() && (literal || parameter)
                && scan.plan().limit().isEmpty();
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Sort sort = call.rel(0);
        FlussScan scan = call.rel(1);
        if (sort.fetch instanceof RexDynamicParam parameter) {
            call.transformTo(scan.withPlan(scan.plan().withLimit(ReadPlan.KeyValue.parameter(parameter.getIndex()))));
            return;
        }
        long rows = count(sort.fetch) + (sort.offset == null ? 0 : count(sort.offset));
        FlussScan limited = scan.withPlan(scan.plan().withLimit(rows));
        call.transformTo(sort.offset == null ? limited : sort.copy(sort.getTraitSet(), limited, sort.getCollation(),
                sort.offset, sort.fetch));
    }

    private static long count(RexNode literal) {
        return ((RexLiteral) literal).getValueAs(Long.class);
    }
}
