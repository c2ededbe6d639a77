package dev.riffle.sql.exec;

import static org.assertj.core.api.Assertions.assertThat;

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
import org.apache.arrow.vector.VarCharVector;
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
            Map<String, Integer> expected = new HashMap<>();
            for (int pass = 0; pass < 2; pass++) {
                for (int row = 0; row < keys.size(); row++) {
                    String key = keys.get(row);
                    // Rows alternate between the vector's buffers and a key's own bytes (a batch of another vector type).
                    int group = row % 2 == 0 ? table.get(vector, row) : table.get(key.getBytes(StandardCharsets.UTF_8));
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
}
