package dev.riffle.sql.exec;

import dev.riffle.core.types.ArrowColumnMemory;
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
 * each group's key values as Calcite values. A key column of integers is looked up by its primitive
 * values in an open-addressing table, a string column by its UTF-8 bytes in the vector, without an
 * object per row; other columns by Calcite's values in a hash map, whose equality is the one
 * Calcite's own aggregate uses. Several key columns are numbered column by column and then pair by
 * pair.
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
                ArrowColumnMemory strings = vector instanceof VarCharVector
                        ? ArrowColumnMemory.of(vector).orElseThrow() : null;
                for (int row = 0; row < rows; row++) {
                    if (strings != null ? strings.isNull(row) : vector.isNull(row)) {
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
            IntegerValues integers = IntegerValues.of(vector);
            for (int row = 0; row < rows; row++) {
                if (integers.isNull(row)) {
                    groupOfRow[row] = nullGroup();
                    continue;
                }
                long key = integers.get(row);
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

    /**
     * Several key columns: each column numbers its own values as {@link OneColumn} does, and the
     * groups are numbered pair by pair, {@code (group of the first i columns, group of column i + 1)},
     * in tables of primitive pairs; no key object is made per row.
     */
    private static final class SeveralColumns extends GroupNumbers {
        private final OneColumn[] columns;
        /** {@code levels[i]}: groups of columns {@code 0..i + 1}, by (group of {@code 0..i}, group of column {@code i + 1}). */
        private final Level[] levels;
        private int[] columnGroups = new int[0];

        SeveralColumns(int[] columns) {
            this.columns = new OneColumn[columns.length];
            for (int i = 0; i < columns.length; i++) {
                this.columns[i] = new OneColumn(columns[i]);
            }
            this.levels = new Level[columns.length - 1];
            for (int i = 0; i < levels.length; i++) {
                levels[i] = new Level();
            }
        }

        @Override
        void number(VectorSchemaRoot batch, int rows, int[] groupOfRow) {
            if (columnGroups.length < rows) {
                columnGroups = new int[rows];
            }
            columns[0].number(batch, rows, groupOfRow);
            for (int i = 0; i < levels.length; i++) {
                columns[i + 1].number(batch, rows, columnGroups);
                levels[i].number(groupOfRow, columnGroups, rows);
            }
        }

        @Override
        int count() {
            return levels[levels.length - 1].size;
        }

        @Override
        void keyValues(int group, Object[] row) {
            Object[] one = new Object[1];
            for (int i = levels.length - 1; i >= 0; i--) {
                columns[i + 1].keyValues(levels[i].columnGroup[group], one);
                row[i + 1] = one[0];
                group = levels[i].previous[group];
            }
            columns[0].keyValues(group, one);
            row[0] = one[0];
        }

        /** One step of the pairing: its groups, and the pair each one stands for. */
        private static final class Level {
            private final LongGroupTable byPair = new LongGroupTable();
            private int[] previous = new int[16];
            private int[] columnGroup = new int[16];
            private int size;

            /** Replaces each row's group of the columns so far by its group of those and one more. */
            void number(int[] groupOfRow, int[] columnGroups, int rows) {
                for (int row = 0; row < rows; row++) {
                    long pair = (long) groupOfRow[row] << 32 | columnGroups[row];
                    int group = byPair.get(pair);
                    if (group < 0) {
                        group = size++;
                        if (group == previous.length) {
                            previous = Arrays.copyOf(previous, group * 2);
                            columnGroup = Arrays.copyOf(columnGroup, group * 2);
                        }
                        previous[group] = groupOfRow[row];
                        columnGroup[group] = columnGroups[row];
                        byPair.put(pair, group);
                    }
                    groupOfRow[row] = group;
                }
            }
        }
    }

    /** Whether the vector holds integers whose Calcite value is determined by the primitive value. */
    static boolean integers(FieldVector vector) {
        return vector instanceof IntVector || vector instanceof BigIntVector || vector instanceof SmallIntVector
                || vector instanceof TinyIntVector || vector instanceof DateDayVector;
    }
}
