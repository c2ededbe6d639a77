package dev.riffle.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * {@code k, count(*), sum(v) GROUP BY k} straight over Arrow batches, with an open-addressing
 * table of primitive keys and no per-row objects: what a vectorized aggregate operator in
 * riffle-sql could reach over the same scan. Shown in {@link GroupByPhase} as the headroom, not as
 * a baseline. A NULL {@code v} adds nothing to the sum; {@code count(*)} counts every row.
 */
final class ColumnarGroupBy {
    private int[] keys = new int[1 << 14];
    private long[] counts = new long[keys.length];
    private long[] sums = new long[keys.length];
    private boolean[] used = new boolean[keys.length];
    private int size;
    private long nullKeyCount;
    private long nullKeySum;

    void add(VectorSchemaRoot batch) {
        IntVector k = (IntVector) batch.getVector(0);
        BigIntVector v = (BigIntVector) batch.getVector(1);
        boolean noNulls = k.getNullCount() == 0 && v.getNullCount() == 0;
        int rows = batch.getRowCount();
        for (int i = 0; i < rows; i++) {
            long value = noNulls || !v.isNull(i) ? v.get(i) : 0;
            if (!noNulls && k.isNull(i)) {
                nullKeyCount++;
                nullKeySum += value;
                continue;
            }
            int slot = slot(k.get(i));
            counts[slot]++;
            sums[slot] += value;
        }
    }

    private int slot(int key) {
        int mask = keys.length - 1;
        int slot = (key * 0x9E3779B9) >>> 7 & mask;
        while (used[slot]) {
            if (keys[slot] == key) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        if (size * 2 >= keys.length) {
            grow();
            return slot(key);
        }
        used[slot] = true;
        keys[slot] = key;
        size++;
        return slot;
    }

    private void grow() {
        int[] oldKeys = keys;
        long[] oldCounts = counts;
        long[] oldSums = sums;
        boolean[] oldUsed = used;
        keys = new int[oldKeys.length * 2];
        counts = new long[keys.length];
        sums = new long[keys.length];
        used = new boolean[keys.length];
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldUsed[i]) {
                int slot = slot(oldKeys[i]);
                counts[slot] = oldCounts[i];
                sums[slot] = oldSums[i];
            }
        }
    }

    /** The groups in {@link GroupByPhase.Groups}' shape (a NULL key is left out: the table has none). */
    GroupByPhase.Groups groups() {
        Map<Integer, List<Long>> groups = new HashMap<>();
        for (int i = 0; i < keys.length; i++) {
            if (used[i]) {
                groups.put(keys[i], List.of(counts[i], sums[i]));
            }
        }
        if (nullKeyCount > 0) {
            throw new IllegalStateException("The generator writes no NULL k, yet " + nullKeyCount + " rows have one"
                    + " (sum " + nullKeySum + ")");
        }
        return new GroupByPhase.Groups(groups);
    }
}
