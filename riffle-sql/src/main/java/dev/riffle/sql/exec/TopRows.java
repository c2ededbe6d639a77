package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.plan.TopNPlan;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The first {@code capacity} rows of everything {@link #add added}, in a top-N's order: a bounded
 * heap whose head is the worst row kept. A batch row is compared with that head by its sort-key
 * values alone (one key at a time, the next only on a tie), and becomes a Calcite row only when it
 * enters the top, so a top-N over millions of rows turns a few thousand of them into objects, not
 * all of them. Ties keep the row read first, so the answer is the one a stable sort of the rows in
 * read order would give.
 *
 * <pre>{@code
 * TopRows top = new TopRows(plan.keys(), 10);
 * scan.forEachBatch(context, allocator, top::add);
 * List<Object> rows = top.rows();   // ordered, at most 10
 * }</pre>
 */
final class TopRows {
    /** A kept row: its sort-key values, its place in read order, and the row itself. */
    private record Kept(Object[] keys, long sequence, Object row) {}

    private final List<TopNPlan.SortKey> keys;
    private final long capacity;
    private final Comparator<Kept> order;
    private final PriorityQueue<Kept> kept;
    private long sequence;

    TopRows(List<TopNPlan.SortKey> keys, long capacity) {
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        if (capacity < 0) {
            throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
        }
        this.capacity = capacity;
        this.order = this::compare;
        this.kept = new PriorityQueue<>(order.reversed());
    }

    /** Offers the first {@code rows} rows of {@code batch} (the plan's columns, in order). */
    void add(VectorSchemaRoot batch, int rows) {
        if (capacity == 0) {
            return;
        }
        CalciteColumn[] keyColumns = new CalciteColumn[keys.size()];
        for (int i = 0; i < keyColumns.length; i++) {
            keyColumns[i] = CalciteColumn.of(batch.getVector(keys.get(i).column()));
        }
        CalciteColumn[] columns = null; // made when the first row of the batch enters the top
        for (int row = 0; row < rows; row++) {
            long place = sequence++;
            if (kept.size() == capacity && !beats(keyColumns, row, kept.peek())) {
                continue;
            }
            if (columns == null) {
                columns = new CalciteColumn[batch.getFieldVectors().size()];
                for (int i = 0; i < columns.length; i++) {
                    columns[i] = CalciteColumn.of(batch.getVector(i));
                }
            }
            if (kept.size() == capacity) {
                kept.poll();
            }
            kept.add(materialize(columns, row, place));
        }
    }

    /** How many rows are kept now. */
    int size() {
        return kept.size();
    }

    /** The kept rows in order; a row is an {@code Object[]} (the value itself for one column). */
    List<Object> rows() {
        List<Kept> sorted = new ArrayList<>(kept);
        sorted.sort(order);
        List<Object> rows = new ArrayList<>(sorted.size());
        sorted.forEach(k -> rows.add(k.row()));
        return rows;
    }

    /** Whether batch row {@code row} comes before {@code worst} (a tie does not: the kept row was read first). */
    private boolean beats(CalciteColumn[] keyColumns, int row, Kept worst) {
        for (int i = 0; i < keyColumns.length; i++) {
            int c = compare(keys.get(i), keyColumns[i].get(row), worst.keys()[i]);
            if (c != 0) {
                return c < 0;
            }
        }
        return false;
    }

    private Kept materialize(CalciteColumn[] columns, int row, long place) {
        Object[] values = new Object[columns.length];
        for (int i = 0; i < columns.length; i++) {
            values[i] = columns[i].get(row);
        }
        Object[] keyValues = new Object[keys.size()];
        for (int i = 0; i < keyValues.length; i++) {
            keyValues[i] = values[keys.get(i).column()];
        }
        return new Kept(keyValues, place, values.length == 1 ? values[0] : values);
    }

    private int compare(Kept a, Kept b) {
        for (int i = 0; i < keys.size(); i++) {
            int c = compare(keys.get(i), a.keys()[i], b.keys()[i]);
            if (c != 0) {
                return c;
            }
        }
        return Long.compare(a.sequence(), b.sequence());
    }

    /**
     * Calcite's enumerable order of two values of one key: nulls first only for {@code NULLS FIRST}
     * (whatever the direction), other values by their natural order, reversed when descending.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(TopNPlan.SortKey key, Object a, Object b) {
        if (a == null || b == null) {
            if (a == b) {
                return 0;
            }
            return (a == null) == key.nullsFirst() ? -1 : 1;
        }
        int c = ((Comparable) a).compareTo(b);
        return key.descending() ? -c : c;
    }
}
