package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.sql.plan.AggregatePlan.Aggregation;
import dev.riffle.sql.plan.AggregatePlan.Function;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VariableWidthFieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.sql.type.SqlTypeName;
import org.junit.jupiter.api.Test;

/**
 * The primitive tables of the vectorized aggregate answer as a Java map and set of the same keys
 * would, across their growth, for keys that share prefixes, hashes of equal length, empty and
 * multi-byte strings.
 */
class GroupTablesTest {

    @Test
    void stringKeysGetOneGroupEachAsAMapOfStringsWould() {
        Random random = new Random(7);
        List<String> keys = new ArrayList<>(List.of("", "a", "aa", "a\u0000", "é", "e\u0301", "日本語", "Aa", "BB"));
        for (int i = 0; i < 3000; i++) {
            keys.add("k" + random.nextInt(5000));
        }
        try (BufferAllocator allocator = new RootAllocator(); VarCharVector vector = new VarCharVector("k", allocator)) {
            vector.allocateNew();
            for (int i = 0; i < keys.size(); i++) {
                vector.setSafe(i, keys.get(i).getBytes(StandardCharsets.UTF_8));
            }
            vector.setValueCount(keys.size());

            BytesGroupTable table = new BytesGroupTable();
            dev.riffle.core.types.ArrowColumnMemory column = dev.riffle.core.types.ArrowColumnMemory.of(vector).orElseThrow();
            Map<String, Integer> expected = new HashMap<>();
            for (int pass = 0; pass < 2; pass++) {
                for (int row = 0; row < keys.size(); row++) {
                    String key = keys.get(row);
                    // Rows alternate between the vector's buffers and a key's own bytes (a batch of another vector type).
                    int group = row % 2 == 0 ? table.get(column, row) : table.get(key.getBytes(StandardCharsets.UTF_8));
                    if (group < 0) {
                        assertThat(expected).as("a new group for %s", key).doesNotContainKey(key);
                        group = expected.size();
                        table.put(group);
                        expected.put(key, group);
                    }
                    assertThat(group).as("group of %s", key).isEqualTo(expected.get(key));
                }
            }
            // "Aa" and "BB" share String.hashCode; "e\u0301" and "é" look alike but are other bytes.
            assertThat(expected).containsKeys("Aa", "BB", "é", "e\u0301", "", "a\u0000");
            assertThat(new HashSet<>(expected.values())).hasSize(expected.size());
        }
    }

