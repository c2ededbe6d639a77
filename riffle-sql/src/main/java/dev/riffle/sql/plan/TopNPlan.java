package dev.riffle.sql.plan;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;

/**
 * {@code ORDER BY ... LIMIT n [OFFSET m]} over the columns of one scan, as plain data: what
 * {@code VectorizedTopN} computes on Arrow batches. Made only for what it orders exactly as
 * Calcite's sort would ({@link #of(Sort)} declines anything else, which then stays with Calcite).
 *
 * @param keys the sort keys, most significant first
 * @param fetch how many rows are returned (a literal or a {@code ?})
 * @param offset how many of the ordered rows are skipped first, if any
 */
public record TopNPlan(List<SortKey> keys, ReadPlan.KeyValue fetch, Optional<ReadPlan.KeyValue> offset) {

    /**
     * One sort key, ordered as Calcite's enumerable sort orders it: values by their natural order
     * (reversed when descending), nulls first only when the collation says {@code NULLS FIRST}.
     *
     * @param column the scan's output column
     */
    public record SortKey(int column, boolean descending, boolean nullsFirst) {}

    public TopNPlan {
        keys = List.copyOf(keys);
        requireNonNull(fetch, "fetch is null");
        requireNonNull(offset, "offset is null");
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("A top-N has at least one sort key");
        }
    }

    /** The plan of {@code sort}, when it orders and limits (a plain LIMIT is a limit scan instead). */
    public static Optional<TopNPlan> of(Sort sort) {
        return of(sort.getCollation(), sort.getRowType(), sort.fetch, sort.offset);
    }

    /**
     * The plan of ordering rows of {@code rowType} by {@code order} and keeping {@code fetch} of them
     * after skipping {@code offset} (null: none), when it can be computed on Arrow batches.
     */
    public static Optional<TopNPlan> of(RelCollation order, RelDataType rowType, RexNode fetch, RexNode offset) {
        if (order.getFieldCollations().isEmpty() || fetch == null) {
            return Optional.empty();
        }
        List<SortKey> keys = new ArrayList<>();
        for (RelFieldCollation collation : order.getFieldCollations()) {
            RelFieldCollation.Direction direction = collation.getDirection();
            if (direction != RelFieldCollation.Direction.ASCENDING && direction != RelFieldCollation.Direction.DESCENDING) {
                return Optional.empty(); // strictly ordered or clustered: not what a query's ORDER BY gives
            }
            RelDataType type = rowType.getFieldList().get(collation.getFieldIndex()).getType();
            if (type.isStruct() || type.getComponentType() != null || type.getKeyType() != null) {
                return Optional.empty(); // nested values have no natural order here
            }
            keys.add(new SortKey(collation.getFieldIndex(), direction == RelFieldCollation.Direction.DESCENDING,
                    collation.nullDirection == RelFieldCollation.NullDirection.FIRST));
        }
        Optional<ReadPlan.KeyValue> rows = count(fetch);
        Optional<ReadPlan.KeyValue> skipped = offset == null ? Optional.empty() : count(offset);
        if (rows.isEmpty() || (offset != null && skipped.isEmpty())) {
            return Optional.empty();
        }
        return Optional.of(new TopNPlan(keys, rows.get(), skipped));
    }

    private static Optional<ReadPlan.KeyValue> count(RexNode node) {
        if (node instanceof RexLiteral literal) {
            Long value = literal.getValueAs(Long.class);
            return value == null ? Optional.empty() : Optional.of(ReadPlan.KeyValue.literal(value));
        }
        if (node instanceof RexDynamicParam parameter) {
            return Optional.of(ReadPlan.KeyValue.parameter(parameter.getIndex()));
        }
        return Optional.empty();
    }

    /** For EXPLAIN: {@code order [v DESC NULLS FIRST, id] fetch 10 offset 5}. */
    public String describe(List<String> columnNames) {
        String order = keys.stream().map(key -> columnNames.get(key.column()) + (key.descending() ? " DESC" : "")
                        + (key.nullsFirst() != key.descending() ? (key.nullsFirst() ? " NULLS FIRST" : " NULLS LAST") : ""))
                .collect(Collectors.joining(", ", "order [", "]"));
        return order + " fetch " + fetch + offset.map(o -> " offset " + o).orElse("");
    }
}
