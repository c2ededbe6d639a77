package dev.riffle.sql.exec;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Numbers the groups of a hash aggregate (0, 1, 2, ... in order of first appearance) and keeps
 * each group's key values as Calcite values. Groups of one integer-typed column are found by the
 * primitive value in an open-addressing table, and of one string column by its UTF-8 bytes in the
 * vector, without an object per row; other keys go through
 * Calcite's values in a hash map, whose equality is the one Calcite's own aggregate uses.
 */
abstract class GroupNumbers {
    /** Group numbers of {@code rows} rows of {@code batch}, into {@code groupOfRow}. */
    abstract void number(VectorSchemaRoot batch, int rows, int[] groupOfRow);

    abstract int count();

    /** Writes the key values of {@code group} to the start of {@code row}. */
    abstract void keyValues(int group, Object[] row);

    static GroupNumbers of(List<Integer> columns) {
        if (columns.isEmpty()) {
            return new OneGroup();
        }
        if (columns.size() == 1) {
            return new OneColumn(columns.get(0));
        }
        return new SeveralColumns(columns.stream().mapToInt(Integer::intValue).toArray());
    }

    /** No GROUP BY: one group, present even when no row is. */
    private static final class OneGroup extends GroupNumbers {
        @Override
        void number(VectorSchemaRoot batch, int rows, int[] groupOfRow) {
            Arrays.fill(groupOfRow, 0, rows, 0);
        }

        @Override
        int count() {
            return 1;
        }

        @Override
        void keyValues(int group, Object[] row) {}
    }

    private static final class OneColumn extends GroupNumbers {
        private final int column;
        private final List<Object> keys = new ArrayList<>();
        private final Map<Object, Integer> byValue = new HashMap<>();
        private final LongGroupTable byInteger = new LongGroupTable();
        private final BytesGroupTable byBytes = new BytesGroupTable();
        private int nullGroup = -1;
        /**
         * How groups are found: decided by the first batch and kept for the read, so that a key
         * gets one group even if later batches come in other vector types.
         */
        private Lookup lookup;

        private enum Lookup { INTEGER, UTF8, VALUE }

        OneColumn(int column) {
            this.column = column;
        }

        @Override
        void number(VectorSchemaRoot batch, int rows, int[] groupOfRow) {
            FieldVector vector = batch.getVector(column);
            CalciteColumn values = CalciteColumn.of(vector);
            if (lookup == null) {
                lookup = integers(vector) ? Lookup.INTEGER : vector instanceof VarCharVector ? Lookup.UTF8 : Lookup.VALUE;
            }
            if (lookup == Lookup.UTF8) {
                VarCharVector strings = vector instanceof VarCharVector v ? v : null;
                for (int row = 0; row < rows; row++) {
                    if (vector.isNull(row)) {
                        groupOfRow[row] = nullGroup();
                        continue;
                    }
                    int group = strings != null ? byBytes.get(strings, row)
                            : byBytes.get(((String) values.get(row)).getBytes(StandardCharsets.UTF_8));
                    if (group < 0) {
                        group = keys.size();
                        keys.add(values.get(row));
                        byBytes.put(group);
                    }
                    groupOfRow[row] = group;
                }
                return;
            }
            if (lookup == Lookup.VALUE) {
                for (int row = 0; row < rows; row++) {
                    Object value = values.get(row);
                    Integer group = byValue.get(value);
                    if (group == null) {
                        group = keys.size();
                        keys.add(value);
                        byValue.put(value, group);
                    }
                    groupOfRow[row] = group;
                }
                return;
            }
            boolean primitive = integers(vector);
            for (int row = 0; row < rows; row++) {
                if (vector.isNull(row)) {
                    groupOfRow[row] = nullGroup();
                    continue;
                }
                long key = primitive ? integer(vector, row) : ((Number) values.get(row)).longValue();
                int group = byInteger.get(key);
                if (group < 0) {
                    group = keys.size();
                    keys.add(values.get(row));
                    byInteger.put(key, group);
                }
                groupOfRow[row] = group;
            }
        }

        private int nullGroup() {
            if (nullGroup < 0) {
                nullGroup = keys.size();
                keys.add(null);
            }
            return nullGroup;
        }

        @Override
        int count() {
            return keys.size();
        }

        @Override
        void keyValues(int group, Object[] row) {
            row[0] = keys.get(group);
        }
    }

    private static final class SeveralColumns extends GroupNumbers {
        private final int[] columns;
        private final List<List<Object>> keys = new ArrayList<>();
        private final Map<List<Object>, Integer> byValues = new HashMap<>();

        SeveralColumns(int[] columns) {
            this.columns = columns;
        }

        @Override
        void number(VectorSchemaRoot batch, int rows, int[] groupOfRow) {
            CalciteColumn[] values = new CalciteColumn[columns.length];
            for (int i = 0; i < columns.length; i++) {
                values[i] = CalciteColumn.of(batch.getVector(columns[i]));
            }
            for (int row = 0; row < rows; row++) {
                Object[] key = new Object[columns.length];
                for (int i = 0; i < columns.length; i++) {
                    key[i] = values[i].get(row);
                }
                List<Object> asList = Arrays.asList(key);
                Integer group = byValues.get(asList);
                if (group == null) {
                    group = keys.size();
                    keys.add(asList);
                    byValues.put(asList, group);
                }
                groupOfRow[row] = group;
            }
        }

        @Override
        int count() {
            return keys.size();
        }

        @Override
        void keyValues(int group, Object[] row) {
            List<Object> key = keys.get(group);
            for (int i = 0; i < key.size(); i++) {
                row[i] = key.get(i);
            }
        }
    }

    /** Whether the vector holds integers whose Calcite value is determined by the primitive value. */
    static boolean integers(FieldVector vector) {
        return vector instanceof IntVector || vector instanceof BigIntVector || vector instanceof SmallIntVector
                || vector instanceof TinyIntVector || vector instanceof DateDayVector;
    }

    /** The primitive value of a non-null row of an {@link #integers} vector. */
    static long integer(FieldVector vector, int row) {
        if (vector instanceof IntVector v) {
            return v.get(row);
        }
        if (vector instanceof BigIntVector v) {
            return v.get(row);
        }
        if (vector instanceof SmallIntVector v) {
            return v.get(row);
        }
        if (vector instanceof TinyIntVector v) {
            return v.get(row);
        }
        return ((DateDayVector) vector).get(row);
    }
}
