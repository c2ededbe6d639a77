package dev.riffle.sql.plan;

import static java.util.Objects.requireNonNull;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The timestamp values of a write's input rows that the plan knows to the digit, while Calcite's
 * rows hold them as milliseconds: the literals and {@code ?} parameters of {@code INSERT ... VALUES},
 * the {@code SET} values of an {@code UPDATE}, and the key of the row a point lookup finds for an
 * {@code UPDATE} or {@code DELETE}. The writer takes these instead of the row's
 * value, so a {@code TIMESTAMP(6)} column gets its microseconds.
 *
 * <pre>{@code
 * ExactColumns exact = ExactColumnsFinder.of(input);   // INSERT INTO t VALUES (1, TIMESTAMP '2024-06-01 12:00:00.123456')
 * exact.row(0);                                   // {1=2024-06-01 12:00:00.123456}
 * }</pre>
 *
 * @param rows when the input's rows are known one by one (a {@code VALUES} list), each row's exact
 *     columns, by position in the input row
 * @param everyRow exact columns of every row (a {@code SET ts = ?}), by position
 */
public record ExactColumns(Optional<List<Map<Integer, ReadPlan.KeyValue>>> rows,
        Map<Integer, ReadPlan.KeyValue> everyRow) {
    /** A write whose values are all Calcite's. */
    public static final ExactColumns NONE = new ExactColumns(Optional.empty(), Map.of());

    public ExactColumns {
        requireNonNull(rows, "rows is null");
        rows = rows.map(list -> list.stream().map(Map::copyOf).toList());
        everyRow = Map.copyOf(everyRow);
    }

    /** The exact columns of input row {@code index} (from 0). */
    public Map<Integer, ReadPlan.KeyValue> row(long index) {
        if (rows.isEmpty() || index >= rows.get().size()) {
            return everyRow;
        }
        Map<Integer, ReadPlan.KeyValue> row = new HashMap<>(everyRow);
        row.putAll(rows.get().get((int) index));
        return row;
    }
}
