package dev.riffle.lake.tiering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.union.UnionRead;
import dev.riffle.core.reader.TableReader;
import dev.riffle.local.LocalCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.util.Text;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TablePath;

/**
 * Test-side reads of what tiering wrote, through Riffle's own lake source and union read, as plain
 * Java values (strings, lists, maps) that compare with what a test wrote.
 */
final class LakeReadBack {
    private LakeReadBack() {}

    /** Waits until the table's readable lake snapshot holds every bucket up to the log's current end. */
    static void awaitLakeHoldsTheWholeLog(Connection connection, TablePath path, int buckets) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            List<Integer> ids = IntStream.range(0, buckets).boxed().toList();
            Map<Integer, Long> latest = admin.listOffsets(path, ids, new OffsetSpec.LatestSpec()).all().get();
            Map<Integer, Long> expected = new HashMap<>();
            latest.forEach((bucket, offset) -> {
                if (offset > 0) {
                    expected.put(bucket, offset);
                }
            });
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> {
                Map<Integer, Long> lake = new HashMap<>();
                for (Map.Entry<TableBucket, Long> entry
                        : admin.getReadableLakeSnapshot(path).get().getTableBucketsOffset().entrySet()) {
                    lake.put(entry.getKey().getBucket(), entry.getValue());
                }
                assertThat(lake).as("lake offsets of %s", path).isEqualTo(expected);
            });
        }
    }

    /** Every row of the lake snapshot alone, keyed by {@code key}, each row a map of column name to value. */
    static Map<Object, Map<String, Object>> lakeRows(LocalCluster cluster, Connection connection, TablePath path,
            String key) throws Exception {
        return rows(cluster, connection, path, key, UnionRead::lakeOnly);
    }

    /** Every row of the union read (lake snapshot, then the log past it). */
    static Map<Object, Map<String, Object>> unionRows(LocalCluster cluster, Connection connection, TablePath path,
            String key) throws Exception {
        return rows(cluster, connection, path, key, Function.identity());
    }

    private static Map<Object, Map<String, Object>> rows(LocalCluster cluster, Connection connection, TablePath path,
            String key, Function<UnionRead, UnionRead> shape) throws Exception {
        Map<Object, Map<String, Object>> rows = new TreeMap<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            try (Riffle riffle = Riffle.using(connection, allocator)) {
                RiffleTable table = riffle.table(path);
                UnionRead read = shape.apply(UnionRead.of(riffle, FlussPluginLakeSource.create("paimon",
                        cluster.lakeCatalogOptions(), path, table.info().getRowType()), table));
                try (TableReader reader = read.createReader()) {
                    while (reader.hasNext()) {
                        try (VectorSchemaRoot batch = reader.next().root()) {
                            for (int i = 0; i < batch.getRowCount(); i++) {
                                Map<String, Object> row = new LinkedHashMap<>();
                                for (FieldVector vector : batch.getFieldVectors()) {
                                    row.put(vector.getName(), plain(vector, i));
                                }
                                assertThat(rows.put(row.get(key), row)).as("key %s read twice", row.get(key)).isNull();
                            }
                        }
                    }
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
        return rows;
    }

    /** A vector's value as strings, numbers, lists and maps (an Arrow map as a Java map). */
    private static Object plain(FieldVector vector, int index) {
        if (vector.isNull(index)) {
            return null;
        }
        if (vector instanceof MapVector map) {
            Map<Object, Object> entries = new TreeMap<>();
            for (Object entry : (List<?>) map.getObject(index)) {
                Map<?, ?> pair = (Map<?, ?>) entry;
                entries.put(plain(pair.get(MapVector.KEY_NAME)), plain(pair.get(MapVector.VALUE_NAME)));
            }
            return entries;
        }
        return plain(vector.getObject(index));
    }

    private static Object plain(Object value) {
        if (value instanceof Text text) {
            return text.toString();
        }
        if (value instanceof List<?> list) {
            List<Object> plain = new ArrayList<>();
            list.forEach(element -> plain.add(plain(element)));
            return plain;
        }
        if (value instanceof Map<?, ?> map) {
            return map.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().toString(), e -> plain(e.getValue()),
                    (a, b) -> a, LinkedHashMap::new));
        }
        return value;
    }

    /**
     * Fails unless a closed tiering service's allocator ({@code TieringService.allocator()}) got
     * all its Arrow memory back and every child allocator was closed.
     */
    static void assertNoArrowMemoryLeft(BufferAllocator tieringAllocator) {
        assertThat(tieringAllocator.getAllocatedMemory()).as("Arrow bytes still allocated by tiering").isZero();
        assertThat(tieringAllocator.getChildAllocators()).as("tiering allocators not closed").isEmpty();
    }
}
