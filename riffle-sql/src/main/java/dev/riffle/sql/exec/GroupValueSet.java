package dev.riffle.sql.exec;

import java.util.Arrays;

/**
 * The distinct {@code (group, value)} pairs a {@code COUNT(DISTINCT x)} of an integer column has
 * seen, for all groups in one table: open addressing, linear probing, at most half full. One
 * table rather than one set per group, so that many small groups cost no object each.
 */
final class GroupValueSet {
    private int[] groups = new int[64];
    private long[] values = new long[64];
    private int size;

    GroupValueSet() {
        Arrays.fill(groups, -1);
    }

    /** Adds the pair; whether it was new. {@code group} is at least 0. */
    boolean add(int group, long value) {
        if (2 * (size + 1) > groups.length) {
            grow();
        }
        int mask = groups.length - 1;
        for (int slot = slot(group, value, mask); ; slot = (slot + 1) & mask) {
            int present = groups[slot];
            if (present < 0) {
                groups[slot] = group;
                values[slot] = value;
                size++;
                return true;
            }
            if (present == group && values[slot] == value) {
                return false;
            }
        }
    }

    /** Takes each pair of the set, in no particular order. */
    void forEach(Pair pair) {
        for (int slot = 0; slot < groups.length; slot++) {
            if (groups[slot] >= 0) {
                pair.accept(groups[slot], values[slot]);
            }
        }
    }

    /** One {@code (group, value)} pair of the set. */
    @FunctionalInterface
    interface Pair {
        void accept(int group, long value);
    }

    private void grow() {
        int[] oldGroups = groups;
        long[] oldValues = values;
        groups = new int[oldGroups.length * 2];
        values = new long[oldGroups.length * 2];
        Arrays.fill(groups, -1);
        int mask = groups.length - 1;
        for (int i = 0; i < oldGroups.length; i++) {
            if (oldGroups[i] >= 0) {
                int slot = slot(oldGroups[i], oldValues[i], mask);
                while (groups[slot] >= 0) {
                    slot = (slot + 1) & mask;
                }
                groups[slot] = oldGroups[i];
                values[slot] = oldValues[i];
            }
        }
    }

    private static int slot(int group, long value, int mask) {
        long h = (value + group * 0xC2B2AE3D27D4EB4FL) * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
