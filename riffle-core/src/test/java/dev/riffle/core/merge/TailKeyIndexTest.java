package dev.riffle.core.merge;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/** The tail's key index against a map of boxed keys (the merge's former index), over key shapes and random changes. */
class TailKeyIndexTest {
    private static final int ROWS = 700;

    @Test
    void oneIntKeyIsHeldAsALong() {
        check(new int[] {0}, List.of(ints("id", k -> k * 7919 - 1_000_000)), LongTailKeyIndex.class);
    }

    @Test
    void oneBigintAndOneSmallintKeyAreHeldAsLongs() {
        check(new int[] {0}, List.of(longs("id", k -> (long) k << 33 | k)), LongTailKeyIndex.class);
        check(new int[] {0}, List.of(shorts("id", k -> (short) (k - 300))), LongTailKeyIndex.class);
    }

    @Test
    void textKeysOfAnyLengthIncludingEmptyAreEncoded() {
        check(new int[] {0}, List.of(texts("name", k -> k == 0 ? "" : "user-" + "x".repeat(k % 23) + k)),
                EncodedTailKeyIndex.class);
    }

    @Test
    void severalColumnsAreOneKeyAndDoNotRunIntoEachOther() {
        // ("a", "bc") and ("ab", "c") must stay two keys: each text is written with its length.
        check(new int[] {0, 2}, List.of(
                texts("left", k -> "ab".substring(0, k % 3)),
                ints("value", k -> -k),
                texts("right", k -> "bc".substring(k % 3 == 0 ? 0 : k % 3 - 1) + (k / 3))),
                EncodedTailKeyIndex.class);
    }

    @Test
    void decimalAndBinaryKeysAreEncoded() {
        check(new int[] {0}, List.of(decimals("amount", k -> BigDecimal.valueOf(k - 250, 2))),
                EncodedTailKeyIndex.class);
        check(new int[] {0}, List.of(binaries("raw", k -> ("b" + k).getBytes(StandardCharsets.UTF_8))),
                EncodedTailKeyIndex.class);
    }

    /**
     * Random batches of changes over 500 keys (some rows remove their key), then base rows over
     * 1,000 keys: {@code absent}, {@code newest} and the records reported superseded must be what a
     * map of boxed keys says.
     */
    private static void check(int[] keyColumns, List<Column> columns, Class<?> expectedIndex) {
        Random random = new Random(43);
        try (BufferAllocator allocator = new RootAllocator()) {
            TailKeyIndex index = null;
            Map<List<Object>, Long> model = new HashMap<>();
            List<VectorSchemaRoot> tail = new ArrayList<>();
            List<Long> firsts = new ArrayList<>();
            List<Long> superseded = new ArrayList<>();
            List<Long> expectedSuperseded = new ArrayList<>();
            long offset = 0;
            try {
                for (int batch = 0; batch < 6; batch++) {
                    int[] keys = random.ints(ROWS, 0, 500).toArray();
                    VectorSchemaRoot root = root(allocator, columns, keys);
                    boolean[] removes = new boolean[ROWS];
                    long first = TailPositions.of(batch % 2, offset);
                    for (int row = 0; row < ROWS; row++) {
                        removes[row] = random.nextInt(5) == 0;
                        long position = first + row;
                        Long replaced = model.put(key(root, keyColumns, row),
                                removes[row] ? position | TailKeyIndex.REMOVES : position);
                        if (replaced != null) {
                            expectedSuperseded.add(replaced & ~TailKeyIndex.REMOVES);
                        }
                    }
                    if (index == null) {
                        // Sized for fewer keys than come: the index must grow as it goes.
                        index = TailKeyIndex.forKeys(root, keyColumns, 16);
                    }
                    index.put(root, first, removes, superseded::add);
                    tail.add(root);
                    firsts.add(first);
                    offset += ROWS;
                }
                assertThat(index).isInstanceOf(expectedIndex);
                assertThat(superseded).isEqualTo(expectedSuperseded);
                assertThat(index.size()).isEqualTo(model.size());

                int[] kept = new int[ROWS];
                for (int b = 0; b < tail.size(); b++) {
                    VectorSchemaRoot root = tail.get(b);
                    List<Integer> expected = new ArrayList<>();
                    for (int row = 0; row < ROWS; row++) {
                        if (model.get(key(root, keyColumns, row)) == firsts.get(b) + row) {
                            expected.add(row);
                        }
                    }
                    assertThat(rows(kept, index.newest(root, firsts.get(b), kept))).isEqualTo(expected);
                }

                int[] baseKeys = new int[ROWS];
                for (int i = 0; i < ROWS; i++) {
                    baseKeys[i] = 400 + i;
                }
                try (VectorSchemaRoot base = root(allocator, columns, baseKeys)) {
                    List<Integer> expected = new ArrayList<>();
                    for (int row = 0; row < ROWS; row++) {
                        if (!model.containsKey(key(base, keyColumns, row))) {
                            expected.add(row);
                        }
                    }
                    assertThat(expected).isNotEmpty().hasSizeLessThan(ROWS);
                    assertThat(rows(kept, index.absent(base, kept))).isEqualTo(expected);
                }
            } finally {
                tail.forEach(VectorSchemaRoot::close);
            }
        }
    }

