package dev.riffle.sql.plan;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.ComparisonOperator;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * A hash aggregate over the columns of one scan, as plain data: what {@code VectorizedAggregate}
 * computes on Arrow batches. Made only for what the vectorized executor computes exactly as
 * Calcite's row-at-a-time operators would ({@link #of(Aggregate)} declines anything else, which
 * then stays with Calcite).
 *
 * @param groupColumns the input columns the rows are grouped by (the scan's, or those computed from them), in output order
 * @param aggregations the aggregates, in output order after the group columns
 * @param having conditions every group handed on meets ({@code HAVING}), all of them; empty for none
 */
public record AggregatePlan(List<Integer> groupColumns, List<Aggregation> aggregations, List<GroupCondition> having) {

    /** The plan without {@code HAVING} conditions. */
    public AggregatePlan(List<Integer> groupColumns, List<Aggregation> aggregations) {
        this(groupColumns, aggregations, List.of());
    }

    /**
     * A {@code HAVING} conjunct an aggregate checks on its groups before they become rows: an
     * integer output field (a key or an aggregate's result) compared with an integer constant. A
     * group whose field is null does not meet it (SQL's unknown).
     *
     * @param field the aggregate's output field: a key's position, or the group columns' count plus an aggregate's
     */
    public record GroupCondition(int field, ComparisonOperator comparison, long constant) {
        public GroupCondition {
            requireNonNull(comparison, "comparison is null");
        }

        /** Whether {@code value} (an integer Calcite value, or null) meets the condition. */
        public boolean test(Object value) {
            return value != null && comparison.holds(Long.compare(((Number) value).longValue(), constant));
        }
    }

    /** What an aggregate function computes. */
    public enum Function {
        /** {@code COUNT(*)}: rows. */
        COUNT_ROWS,
        /** {@code COUNT(x)}: rows where {@code x} is not null. */
        COUNT,
        /** {@code COUNT(DISTINCT x)}: distinct non-null values. */
        COUNT_DISTINCT,
        /** {@code SUM(x)}: null when no value. */
        SUM,
        /** Calcite's {@code $SUM0(x)}: 0 when no value. */
        SUM0,
        MIN,
        MAX
    }

    /**
     * One aggregate.
     *
     * @param argument the input column it reads ({@code -1} for {@code COUNT(*)})
     * @param result the SQL type of the result, which fixes the arithmetic of sums
     */
    public record Aggregation(Function function, int argument, SqlTypeName result) {
        public Aggregation {
            requireNonNull(function, "function is null");
            requireNonNull(result, "result is null");
        }

        /** As EXPLAIN shows it, its argument named as {@code columnNames} name the input's columns. */
        public String describe(List<String> columnNames) {
            return describe(columnNames::get);
        }

        @Override
        public String toString() {
            return describe(column -> "$" + column);
        }

        private String describe(IntFunction<String> column) {
            return switch (function) {
                case COUNT_ROWS -> "COUNT(*)";
                case COUNT_DISTINCT -> "COUNT(DISTINCT " + column.apply(argument) + ")";
                default -> function + "(" + column.apply(argument) + ")";
            };
        }
    }

    public AggregatePlan {
        groupColumns = List.copyOf(groupColumns);
        aggregations = List.copyOf(aggregations);
        having = List.copyOf(having);
    }

    /** This plan with {@code conditions} among its {@code HAVING} conditions. */
    public AggregatePlan having(List<GroupCondition> conditions) {
        List<GroupCondition> all = new java.util.ArrayList<>(having);
        all.addAll(conditions);
        return new AggregatePlan(groupColumns, aggregations, all);
    }

    /** The plan of {@code aggregate}, when every part of it can be computed on Arrow batches. */
    public static Optional<AggregatePlan> of(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            return Optional.empty();
        }
        List<Aggregation> aggregations = new java.util.ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            Optional<Aggregation> aggregation = aggregation(call, aggregate);
            if (aggregation.isEmpty()) {
                return Optional.empty();
            }
            aggregations.add(aggregation.get());
        }
        return Optional.of(new AggregatePlan(aggregate.getGroupSet().asList(), aggregations));
    }

    private static Optional<Aggregation> aggregation(AggregateCall call, Aggregate aggregate) {
        if (call.hasFilter() || call.isApproximate() || !call.getCollation().getFieldCollations().isEmpty()
                || call.getArgList().size() > 1) {
            return Optional.empty();
        }
        SqlTypeName result = call.getType().getSqlTypeName();
        int argument = call.getArgList().isEmpty() ? -1 : call.getArgList().get(0);
        SqlKind kind = call.getAggregation().getKind();
        Function function;
        if (kind == SqlKind.COUNT) {
            function = argument < 0 ? Function.COUNT_ROWS : call.isDistinct() ? Function.COUNT_DISTINCT : Function.COUNT;
        } else if (argument < 0 || call.isDistinct()) {
            return Optional.empty();
        } else if (kind == SqlKind.SUM || kind == SqlKind.SUM0) {
            if (!summable(result)) {
                return Optional.empty();
            }
            function = kind == SqlKind.SUM ? Function.SUM : Function.SUM0;
        } else if (kind == SqlKind.MIN || kind == SqlKind.MAX) {
            SqlTypeName argumentType = aggregate.getInput().getRowType().getFieldList().get(argument).getType()
                    .getSqlTypeName();
            if (!comparable(argumentType)) {
                return Optional.empty();
            }
            function = kind == SqlKind.MIN ? Function.MIN : Function.MAX;
        } else {
            return Optional.empty();
        }
        return Optional.of(new Aggregation(function, argument, result));
    }

    /** Sums whose arithmetic the executor reproduces: Calcite adds in the result's Java type. */
    private static boolean summable(SqlTypeName type) {
        return switch (type) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, REAL, FLOAT, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    /** Types whose Calcite values compare as Calcite compares them ({@code compareTo}). */
    private static boolean comparable(SqlTypeName type) {
        return switch (type) {
            case TINYINT, SMALLINT, INTEGER, BIGINT, REAL, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, BOOLEAN, DATE,
                    TIME, TIMESTAMP, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> true;
            default -> false;
        };
    }

    /** As EXPLAIN shows it. */
    public String describe(List<String> columnNames) {
        List<String> outputs = new java.util.ArrayList<>();
        groupColumns.forEach(column -> outputs.add(columnNames.get(column)));
        List<String> aggregates = aggregations.stream().map(a -> a.describe(columnNames)).toList();
        outputs.addAll(aggregates);
        String described = "group " + outputs.subList(0, groupColumns.size()).stream()
                .collect(Collectors.joining(", ", "[", "]")) + " aggregates "
                + aggregates.stream().collect(Collectors.joining(", ", "[", "]"));
        if (having.isEmpty()) {
            return described;
        }
        return described + " having " + having.stream()
                .map(c -> outputs.get(c.field()) + " " + c.comparison().symbol() + " " + c.constant())
                .collect(Collectors.joining(" AND ", "[", "]"));
    }
}