    /**
     * A string key column numbered as the aggregate numbers it: nulls (their own group, numbered
     * among the others), empty strings and hundreds of other keys over several batches, some of
     * them in another vector type; each key keeps one group, and the group gives its key back.
     */
    @Test
    void longKeysGetOneGroupEachAsAMapWould() {
        java.util.Random random = new java.util.Random(43);
        LongGroupTable table = new LongGroupTable();
        Map<Long, Integer> expected = new HashMap<>();
        long[] edges = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE};
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < 300_000; i++) {
                // Far more groups than the table's first slots: it grows many times, keys collide in the low bits.
                long key = i < edges.length ? edges[i] : random.nextInt(200_000) * 1_024L - 100_000_000L;
                int group = table.get(key);
                if (group < 0) {
                    assertThat(expected).as("a new group for %s", key).doesNotContainKey(key);
                    // The caller's numbers, with gaps, as GroupNumbers leaves one for null.
                    group = 2 * expected.size() + 1;
                    table.put(key, group);
                    expected.put(key, group);
                }
                assertThat(group).as("group of %s", key).isEqualTo(expected.get(key));
            }
        }
        assertThat(expected).containsKeys(0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE).hasSizeGreaterThan(150_000);
    }

    @Test
    void aStringKeyColumnWithNullsKeepsOneGroupPerKeyAcrossBatches() {
        Random random = new Random(3);
        GroupNumbers numbers = GroupNumbers.of(List.of(0));
        Map<String, Integer> groupOfKey = new HashMap<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int batch = 0; batch < 12; batch++) {
                String[] keys = new String[200];
                for (int i = 0; i < keys.length; i++) {
                    int pick = random.nextInt(400);
                    keys[i] = batch == 0 && i == 0 ? null : pick == 0 ? null : pick == 1 ? "" : "key-" + pick;
                }
                int[] groupOfRow = new int[keys.length];
                try (VectorSchemaRoot root = VectorSchemaRoot.of(batch % 4 == 3
                        ? largeStrings(allocator, keys) : strings(allocator, keys))) {
                    numbers.number(root, keys.length, groupOfRow);
                }
                for (int i = 0; i < keys.length; i++) {
                    Integer known = groupOfKey.putIfAbsent(keys[i], groupOfRow[i]);
                    assertThat(groupOfRow[i]).as("group of %s in batch %d", keys[i], batch)
                            .isEqualTo(known == null ? groupOfRow[i] : known);
                }
            }
            assertThat(new HashSet<>(groupOfKey.values())).as("one group per key").hasSize(groupOfKey.size());
            assertThat(numbers.count()).isEqualTo(groupOfKey.size());
            assertThat(groupOfKey).containsKeys(null, "").hasSizeGreaterThan(300);
            Object[] key = new Object[1];
            groupOfKey.forEach((expected, group) -> {
                numbers.keyValues(group, key);
                assertThat(key[0]).isEqualTo(expected);
            });
        }
    }

    /**
     * A column whose batches come in different vector types (as a union of lake and log batches
     * could) keeps one group per key and one count per value: what the first batch decided holds.
     */
    @Test
    void batchesOfAnotherVectorTypeKeepTheFirstBatchsGroupsAndCounts() {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot first = VectorSchemaRoot.of(strings(allocator, "a", "b"),
                        integers(new IntVector("v", allocator), 1, 2));
                VectorSchemaRoot second = VectorSchemaRoot.of(largeStrings(allocator, "b", "c"),
                        integers(new BigIntVector("v", allocator), 2, 3))) {
            GroupNumbers groups = GroupNumbers.of(List.of(0));
            Accumulator distinct = Accumulator.of(new Aggregation(Function.COUNT_DISTINCT, 1, SqlTypeName.BIGINT));
            Accumulator sum = Accumulator.of(new Aggregation(Function.SUM, 1, SqlTypeName.BIGINT));
            Accumulator max = Accumulator.of(new Aggregation(Function.MAX, 1, SqlTypeName.BIGINT));
            // Integer keys too: the values column numbered as a key column, an int batch then a long one.
            GroupNumbers byValue = GroupNumbers.of(List.of(1));
            int[] groupOfRow = new int[2];
            int[] valueGroups = new int[2];
            for (VectorSchemaRoot batch : List.of(first, second, first)) {
                groups.number(batch, 2, groupOfRow);
                for (Accumulator accumulator : List.of(distinct, sum, max)) {
                    accumulator.ensure(groups.count());
                    accumulator.add(batch, groupOfRow, 2);
                }
                byValue.number(batch, 2, valueGroups);
            }
            // b: 2 + 2 + 2; c: 3. Values 1, 2, 3: three groups, 2 the same group from an int and a long.
            assertThat(sum.result(1)).isEqualTo(6L);
            assertThat(max.result(2)).isEqualTo(3L);
            assertThat(byValue.count()).isEqualTo(3);
            assertThat(groups.count()).as("a, b, c").isEqualTo(3);
            Object[] key = new Object[1];
            groups.keyValues(1, key);
            assertThat(key[0]).isEqualTo("b");
            // b: 2 (an int), then 2 (a long), then 2 again: one distinct value.
            assertThat(distinct.result(1)).isEqualTo(1L);
            assertThat(distinct.result(2)).isEqualTo(1L);
        }
    }

    private static VarCharVector strings(BufferAllocator allocator, String... values) {
        return filled(new VarCharVector("k", allocator), values);
    }

    private static LargeVarCharVector largeStrings(BufferAllocator allocator, String... values) {
        return filled(new LargeVarCharVector("k", allocator), values);
    }

    private static <V extends VariableWidthFieldVector> V filled(V vector, String... values) {
        vector.allocateNew();
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                vector.setSafe(i, values[i].getBytes(StandardCharsets.UTF_8));
            }
        }
        vector.setValueCount(values.length);
        return vector;
    }

    private static <V extends FieldVector & BaseIntVector> V integers(V vector, long... values) {
        vector.allocateNew();
        for (int i = 0; i < values.length; i++) {
            vector.setWithPossibleTruncate(i, values[i]);
        }
        vector.setValueCount(values.length);
        return vector;
    }

    @Test
    void groupValuePairsAreNewOnceAsASetOfPairsWould() {
        Random random = new Random(11);
        GroupValueSet set = new GroupValueSet();
        Set<List<Long>> expected = new HashSet<>();
        for (int i = 0; i < 50_000; i++) {
            int group = random.nextInt(300);
            long value = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(50);
                case 1 -> -random.nextInt(50);
                case 2 -> random.nextLong();
                default -> (long) random.nextInt(50) << 32;
            };
            assertThat(set.add(group, value)).as("(%d, %d)", group, value)
                    .isEqualTo(expected.add(List.of((long) group, value)));
        }
        assertThat(expected.size()).as("pairs seen").isGreaterThan(20_000);
    }

    /**
     * Three key columns numbered as the aggregate numbers them, in batches, against a map of key
     * lists: the pairings start in small arrays, widen as keys appear and move to hash tables once
     * a side has many groups (the first pair has 12 x 40 groups, the second up to 480 x 300).
     */
    @Test
    void severalKeyColumnsGetOneGroupPerKeyListAcrossTheirGrowth() {
        Random random = new Random(19);
        GroupNumbers numbers = GroupNumbers.of(List.of(0, 1, 2));
        Map<List<Object>, Integer> expected = new HashMap<>();
        int batchRows = 1_000;
        int[] groupOfRow = new int[batchRows];
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int batch = 0; batch < 60; batch++) {
                long[] a = new long[batchRows];
                String[] b = new String[batchRows];
                long[] c = new long[batchRows];
                for (int row = 0; row < batchRows; row++) {
                    // Later batches bring wider keys, so each pairing grows while rows are numbered.
                    a[row] = random.nextInt(1 + Math.min(11, batch));
                    b[row] = "b" + random.nextInt(1 + Math.min(39, batch * 2));
                    c[row] = random.nextInt(1 + Math.min(299, batch * 10));
                }
                try (VectorSchemaRoot root = VectorSchemaRoot.of(integers(new IntVector("a", allocator), a),
                        filled(new VarCharVector("b", allocator), b), integers(new BigIntVector("c", allocator), c))) {
                    numbers.number(root, batchRows, groupOfRow);
                }
                for (int row = 0; row < batchRows; row++) {
                    List<Object> key = List.of((int) a[row], b[row], c[row]);
                    Integer group = expected.get(key);
                    if (group == null) {
                        assertThat(groupOfRow[row]).as("a new group for %s", key).isEqualTo(expected.size());
                        expected.put(key, groupOfRow[row]);
                    } else {
                        assertThat(groupOfRow[row]).as("group of %s", key).isEqualTo(group);
                    }
                }
            }
        }
        assertThat(numbers.count()).isEqualTo(expected.size()).isGreaterThan(40_000); // the second pairing's 480 x 300 possible pairs outgrow its arrays
        Object[] row = new Object[3];
        for (Map.Entry<List<Object>, Integer> entry : expected.entrySet()) {
            numbers.keyValues(entry.getValue(), row);
            assertThat(List.of(row)).as("keys of group %d", entry.getValue()).isEqualTo(entry.getKey());
        }
    }

    /** MIN and MAX of floating-point columns order values as Calcite's Double and Float do: -0.0 below 0.0, NaN above all. */
    @Test
    void minAndMaxOfFloatingPointValuesCompareAsCalcitesValues() {
        double[] values = {0.0, 3.5, -0.0, Double.NaN, -7.25, Double.NEGATIVE_INFINITY, 1e300};
        try (BufferAllocator allocator = new RootAllocator();
                org.apache.arrow.vector.Float8Vector doubles = new org.apache.arrow.vector.Float8Vector("d", allocator);
                org.apache.arrow.vector.Float4Vector floats = new org.apache.arrow.vector.Float4Vector("f", allocator)) {
            doubles.allocateNew(values.length + 1);
            floats.allocateNew(values.length + 1);
            for (int i = 0; i < values.length; i++) {
                doubles.set(i, values[i]);
                floats.set(i, (float) values[i]);
            }
            doubles.setNull(values.length); // nulls are skipped
            floats.setNull(values.length);
            doubles.setValueCount(values.length + 1);
            floats.setValueCount(values.length + 1);
            try (VectorSchemaRoot root = VectorSchemaRoot.of(doubles, floats)) {
                // Group 0: 0.0 then -0.0; group 1: the rest and the null (1e300 is infinite as a float).
                int[] groupOfRow = {0, 1, 0, 1, 1, 1, 1, 1};
                Map<String, Object> results = new HashMap<>();
                for (Function function : List.of(Function.MIN, Function.MAX)) {
                    for (int column = 0; column < 2; column++) {
                        Accumulator extreme = Accumulator.of(new Aggregation(function, column,
                                column == 0 ? SqlTypeName.DOUBLE : SqlTypeName.REAL));
                        extreme.ensure(2);
                        extreme.add(root, groupOfRow, values.length + 1);
                        results.put(function + "/" + column + "/0", extreme.result(0));
                        results.put(function + "/" + column + "/1", extreme.result(1));
                    }
                }
                assertThat(results).containsEntry("MIN/0/0", -0.0).containsEntry("MAX/0/0", 0.0)
                        .containsEntry("MIN/0/1", Double.NEGATIVE_INFINITY).containsEntry("MAX/0/1", Double.NaN)
                        .containsEntry("MIN/1/0", -0.0f).containsEntry("MAX/1/0", 0.0f)
                        .containsEntry("MIN/1/1", Float.NEGATIVE_INFINITY).containsEntry("MAX/1/1", Float.NaN);
            }
        }
    }
}
