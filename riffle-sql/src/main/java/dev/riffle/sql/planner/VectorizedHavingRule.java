package dev.riffle.sql.planner;

import dev.riffle.core.filter.ComparisonOperator;
import dev.riffle.sql.plan.AggregatePlan.GroupCondition;
import dev.riffle.sql.plan.AggregatePlan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * {@code Filter over VectorizedAggregate} whose condition compares integer outputs of the
 * aggregate with integer constants, every conjunct of it (what {@code HAVING count(*) >= 24}
 * becomes), moves into the aggregate ({@link AggregatePlan#having}): its groups are checked before
 * they become rows, so a million groups of which a hundred pass are not each made a row for
 * Calcite's filter. Any other condition stays Calcite's, whole.
 */
public final class VectorizedHavingRule extends RelOptRule {
    public static final VectorizedHavingRule INSTANCE = new VectorizedHavingRule();

    @SuppressWarnings("deprecation")
    private VectorizedHavingRule() {
        super(operand(Filter.class, operand(VectorizedAggregate.class, none())), "VectorizedHavingRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Filter filter = call.rel(0);
        VectorizedAggregate aggregate = call.rel(1);
        List<GroupCondition> conditions = new ArrayList<>();
        for (RexNode conjunct : RelOptUtil.conjunctions(filter.getCondition())) {
            Optional<GroupCondition> condition = condition(conjunct);
            if (condition.isEmpty()) {
                return;
            }
            conditions.add(condition.get());
        }
        call.transformTo(aggregate.having(conditions));
    }

    /** {@code $i <op> constant} or {@code constant <op> $i}, for an integer field and an integer constant. */
    private static Optional<GroupCondition> condition(RexNode node) {
        if (!(node instanceof RexCall call) || call.getOperands().size() != 2) {
            return Optional.empty();
        }
        ComparisonOperator comparison = switch (call.getKind()) {
            case EQUALS -> ComparisonOperator.EQUAL;
            case NOT_EQUALS -> ComparisonOperator.NOT_EQUAL;
            case LESS_THAN -> ComparisonOperator.LESS_THAN;
            case LESS_THAN_OR_EQUAL -> ComparisonOperator.LESS_OR_EQUAL;
            case GREATER_THAN -> ComparisonOperator.GREATER_THAN;
            case GREATER_THAN_OR_EQUAL -> ComparisonOperator.GREATER_OR_EQUAL;
            default -> null;
        };
        if (comparison == null) {
            return Optional.empty();
        }
        RexNode left = call.getOperands().get(0);
        RexNode right = call.getOperands().get(1);
        if (left instanceof RexInputRef field && right instanceof RexLiteral constant) {
            return condition(field, comparison, constant);
        }
        if (right instanceof RexInputRef field && left instanceof RexLiteral constant) {
            return condition(field, comparison.flipped(), constant);
        }
        return Optional.empty();
    }

    private static Optional<GroupCondition> condition(RexInputRef field, ComparisonOperator comparison, RexLiteral constant) {
        SqlTypeName type = field.getType().getSqlTypeName();
        if (type != SqlTypeName.TINYINT && type != SqlTypeName.SMALLINT && type != SqlTypeName.INTEGER
                && type != SqlTypeName.BIGINT) {
            return Optional.empty();
        }
        BigDecimal value = constant.getValueAs(BigDecimal.class);
        if (value == null) {
            return Optional.empty();
        }
        try {
            // An integer constant only: comparing a long field with 24.5 would need Calcite's casts.
            return Optional.of(new GroupCondition(field.getIndex(), comparison, value.longValueExact()));
        } catch (ArithmeticException notAnInteger) {
            return Optional.empty();
        }
    }
}
