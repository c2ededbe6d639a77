package dev.riffle.sql.exec;

import java.util.Arrays;

/** Group numbers by a {@code long} key: open addressing, linear probing, at most half full. */
final class LongGroupTable {
    private long[] keys = new long[64];
    private int[] groups = new int[64];
    private int size;

    LongGroupTable() {
        Arrays.fill(groups, -1);
    }

    /** The group of {@code key}, or -1. */
    int get(long key) {
        int mask = keys.length - 1;
        for (int slot = slot(key, mask); ; slot = (slot + 1) & mask) {
            int group = groups[slot];
            if (group < 0 || keys[slot] == key) {
                return group;
            }
        }
    }

    void put(long key, int group) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        insert(key, group);
        size++;
    }

    private void insert(long key, int group) {
        int mask = keys.length - 1;
        int slot = slot(key, mask);
        while (groups[slot] >= 0) {
            slot = (slot + 1) & mask;
        }
        keys[slot] = key;
        groups[slot] = group;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldGroups = groups;
        keys = new long[oldKeys.length * 2];
        groups = new int[oldKeys.length * 2];
        Arrays.fill(groups, -1);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldGroups[i] >= 0) {
                insert(oldKeys[i], oldGroups[i]);
            }
        }
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
