package dev.riffle.sql.plan;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A filter condition a scan absorbed, as plain data over the table's column names: what
 * {@code FilterPushdownRule} took out of a SQL filter, and what the executor turns into a Fluss
 * predicate (for the lake and the log tail) or a partition choice. Values are literals or
 * {@code ?} parameters, bound at each execution.
 */
public sealed interface PushedCondition {

    /** The comparisons Fluss's predicates can express (those of Fluss's Flink {@code PredicateConverter}). */
    enum Op {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">="), IN("IN"), IS_NULL("IS NULL"),
        IS_NOT_NULL("IS NOT NULL"), STARTS_WITH("LIKE prefix"), ENDS_WITH("LIKE suffix"), CONTAINS("LIKE infix");

        private final String sql;

        Op(String sql) {
            this.sql = sql;
        }

        /** The operator with its operands swapped ({@code 5 < x} is {@code x > 5}). */
        public Op flipped() {
            return switch (this) {
                case LT -> GT;
                case LE -> GE;
                case GT -> LT;
                case GE -> LE;
                default -> this;
            };
        }
    }

    /** The columns the condition reads. */
    List<String> columns();

    /** As EXPLAIN shows it. */
    String describe();

    private static List<String> columnsOf(List<PushedCondition> children) {
        return children.stream().flatMap(c -> c.columns().stream()).distinct().toList();
    }

    /** {@code column op values}; unary operators have no values, {@code IN} has one or more. */
    record Leaf(String column, Op op, List<ReadPlan.KeyValue> values) implements PushedCondition {
        public Leaf {
            requireNonNull(column, "column is null");
            requireNonNull(op, "op is null");
            values = List.copyOf(values);
        }

        @Override
        public List<String> columns() {
            return List.of(column);
        }

        @Override
        public String describe() {
            return switch (op) {
                case IS_NULL, IS_NOT_NULL -> column + " " + op.sql;
                case IN -> column + " IN " + values.stream().map(Object::toString).collect(Collectors.joining(", ", "(", ")"));
                case STARTS_WITH -> column + " LIKE " + values.get(0) + "%";
                case ENDS_WITH -> column + " LIKE %" + values.get(0);
                case CONTAINS -> column + " LIKE %" + values.get(0) + "%";
                default -> column + " " + op.sql + " " + values.get(0);
            };
        }
    }

    /** Every child holds. */
    record AllOf(List<PushedCondition> children) implements PushedCondition {
        public AllOf {
            children = List.copyOf(children);
        }

        @Override
        public List<String> columns() {
            return columnsOf(children);
        }

        @Override
        public String describe() {
            return children.stream().map(PushedCondition::describe).collect(Collectors.joining(" AND ", "(", ")"));
        }
    }

    /** At least one child holds. */
    record AnyOf(List<PushedCondition> children) implements PushedCondition {
        public AnyOf {
            children = List.copyOf(children);
        }

        @Override
        public List<String> columns() {
            return columnsOf(children);
        }

        @Override
        public String describe() {
            return children.stream().map(PushedCondition::describe).collect(Collectors.joining(" OR ", "(", ")"));
        }
    }
}
