package dev.riffle.core.scan;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.ColumnNotFoundException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.RowType;

/**
 * Which columns a scan returns, in the caller's order, and what to ask the server for.
 *
 * <p>Fluss projects on the server only by ascending field positions and returns the columns in
 * table order; {@link #outputOrder()} puts them back in the order the caller asked for.
 *
 * @param requested positions in the table schema, in output order
 * @param fetched the same positions, ascending: what the server is asked for
 * @param outputOrder for output column {@code i}, its index among the fetched columns
 * @param fetchedRowType the row type of the fetched columns
 * @param pushdown whether to ask the server to project (false when every column is read in
 *     table order, which needs no projection)
 */
public record Projection(int[] requested, int[] fetched, int[] outputOrder, RowType fetchedRowType, boolean pushdown) {

    /** Every column, in table order. */
    public static Projection all(RowType rowType) {
        int[] all = new int[rowType.getFieldCount()];
        Arrays.setAll(all, i -> i);
        return new Projection(all, all, all.clone(), rowType, false);
    }

    /**
     * The named columns in that order.
     *
     * @throws ColumnNotFoundException naming the column, the columns that exist, and the table,
     *     for an unknown or repeated column or an empty list
     */
    public static Projection of(RowType rowType, List<String> columns, TablePath table) {
        requireNonNull(columns, "columns is null");
        if (columns.isEmpty()) {
            throw new ColumnNotFoundException("At least one column must be selected. Available fields: "
                    + rowType.getFieldNames() + ", Table: " + table);
        }
        List<String> names = rowType.getFieldNames();
        int[] requested = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            String column = columns.get(i);
            int index = names.indexOf(column);
            if (index < 0) {
                throw new ColumnNotFoundException("Field '" + column + "' not found in table schema. Available fields: "
                        + names + ", Table: " + table);
            }
            for (int j = 0; j < i; j++) {
                if (requested[j] == index) {
                    throw new ColumnNotFoundException("Field '" + column + "' is selected twice, Table: " + table);
                }
            }
            requested[i] = index;
        }
        int[] fetched = requested.clone();
        Arrays.sort(fetched);
        int[] outputOrder = new int[requested.length];
        for (int i = 0; i < requested.length; i++) {
            outputOrder[i] = Arrays.binarySearch(fetched, requested[i]);
        }
        boolean everyColumn = fetched.length == names.size();
        return new Projection(requested, fetched, outputOrder, rowType.project(fetched), !everyColumn);
    }

    /** The field positions to send to the server, if the server should project. */
    public Optional<int[]> serverProjection() {
        return pushdown ? Optional.of(fetched.clone()) : Optional.empty();
    }

    /** Output column names, in output order. */
    public List<String> outputNames(RowType rowType) {
        List<String> out = new ArrayList<>(requested.length);
        for (int index : requested) {
            out.add(rowType.getFieldNames().get(index));
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Projection p && Arrays.equals(requested, p.requested) && pushdown == p.pushdown;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(requested) * 31 + Boolean.hashCode(pushdown);
    }

    @Override
    public String toString() {
        return "Projection" + Arrays.toString(requested);
    }
}
