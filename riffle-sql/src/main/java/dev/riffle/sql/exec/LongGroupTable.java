package dev.riffle.sql.exec;

/**
 * Group numbers by a {@code long} key: open addressing, linear probing, at most half full. Each
 * slot keeps the key and its group number plus one side by side in one array (0: free), so a probe
 * of a table too big for the cache misses once, not once for the key and again for the group.
 */
final class LongGroupTable {
    /** Slot {@code i}: the key at {@code 2i}, the group number plus one at {@code 2i + 1} (0 when free). */
    private long[] slots = new long[128];
    private int size;

    /** The group of {@code key}, or -1. */
    int get(long key) {
        int mask = (slots.length >> 1) - 1;
        for (int slot = slot(key, mask); ; slot = (slot + 1) & mask) {
            long group = slots[2 * slot + 1];
            if (group == 0 || slots[2 * slot] == key) {
                return (int) group - 1;
            }
        }
    }

    void put(long key, int group) {
        if (2 * (size + 1) > slots.length >> 1) {
            grow();
        }
        insert(key, group + 1L);
        size++;
    }

    private void insert(long key, long groupPlusOne) {
        int mask = (slots.length >> 1) - 1;
        int slot = slot(key, mask);
        while (slots[2 * slot + 1] != 0) {
            slot = (slot + 1) & mask;
        }
        slots[2 * slot] = key;
        slots[2 * slot + 1] = groupPlusOne;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        for (int i = 0; i < old.length; i += 2) {
            if (old[i + 1] != 0) {
                insert(old[i], old[i + 1]);
            }
        }
    }

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
