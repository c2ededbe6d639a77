package dev.riffle.sql.exec;

import dev.riffle.core.types.ArrowColumnMemory;
import java.util.Arrays;
import org.apache.fluss.memory.MemorySegment;

/**
 * Group numbers by a string key's UTF-8 bytes, read from the column's memory without making a
 * {@code String} per row: open addressing, linear probing, at most half full. A slot holds the
 * key's hash beside its group number, so a probe touches one array until the hashes match; each
 * group's bytes are kept once, in one arena. Group numbers are the caller's (they need not be
 * dense). Byte equality is Calcite's {@code String} equality for valid UTF-8, which Arrow's
 * {@code Utf8} type requires and Fluss writes; malformed bytes, which Java decodes to U+FFFD, would
 * group apart where their decoded strings are equal.
 */
final class BytesGroupTable {
    /** Per slot: the hash in the high half, the group number plus one in the low half; 0 when free. */
    private long[] slots = new long[64];
    /** Per group: where its bytes are in {@link #bytes}. */
    private int[] starts = new int[16];
    private int[] lengths = new int[16];
    private byte[] bytes = new byte[1024];
    private MemorySegment arena = MemorySegment.wrap(bytes);
    private int used;
    private int size;
    /** The row looked up last: where its bytes are, its hash, for a following {@link #put}. */
    private MemorySegment rowSegment;
    private int rowStart;
    private int rowLength;
    private int rowHash;

    /**
     * The group of the non-null {@code row} of a string column, or -1; it stays the table's current
     * row for a following {@link #put} (while the batch is open).
     */
    int get(ArrowColumnMemory column, int row) {
        int start = column.start(row);
        return find(column.data(), start, column.end(row) - start);
    }

    /** The group of {@code utf8}, or -1; it stays the table's current row for a following {@link #put}. */
    int get(byte[] utf8) {
        return find(MemorySegment.wrap(utf8), 0, utf8.length);
    }

    private int find(MemorySegment segment, int start, int length) {
        rowSegment = segment;
        rowStart = start;
        rowLength = length;
        rowHash = hash(segment, start, length);
        int mask = slots.length - 1;
        for (int slot = rowHash & mask; ; slot = (slot + 1) & mask) {
            long entry = slots[slot];
            if (entry == 0) {
                return -1;
            }
            if ((int) (entry >>> 32) == rowHash) {
                int group = (int) entry - 1;
                if (lengths[group] == length && arena.equalTo(segment, starts[group], start, length)) {
                    return group;
                }
            }
        }
    }

    /** Adds the current row (the last {@code get}, which found none) as group {@code group}. */
    void put(int group) {
        if (group >= starts.length) {
            int capacity = Math.max(group + 1, starts.length * 2);
            starts = Arrays.copyOf(starts, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
        }
        if (bytes.length - used < rowLength) {
            bytes = Arrays.copyOf(bytes, Math.max(used + rowLength, bytes.length * 2));
            arena = MemorySegment.wrap(bytes);
        }
        rowSegment.get(rowStart, bytes, used, rowLength);
        starts[group] = used;
        lengths[group] = rowLength;
        used += rowLength;
        if (2 * (size + 1) > slots.length) {
            long[] old = slots;
            slots = new long[old.length * 2];
            for (long entry : old) {
                if (entry != 0) {
                    insert(entry);
                }
            }
        }
        insert(((long) rowHash << 32) | (group + 1L));
        size++;
    }

    private void insert(long entry) {
        int mask = slots.length - 1;
        int slot = (int) (entry >>> 32) & mask;
        while (slots[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        slots[slot] = entry;
    }

    /** Eight bytes at a time; the length goes in first, so keys that differ by trailing zero bytes part. */
    private static int hash(MemorySegment segment, int start, int length) {
        long h = 0x9E3779B97F4A7C15L ^ length;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            h = (h ^ segment.getLong(start + i)) * 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        long tail = 0;
        for (; i < length; i++) {
            tail = (tail << 8) | (segment.get(start + i) & 0xFF);
        }
        h = (h ^ tail) * 0x94D049BB133111EBL;
        return (int) (h ^ (h >>> 32));
    }
}
