package dev.riffle.sql.plan;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.ComparisonOperator;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A condition the scan could not take (it compares computed values, or two columns) that a
 * vectorized operator checks on Arrow batches instead of leaving it to a Calcite filter:
 * comparisons of {@link VectorExpression}s, {@code IS [NOT] NULL}, and {@code AND}, {@code OR},
 * {@code NOT} of those, in SQL's three-valued logic (a comparison with a null is unknown, and a
 * row is kept only when the whole condition is true). Made only where the answer is the one
 * Calcite computes ({@link #of}): both sides of a comparison are converted to the wider of their
 * types as Java converts them, then compared as Java's primitives compare.
 *
 * <pre>{@code
 * // WHERE i + ti > 0: not a column against a literal, so not pushed to the scan
 * Optional<VectorCondition> residual = VectorCondition.of(filter.getCondition(), rexBuilder);
 * }</pre>
 */
public sealed interface VectorCondition {

    /** As EXPLAIN shows it, with the scan's column names. */
    String describe(List<String> columnNames);

    /** {@code left comparator right}, both converted to {@code type} first. */
    record Comparison(ComparisonOperator comparator, VectorExpression left, VectorExpression right, SqlTypeName type)
            implements VectorCondition {
        public Comparison {
            requireNonNull(comparator, "comparator is null");
            requireNonNull(left, "left is null");
            requireNonNull(right, "right is null");
            requireNonNull(type, "type is null");
        }

        @Override
        public String describe(List<String> columnNames) {
            return left.describe(columnNames) + " " + comparator.symbol() + " " + right.describe(columnNames);
        }
    }

    /** {@code operand IS NULL}, or {@code IS NOT NULL} when {@code negated}. */
    record NullCheck(VectorExpression operand, boolean negated) implements VectorCondition {
        public NullCheck {
            requireNonNull(operand, "operand is null");
        }

        @Override
        public String describe(List<String> columnNames) {
            return operand.describe(columnNames) + (negated ? " IS NOT NULL" : " IS NULL");
        }
    }

    /** Every operand true ({@code AND}), or any ({@code OR}). */
    record Junction(boolean all, List<VectorCondition> operands) implements VectorCondition {
        public Junction {
            operands = List.copyOf(requireNonNull(operands, "operands is null"));
        }

        @Override
        public String describe(List<String> columnNames) {
            return operands.stream().map(operand -> "(" + operand.describe(columnNames) + ")")
                    .collect(Collectors.joining(all ? " AND " : " OR "));
        }
    }

    /** {@code NOT operand}: unknown stays unknown. */
    record Negation(VectorCondition operand) implements VectorCondition {
        public Negation {
            requireNonNull(operand, "operand is null");
        }

        @Override
        public String describe(List<String> columnNames) {
            return "NOT (" + operand.describe(columnNames) + ")";
        }
    }

    /** The condition {@code node} over a scan's columns, when every part of it is checked here as Calcite checks it. */
    static Optional<VectorCondition> of(RexNode node, RexBuilder rexBuilder) {
        requireNonNull(node, "node is null");
        requireNonNull(rexBuilder, "rexBuilder is null");
        if (!(node instanceof RexCall call)) {
            return Optional.empty();
        }
        List<RexNode> operands = call.getOperands();
        switch (call.getKind()) {
            case AND, OR -> {
                List<VectorCondition> children = new ArrayList<>();
                for (RexNode operand : operands) {
                    Optional<VectorCondition> child = of(operand, rexBuilder);
                    if (child.isEmpty()) {
                        return Optional.empty();
                    }
                    children.add(child.get());
                }
                return Optional.of(new Junction(call.getKind() == SqlKind.AND, children));
            }
            case NOT -> {
                return of(operands.get(0), rexBuilder).map(Negation::new);
            }
            case SEARCH -> {
                return of(RexUtil.expandSearch(rexBuilder, null, call), rexBuilder);
            }
            case IS_NULL, IS_NOT_NULL -> {
                return VectorExpression.of(operands.get(0)).map(operand ->
                        new NullCheck(operand, call.getKind() == SqlKind.IS_NOT_NULL));
            }
            case EQUALS, NOT_EQUALS, LESS_THAN, LESS_THAN_OR_EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL -> {
                return comparison(call);
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    private static Optional<VectorCondition> comparison(RexCall call) {
        Optional<VectorExpression> left = VectorExpression.of(call.getOperands().get(0));
        Optional<VectorExpression> right = VectorExpression.of(call.getOperands().get(1));
        if (left.isEmpty() || right.isEmpty()) {
            return Optional.empty();
        }
        SqlTypeName a = left.get().type();
        SqlTypeName b = right.get().type();
        // Numbers only: both sides converted to the wider type (an INTEGER against a BIGINT as a long,
        // against a DOUBLE as a double), which is what Calcite's generated comparison does.
        SqlTypeName type = VectorExpression.widens(a, b) ? b : VectorExpression.widens(b, a) ? a : null;
        if (type == null) {
            return Optional.empty();
        }
        ComparisonOperator comparator = switch (call.getKind()) {
            case EQUALS -> ComparisonOperator.EQUAL;
            case NOT_EQUALS -> ComparisonOperator.NOT_EQUAL;
            case LESS_THAN -> ComparisonOperator.LESS_THAN;
            case LESS_THAN_OR_EQUAL -> ComparisonOperator.LESS_OR_EQUAL;
            case GREATER_THAN -> ComparisonOperator.GREATER_THAN;
            default -> ComparisonOperator.GREATER_OR_EQUAL;
        };
        return Optional.of(new Comparison(comparator, left.get(), right.get(), type));
    }
}
