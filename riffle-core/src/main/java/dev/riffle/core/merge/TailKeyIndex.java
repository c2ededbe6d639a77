package dev.riffle.core.merge;

import java.util.List;
import java.util.function.LongConsumer;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The keys of a merge's log tail, each with where its newest record is and whether that record
 * removes the key: an open-addressing hash table over keys read straight off Arrow vectors, so a
 * merge costs no object per row. One key column of up to eight bytes is held as a {@code long}
 * ({@link LongTailKeyIndex}); any other key as its bytes ({@link EncodedTailKeyIndex}).
 *
 * <pre>{@code
 * TailKeyIndex index = TailKeyIndex.forKeys(tailBatch, keyColumns, tailRows);
 * index.put(tailBatch, TailPositions.of(bucketId, baseOffset), removes, replaced -> { });
 * int kept = index.absent(baseBatch, rows);   // base rows the tail did not touch
 * }</pre>
 *
 * <p>A position packs the record's bucket (a dense id the caller gives each bucket) and its log
 * offset ({@link TailPositions}); the rows of one tail batch sit at consecutive positions. Keys
 * are compared by their Arrow bytes, so the tail and the rows merged under it must carry the key
 * columns in the same Arrow types (the merge copies rows between them, which needs that too).
 */
abstract sealed class TailKeyIndex permits LongTailKeyIndex, EncodedTailKeyIndex {
    /** Set in a position when the record removes its key. */
    static final long REMOVES = Long.MIN_VALUE;

    final int[] keyColumns;

    TailKeyIndex(int[] keyColumns) {
        this.keyColumns = keyColumns.clone();
    }

    /**
     * The index for keys at {@code keyColumns} of batches shaped like {@code sample}, sized for
     * {@code expectedKeys} (it grows past that; a guess too high costs memory, so callers cap it).
     */
    static TailKeyIndex forKeys(VectorSchemaRoot sample, int[] keyColumns, long expectedKeys) {
        if (keyColumns.length == 1) {
            FieldVector key = sample.getVector(keyColumns[0]);
            if (key instanceof BaseFixedWidthVector fixed && !(key instanceof BitVector) && fixed.getTypeWidth() <= 8
                    && Integer.bitCount(fixed.getTypeWidth()) == 1) {
                return new LongTailKeyIndex(keyColumns, fixed.getTypeWidth(), expectedKeys);
            }
        }
        return new EncodedTailKeyIndex(keyColumns, List.copyOf(sample.getFieldVectors()), expectedKeys);
    }

    /**
     * Records every row of {@code batch} as its key's newest record, row {@code r} at position
     * {@code firstPosition + r}; a row whose entry in {@code removes} is set removes its key.
     * {@code superseded} is told the position of every record a row replaces as its key's newest.
     */
    abstract void put(VectorSchemaRoot batch, long firstPosition, boolean[] removes, LongConsumer superseded);

    /** Writes the rows of {@code batch} whose key has no record in the tail into {@code kept}; returns how many. */
    abstract int absent(VectorSchemaRoot batch, int[] kept);

    /**
     * Writes the rows of the tail batch {@code batch} (row {@code r} at {@code firstPosition + r})
     * that are their key's newest record and do not remove it into {@code kept}; returns how many.
     */
    abstract int newest(VectorSchemaRoot batch, long firstPosition, int[] kept);

    /** How many keys the tail holds. */
    abstract int size();

    final boolean isEmpty() {
        return size() == 0;
    }

    /** A table of at least twice {@code entries} slots, a power of two. */
    static int capacityFor(long entries) {
        long wanted = Math.max(16, Long.highestOneBit(Math.max(1, entries) * 2 - 1) << 1);
        if (wanted > 1 << 29) {
            throw new IllegalStateException("A merge's log tail holds more keys than one index can (" + entries + ")");
        }
        return (int) wanted;
    }

    static int mix(long value) {
        long h = value * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) (h ^ (h >>> 32));
    }
}