    private static List<Integer> rows(int[] kept, int count) {
        List<Integer> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(kept[i]);
        }
        return rows;
    }

    private static List<Object> key(VectorSchemaRoot root, int[] keyColumns, int row) {
        List<Object> key = new ArrayList<>();
        for (int column : keyColumns) {
            Object value = root.getVector(column).getObject(row);
            key.add(value instanceof byte[] bytes ? new String(bytes, StandardCharsets.ISO_8859_1) : String.valueOf(value));
        }
        return key;
    }

    private static VectorSchemaRoot root(BufferAllocator allocator, List<Column> columns, int[] keys) {
        List<FieldVector> vectors = new ArrayList<>();
        for (Column c : columns) {
            FieldVector vector = c.create(allocator);
            vector.allocateNew();
            for (int row = 0; row < keys.length; row++) {
                c.set(vector, row, keys[row]);
            }
            vector.setValueCount(keys.length);
            vectors.add(vector);
        }
        return new VectorSchemaRoot(vectors);
    }

    /** How to build one column of a test batch from each row's key number. */
    private interface Column {
        FieldVector create(BufferAllocator allocator);

        void set(FieldVector vector, int row, int key);
    }

    private static Column ints(String name, IntFunction<Integer> value) {
        return column(a -> new IntVector(name, a), (v, row, k) -> ((IntVector) v).setSafe(row, value.apply(k)));
    }

    private static Column longs(String name, IntFunction<Long> value) {
        return column(a -> new BigIntVector(name, a), (v, row, k) -> ((BigIntVector) v).setSafe(row, value.apply(k)));
    }

    private static Column shorts(String name, IntFunction<Short> value) {
        return column(a -> new SmallIntVector(name, a), (v, row, k) -> ((SmallIntVector) v).setSafe(row, value.apply(k)));
    }

    private static Column texts(String name, IntFunction<String> value) {
        return column(a -> new VarCharVector(name, a),
                (v, row, k) -> ((VarCharVector) v).setSafe(row, value.apply(k).getBytes(StandardCharsets.UTF_8)));
    }

    private static Column binaries(String name, IntFunction<byte[]> value) {
        return column(a -> new VarBinaryVector(name, a), (v, row, k) -> ((VarBinaryVector) v).setSafe(row, value.apply(k)));
    }

    private static Column decimals(String name, IntFunction<BigDecimal> value) {
        return column(a -> new DecimalVector(name, a, 10, 2),
                (v, row, k) -> ((DecimalVector) v).setSafe(row, value.apply(k)));
    }

    private interface Setter {
        void set(FieldVector vector, int row, int key);
    }

    private static Column column(java.util.function.Function<BufferAllocator, FieldVector> create, Setter setter) {
        return new Column() {
            @Override
            public FieldVector create(BufferAllocator allocator) {
                return create.apply(allocator);
            }

            @Override
            public void set(FieldVector vector, int row, int key) {
                setter.set(vector, row, key);
            }
        };
    }
}
