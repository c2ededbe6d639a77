package dev.riffle.sql.exec;

import java.util.Arrays;
import org.apache.arrow.vector.VarCharVector;

/**
 * Group numbers by a string key's UTF-8 bytes, read from the vector's buffers without making a
 * {@code String} per row: open addressing, linear probing, at most half full; each group's bytes
 * are kept once, in one array. Group numbers are the caller's (they need not be dense). Byte
 * equality is Calcite's {@code String} equality for valid UTF-8, which Arrow's {@code Utf8} type
 * requires and Fluss writes; malformed bytes, which Java decodes to U+FFFD, would group apart where
 * their decoded strings are equal.
 */
final class BytesGroupTable {
    /** Group number per slot, -1 when free. */
    private int[] slots = new int[64];
    /** Per group: the hash, and where its bytes are in {@link #bytes}. */
    private int[] hashes = new int[16];
    private int[] starts = new int[16];
    private int[] lengths = new int[16];
    private byte[] bytes = new byte[1024];
    private int used;
    private int size;
    /** The row being looked up, copied out of the vector once. */
    private byte[] row = new byte[64];
    private int rowLength;
    private int rowHash;

    BytesGroupTable() {
        Arrays.fill(slots, -1);
    }

    /**
     * The group of the non-null {@code index} of {@code vector}, or -1; it stays the table's
     * current row for a following {@link #put}.
     */
    int get(VarCharVector vector, int index) {
        long start = vector.getStartOffset(index);
        rowLength = (int) (vector.getEndOffset(index) - start);
        if (row.length < rowLength) {
            row = new byte[Math.max(rowLength, row.length * 2)];
        }
        vector.getDataBuffer().getBytes(start, row, 0, rowLength);
        return find();
    }

    /** The group of {@code utf8}, or -1; it stays the table's current row for a following {@link #put}. */
    int get(byte[] utf8) {
        row = utf8.length <= row.length ? row : new byte[Math.max(utf8.length, row.length * 2)];
        System.arraycopy(utf8, 0, row, 0, utf8.length);
        rowLength = utf8.length;
        return find();
    }

    private int find() {
        rowHash = hash(row, rowLength);
        int mask = slots.length - 1;
        for (int slot = rowHash & mask; ; slot = (slot + 1) & mask) {
            int group = slots[slot];
            if (group < 0) {
                return -1;
            }
            if (hashes[group] == rowHash && Arrays.equals(bytes, starts[group], starts[group] + lengths[group], row, 0,
                    rowLength)) {
                return group;
            }
        }
    }

    /** Adds the current row (the last {@link #get}, which found none) as group {@code group}. */
    void put(int group) {
        if (group >= hashes.length) {
            int capacity = Math.max(group + 1, hashes.length * 2);
            hashes = Arrays.copyOf(hashes, capacity);
            starts = Arrays.copyOf(starts, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
        }
        if (bytes.length - used < rowLength) {
            bytes = Arrays.copyOf(bytes, Math.max(used + rowLength, bytes.length * 2));
        }
        System.arraycopy(row, 0, bytes, used, rowLength);
        hashes[group] = rowHash;
        starts[group] = used;
        lengths[group] = rowLength;
        used += rowLength;
        if (2 * (size + 1) > slots.length) {
            // From the old slots, not 0..size: the caller's group numbers have gaps (its null group).
            int[] old = slots;
            slots = new int[old.length * 2];
            Arrays.fill(slots, -1);
            for (int existing : old) {
                if (existing >= 0) {
                    insert(existing);
                }
            }
        }
        insert(group);
        size++;
    }

    private void insert(int group) {
        int mask = slots.length - 1;
        int slot = hashes[group] & mask;
        while (slots[slot] >= 0) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = group;
    }

    private static int hash(byte[] value, int length) {
        int h = 0;
        for (int i = 0; i < length; i++) {
            h = 31 * h + value[i];
        }
        // Spread the bits: the table's slot is the low bits.
        h *= 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
