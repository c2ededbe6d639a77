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

    /** Empty numbers of the same key columns that find groups the way these decided to (see {@link #absorb}). */
    abstract GroupNumbers sibling();

    /**
     * Gives each group of {@code other} (a {@link #sibling}'s) its group here, adding the keys
     * these do not have; the answer's element {@code g} is the group of {@code other}'s group {@code g}.
     */
    int[] absorb(GroupNumbers other) {
        int[] groupMap = new int[other.count()];
        Object[] key = new Object[width()];
        for (int group = 0; group < groupMap.length; group++) {
            other.keyValues(group, key);
            groupMap[group] = groupOfKey(key);
        }
        return groupMap;
    }

    /** How many key columns there are. */
    abstract int width();

    /** The group of the key values {@code key} (Calcite values, one per key column), added when new. */
    abstract int groupOfKey(Object[] key);

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

        @Override
        GroupNumbers sibling() {
            return new OneGroup();
        }

        @Override
        int width() {
            return 0;
        }

        @Override
        int groupOfKey(Object[] key) {
            return 0;
        }
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

        @Override
        GroupNumbers sibling() {
            OneColumn sibling = new OneColumn(column);
            sibling.lookup = lookup;
            return sibling;
        }

        @Override
        int width() {
            return 1;
        }

        @Override
        int groupOfKey(Object[] key) {
            return groupOf(key[0]);
        }

        /** The group of the Calcite value {@code value}, added when new; looked up as this column's rows are. */
        int groupOf(Object value) {
            if (lookup == null) {
                lookup = Lookup.VALUE; // numbers that read no batch: Calcite's equality serves any value
            }
            if (value == null && lookup != Lookup.VALUE) {
                return nullGroup();
            }
            int group;
            switch (lookup) {
                case INTEGER -> {
                    long key = ((Number) value).longValue();
                    group = byInteger.get(key);
                    if (group < 0) {
                        group = keys.size();
                        keys.add(value);
                        byInteger.put(key, group);
                    }
                }
                case UTF8 -> {
                    group = byBytes.get(((String) value).getBytes(StandardCharsets.UTF_8));
                    if (group < 0) {
                        group = keys.size();
                        keys.add(value);
                        byBytes.put(group);
                    }
                }
                default -> {
                    Integer found = byValue.get(value);
                    if (found == null) {
                        found = keys.size();
                        keys.add(value);
                        byValue.put(value, found);
                    }
                    group = found;
                }
            }
            return group;
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
        GroupNumbers sibling() {
            int[] indexes = new int[columns.length];
            for (int i = 0; i < columns.length; i++) {
                indexes[i] = columns[i].column;
            }
            SeveralColumns sibling = new SeveralColumns(indexes);
            for (int i = 0; i < columns.length; i++) {
                sibling.columns[i].lookup = columns[i].lookup;
            }
            return sibling;
        }

        @Override
        int width() {
            return columns.length;
        }

        @Override
        int groupOfKey(Object[] key) {
            int group = columns[0].groupOf(key[0]);
            for (int i = 0; i < levels.length; i++) {
                group = levels[i].groupOf(group, columns[i + 1].groupOf(key[i + 1]));
            }
            return group;
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

        /**
         * One step of the pairing: its groups, and the pair each one stands for. While both sides
         * have few groups (the product at most {@link #DIRECT_LIMIT}), a pair's group is found by
         * indexing an array with the pair; beyond that, in a hash table of pairs.
         */
        private static final class Level {
            private static final int DIRECT_LIMIT = 1 << 16;
            private LongGroupTable byPair;
            /** Group + 1 by {@code left << shift | right}; 0 where no group is. Null once the pairs outgrow it. */
            private int[] direct = new int[64];
            private int shift = 3;
            private int leftLimit = 8;
            private int[] previous = new int[16];
            private int[] columnGroup = new int[16];
            private int size;

            /** Replaces each row's group of the columns so far by its group of those and one more. */
            void number(int[] groupOfRow, int[] columnGroups, int rows) {
                for (int row = 0; row < rows; row++) {
                    groupOfRow[row] = groupOf(groupOfRow[row], columnGroups[row]);
                }
            }

            /** The group of the pair, added when new. */
            int groupOf(int left, int right) {
                if (direct != null && (left >= leftLimit || right >= 1 << shift)) {
                    widen(left, right);
                }
                int group;
                if (direct != null) {
                    int slot = left << shift | right;
                    group = direct[slot] - 1;
                    if (group < 0) {
                        group = add(left, right);
                        direct[slot] = group + 1;
                    }
                } else {
                    long pair = (long) left << 32 | right;
                    group = byPair.get(pair);
                    if (group < 0) {
                        group = add(left, right);
                        byPair.put(pair, group);
                    }
                }
                return group;
            }

            private int add(int left, int right) {
                int group = size++;
                if (group == previous.length) {
                    previous = Arrays.copyOf(previous, group * 2);
                    columnGroup = Arrays.copyOf(columnGroup, group * 2);
                }
                previous[group] = left;
                columnGroup[group] = right;
                return group;
            }

            /** Makes the direct array hold {@code (left, right)}, or moves every pair to the hash table. */
            private void widen(int left, int right) {
                int newShift = shift;
                while (right >= 1 << newShift) {
                    newShift++;
                }
                int newLeftLimit = leftLimit;
                while (left >= newLeftLimit) {
                    newLeftLimit *= 2;
                }
                if ((long) newLeftLimit << newShift > DIRECT_LIMIT) {
                    byPair = new LongGroupTable();
                    for (int group = 0; group < size; group++) {
                        byPair.put((long) previous[group] << 32 | columnGroup[group], group);
                    }
                    direct = null;
                    return;
                }
                int[] widened = new int[newLeftLimit << newShift];
                for (int group = 0; group < size; group++) {
                    widened[previous[group] << newShift | columnGroup[group]] = group + 1;
                }
                direct = widened;
                shift = newShift;
                leftLimit = newLeftLimit;
            }
        }
    }

    /** Whether the vector holds integers whose Calcite value is determined by the primitive value. */
    static boolean integers(FieldVector vector) {
        return vector instanceof IntVector || vector instanceof BigIntVector || vector instanceof SmallIntVector
                || vector instanceof TinyIntVector || vector instanceof DateDayVector;
    }
}
