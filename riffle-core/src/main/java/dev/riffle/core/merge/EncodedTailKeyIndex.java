package dev.riffle.core.merge;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * A {@link TailKeyIndex} for any other key (text, bytes, decimals, several columns): each key's
 * bytes, column after column, appended to one byte arena, with entries as offsets into it. A
 * fixed-width column contributes its value's bytes, a variable-width one its length and bytes, so
 * two keys are equal exactly when their encodings are.
 */
final class EncodedTailKeyIndex extends TailKeyIndex {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Kind[] kinds;
    private byte[] arena = new byte[1 << 16];
    private int used;
    private int[] starts = new int[1024];
    private int[] hashes = new int[1024];
    private long[] positions = new long[1024];
    private int size;
    private int[] slots;
    private int mask;

    /** How a key column's value is written into an encoding. */
    private enum Kind { FIXED, BIT, VARIABLE, OTHER }

    EncodedTailKeyIndex(int[] keyColumns, List<FieldVector> sample, long expectedKeys) {
        super(keyColumns);
        kinds = new Kind[keyColumns.length];
        for (int i = 0; i < keyColumns.length; i++) {
            FieldVector vector = sample.get(keyColumns[i]);
            kinds[i] = vector instanceof BitVector ? Kind.BIT
                    : vector instanceof BaseFixedWidthVector ? Kind.FIXED
                    : vector instanceof BaseVariableWidthVector ? Kind.VARIABLE
                    : Kind.OTHER;
        }
        slots = new int[capacityFor(expectedKeys)];
        mask = slots.length - 1;
    }

    @Override
    void put(VectorSchemaRoot batch, long firstPosition, boolean[] removes, LongConsumer superseded) {
        int rows = batch.getRowCount();
        FieldVector[] columns = columns(batch);
        for (int row = 0; row < rows; row++) {
            int start = used;
            int length = encode(columns, row);
            int hash = hash(start, length);
            int slot = find(start, length, hash);
            long position = removes[row] ? (firstPosition + row) | REMOVES : firstPosition + row;
            if (slot >= 0) {
                superseded.accept(positions[slots[slot] - 1] & ~REMOVES);
                positions[slots[slot] - 1] = position;
                used = start;
            } else {
                add(start, hash, position);
            }
        }
    }

    @Override
    int absent(VectorSchemaRoot batch, int[] kept) {
        int rows = batch.getRowCount();
        FieldVector[] columns = columns(batch);
        int count = 0;
        int start = used;
        for (int row = 0; row < rows; row++) {
            int length = encode(columns, row);
            if (find(start, length, hash(start, length)) < 0) {
                kept[count++] = row;
            }
            used = start;
        }
        return count;
    }

    @Override
    int newest(VectorSchemaRoot batch, long firstPosition, int[] kept) {
        int rows = batch.getRowCount();
        FieldVector[] columns = columns(batch);
        int count = 0;
        int start = used;
        for (int row = 0; row < rows; row++) {
            int length = encode(columns, row);
            int slot = find(start, length, hash(start, length));
            if (slot >= 0 && positions[slots[slot] - 1] == firstPosition + row) {
                kept[count++] = row;
            }
            used = start;
        }
        return count;
    }

    @Override
    int size() {
        return size;
    }

    private FieldVector[] columns(VectorSchemaRoot batch) {
        FieldVector[] columns = new FieldVector[keyColumns.length];
        for (int i = 0; i < keyColumns.length; i++) {
            columns[i] = batch.getVector(keyColumns[i]);
        }
        return columns;
    }

    /** Appends row {@code row}'s key at {@code used}; returns its length (and moves {@code used} past it). */
    private int encode(FieldVector[] columns, int row) {
        int start = used;
        for (int i = 0; i < columns.length; i++) {
            FieldVector column = columns[i];
            switch (kinds[i]) {
                case FIXED -> {
                    int width = ((BaseFixedWidthVector) column).getTypeWidth();
                    reserve(width);
                    column.getDataBuffer().getBytes((long) row * width, arena, used, width);
                    used += width;
                }
                case BIT -> {
                    reserve(1);
                    arena[used++] = (byte) ((BitVector) column).get(row);
                }
                case VARIABLE -> {
                    ArrowBuf offsets = column.getOffsetBuffer();
                    int from = offsets.getInt((long) row * BaseVariableWidthVector.OFFSET_WIDTH);
                    int length = offsets.getInt((long) (row + 1) * BaseVariableWidthVector.OFFSET_WIDTH) - from;
                    appendLength(length);
                    reserve(length);
                    column.getDataBuffer().getBytes(from, arena, used, length);
                    used += length;
                }
                case OTHER -> {
                    byte[] text = String.valueOf(column.getObject(row)).getBytes(StandardCharsets.UTF_8);
                    appendLength(text.length);
                    reserve(text.length);
                    System.arraycopy(text, 0, arena, used, text.length);
                    used += text.length;
                }
            }
        }
        return used - start;
    }

    private void appendLength(int length) {
        reserve(4);
        arena[used++] = (byte) length;
        arena[used++] = (byte) (length >>> 8);
        arena[used++] = (byte) (length >>> 16);
        arena[used++] = (byte) (length >>> 24);
    }

    private void reserve(int bytes) {
        if (used + bytes > arena.length) {
            long wanted = Math.max((long) arena.length * 2, (long) used + bytes);
            if (wanted > Integer.MAX_VALUE - 16) {
                throw new IllegalStateException("A merge's log tail has more key bytes than one index can hold");
            }
            arena = Arrays.copyOf(arena, (int) wanted);
        }
    }

    private int hash(int start, int length) {
        long h = length;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            h = (h ^ (long) LONGS.get(arena, start + i)) * 0x100000001B3L;
            h = Long.rotateLeft(h, 27);
        }
        for (; i < length; i++) {
            h = (h ^ arena[start + i]) * 0x100000001B3L;
        }
        return mix(h);
    }

    /** The slot holding the key at {@code arena[start, start + length)}, or -1. */
    private int find(int start, int length, int hash) {
        int slot = hash & mask;
        while (slots[slot] != 0) {
            int entry = slots[slot] - 1;
            if (hashes[entry] == hash) {
                int from = starts[entry];
                int to = entry + 1 < size ? starts[entry + 1] : start;
                if (to - from == length && Arrays.equals(arena, from, to, arena, start, start + length)) {
                    return slot;
                }
            }
            slot = (slot + 1) & mask;
        }
        return -1;
    }

    /** Keeps the key just encoded at {@code start} (the arena's end) as a new entry. */
    private void add(int start, int hash, long position) {
        if (size == starts.length) {
            starts = Arrays.copyOf(starts, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
            positions = Arrays.copyOf(positions, size * 2);
        }
        starts[size] = start;
        hashes[size] = hash;
        positions[size] = position;
        size++;
        if (size * 2 > mask) {
            slots = new int[capacityFor((long) size * 2)];
            mask = slots.length - 1;
            for (int entry = 0; entry < size; entry++) {
                int slot = hashes[entry] & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = entry + 1;
            }
        } else {
            int slot = hash & mask;
            while (slots[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            slots[slot] = size;
        }
    }
}
