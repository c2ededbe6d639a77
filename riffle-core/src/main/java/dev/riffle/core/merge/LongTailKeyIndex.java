package dev.riffle.core.merge;

import java.util.function.LongConsumer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A {@link TailKeyIndex} for one key column of 1, 2, 4 or 8 bytes (integers, dates, times,
 * timestamps): the key's bits as a {@code long}, kept in the slot itself beside its position (one
 * array, key and position side by side), so a probe usually touches one cache line and no object.
 */
final class LongTailKeyIndex extends TailKeyIndex {
    private static final long EMPTY = 0;
    private final int width;
    /**
     * Slot {@code s} holds its key at {@code 2s} and its record at {@code 2s + 1}: the position
     * plus one (with {@link #REMOVES} set for a record that removes its key), so that a new
     * table, all zeros, is empty without being filled.
     */
    private long[] slots;
    private int mask;
    private int size;
    private long[] batchKeys = new long[0];

    LongTailKeyIndex(int[] keyColumns, int width, long expectedKeys) {
        super(keyColumns);
        this.width = width;
        allocate(capacityFor(expectedKeys));
    }

    @Override
    void put(VectorSchemaRoot batch, long firstPosition, boolean[] removes, LongConsumer superseded) {
        int rows = batch.getRowCount();
        long[] values = read(batch);
        for (int row = 0; row < rows; row++) {
            long key = values[row];
            if (removes[row] && row + 1 < rows && values[row + 1] == key) {
                // An update's -U and +U sit side by side: the -U is superseded before it is held.
                superseded.accept(firstPosition + row);
                continue;
            }
            if (size * 2 > mask) {
                grow();
            }
            int slot = mix(key) & mask;
            while (slots[2 * slot + 1] != EMPTY && slots[2 * slot] != key) {
                slot = (slot + 1) & mask;
            }
            if (slots[2 * slot + 1] == EMPTY) {
                slots[2 * slot] = key;
                size++;
            } else {
                superseded.accept((slots[2 * slot + 1] & ~REMOVES) - 1);
            }
            slots[2 * slot + 1] = removes[row] ? (firstPosition + row + 1) | REMOVES : firstPosition + row + 1;
        }
    }

    @Override
    int absent(VectorSchemaRoot batch, int[] kept) {
        int rows = batch.getRowCount();
        long[] values = read(batch);
        int count = 0;
        for (int row = 0; row < rows; row++) {
            if (find(values[row]) < 0) {
                kept[count++] = row;
            }
        }
        return count;
    }

    @Override
    int newest(VectorSchemaRoot batch, long firstPosition, int[] kept) {
        int rows = batch.getRowCount();
        long[] values = read(batch);
        int count = 0;
        for (int row = 0; row < rows; row++) {
            int slot = find(values[row]);
            if (slot >= 0 && slots[2 * slot + 1] == firstPosition + row + 1) {
                kept[count++] = row;
            }
        }
        return count;
    }

    @Override
    int size() {
        return size;
    }

    private int find(long key) {
        int slot = mix(key) & mask;
        while (slots[2 * slot + 1] != EMPTY) {
            if (slots[2 * slot] == key) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    /** The batch's keys, a column at a time. */
    private long[] read(VectorSchemaRoot batch) {
        int rows = batch.getRowCount();
        if (batchKeys.length < rows) {
            batchKeys = new long[Math.max(rows, 1024)];
        }
        ArrowBuf data = batch.getVector(keyColumns[0]).getDataBuffer();
        long[] out = batchKeys;
        switch (width) {
            case 1 -> {
                for (int row = 0; row < rows; row++) {
                    out[row] = data.getByte(row);
                }
            }
            case 2 -> {
                for (int row = 0; row < rows; row++) {
                    out[row] = data.getShort((long) row * 2);
                }
            }
            case 4 -> {
                for (int row = 0; row < rows; row++) {
                    out[row] = data.getInt((long) row * 4);
                }
            }
            default -> {
                for (int row = 0; row < rows; row++) {
                    out[row] = data.getLong((long) row * 8);
                }
            }
        }
        return out;
    }

    private void grow() {
        long[] old = slots;
        allocate(capacityFor((long) size * 2));
        for (int from = 0; from < old.length; from += 2) {
            if (old[from + 1] != EMPTY) {
                int to = mix(old[from]) & mask;
                while (slots[2 * to + 1] != EMPTY) {
                    to = (to + 1) & mask;
                }
                slots[2 * to] = old[from];
                slots[2 * to + 1] = old[from + 1];
            }
        }
    }

    private void allocate(int capacity) {
        slots = new long[2 * capacity];
        mask = capacity - 1;
    }
}
