package dev.riffle.lake.union;

import static dev.riffle.lake.tiering.TieringServiceIT.LOG;
import static dev.riffle.lake.tiering.TieringServiceIT.PK;
import static dev.riffle.lake.tiering.TieringServiceIT.append;
import static dev.riffle.lake.tiering.TieringServiceIT.createLakeTable;
import static dev.riffle.lake.tiering.TieringServiceIT.range;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.reader.TableReader;
import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.tiering.TieringService;
import dev.riffle.lake.tiering.TieringServiceIT;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(LocalClusterExtension.class)
class UnionReadIT {
    private BufferAllocator allocator;

    @BeforeEach
    void allocator() {
        allocator = new RootAllocator();
    }

    @AfterEach
    void noLeaks() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void logTableReadsTheLakeThenTheLogTailEveryRowOnce(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("log");
        createLakeTable(connection, path, LOG, 2);
        append(connection, path, 0, 1_000);
        tierUntilLakeHas(cluster, connection, path, 1_000);
        append(connection, path, 1_000, 1_500);

        Map<Integer, String> rows = new TreeMap<>();
        try (Riffle riffle = Riffle.using(connection, allocator);
                TableReader reader = unionRead(cluster, riffle, path).createReader()) {
            assertThat(reader.lakeSnapshotId()).isPresent();
            while (reader.hasNext()) {
                try (VectorSchemaRoot batch = reader.next().root()) {
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        Integer id = (Integer) batch.getVector("id").getObject(i);
                        assertThat(rows.put(id, batch.getVector("name").getObject(i).toString()))
                                .as("id %s read twice", id).isNull();
                    }
                }
            }
        }
        assertThat(rows.keySet()).containsExactlyElementsOf(range(0, 1_500));
        assertThat(rows.get(1_234)).isEqualTo("name-1234");

        // Rows from the lake and from the log tail both pass through the filter.
        List<Integer> filtered = new ArrayList<>();
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            PredicateBuilder where = new PredicateBuilder(riffle.table(path).info().getRowType());
            try (TableReader reader = unionRead(cluster, riffle, path).columns(List.of("name"))
                    .filter(where.between(0, 990, 1_009)).createReader()) {
                while (reader.hasNext()) {
                    try (VectorSchemaRoot batch = reader.next().root()) {
                        for (int i = 0; i < batch.getRowCount(); i++) {
                            filtered.add(Integer.parseInt(batch.getVector(0).getObject(i).toString().substring(5)));
                        }
                    }
                }
            }
        }
        assertThat(filtered).containsExactlyInAnyOrderElementsOf(range(990, 1_010));
    }

    @Test
    void primaryKeyTableMergesTheLogTailOverTheLake(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("pk");
        createLakeTable(connection, path, PK, 2, "id");
        Map<Integer, String> oracle = new TreeMap<>();
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < 200; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("lake-" + i)));
                oracle.put(i, "lake-" + i);
            }
            writer.flush();
        }
        tierUntilLakeHas(cluster, connection, path, 200);
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int i = 0; i < 200; i += 3) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("tail-" + i)));
                oracle.put(i, "tail-" + i);
            }
            for (int i = 1; i < 200; i += 7) {
                writer.delete(GenericRow.of(i, BinaryString.fromString(oracle.get(i))));
                oracle.remove(i);
            }
            for (int i = 200; i < 250; i++) {
                writer.upsert(GenericRow.of(i, BinaryString.fromString("new-" + i)));
                oracle.put(i, "new-" + i);
            }
            writer.flush();
        }

        try (Riffle riffle = Riffle.using(connection, allocator);
                TableReader reader = unionRead(cluster, riffle, path).columns(List.of("name", "id")).createReader()) {
            assertThat(reader.schema().getFields()).extracting(f -> f.getName()).containsExactly("name", "id");
            assertThat(namesById(reader)).isEqualTo(oracle);
        }

        // A tail longer than what may stay in memory keeps only its keys and is read twice: same rows.
        try (Riffle riffle = Riffle.using(connection, allocator);
                TableReader reader = unionRead(cluster, riffle, path).tailRowsInMemory(10).createReader()) {
            assertThat(namesById(reader)).isEqualTo(oracle);
        }

        // A filter goes to the lake and is checked again after the merge: a lake row that matches but
        // whose key the tail changed to a value that does not match must not come back.
        Map<Integer, String> filtered = new TreeMap<>();
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            RiffleTable table = riffle.table(path);
            PredicateBuilder where = new PredicateBuilder(table.info().getRowType());
            Predicate predicate = PredicateBuilder.and(where.startsWith(1, BinaryString.fromString("lake-")),
                    where.lessThan(0, 150));
            try (TableReader reader = unionRead(cluster, riffle, path).columns(List.of("id")).filter(predicate)
                    .createReader()) {
                assertThat(reader.schema().getFields()).extracting(f -> f.getName()).containsExactly("id");
                while (reader.hasNext()) {
                    try (VectorSchemaRoot batch = reader.next().root()) {
                        for (int i = 0; i < batch.getRowCount(); i++) {
                            Integer id = (Integer) batch.getVector(0).getObject(i);
                            filtered.put(id, oracle.get(id));
                        }
                    }
                }
            }
        }
        Map<Integer, String> expected = new TreeMap<>();
        oracle.forEach((id, value) -> {
            if (value.startsWith("lake-") && id < 150) {
                expected.put(id, value);
            }
        });
        assertThat(filtered).isEqualTo(expected).isNotEmpty();
    }

    @Test
    void aTableNeverTieredReadsTheLogAlone(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("untiered");
        createLakeTable(connection, path, LOG, 2);
        append(connection, path, 0, 300);
        List<Integer> ids = new ArrayList<>();
        try (Riffle riffle = Riffle.using(connection, allocator);
                TableReader reader = unionRead(cluster, riffle, path).createReader()) {
            assertThat(reader.lakeSnapshotId()).isEmpty();
            while (reader.hasNext()) {
                try (VectorSchemaRoot batch = reader.next().root()) {
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        ids.add((Integer) batch.getVector("id").getObject(i));
                    }
                }
            }
        }
        assertThat(ids).containsExactlyInAnyOrderElementsOf(range(0, 300));
    }

    /** Every row of a reader of {@code id} and {@code name}, as id to name, failing on a key read twice. */
    static Map<Integer, String> namesById(TableReader reader) throws Exception {
        Map<Integer, String> rows = new TreeMap<>();
        while (reader.hasNext()) {
            try (VectorSchemaRoot batch = reader.next().root()) {
                for (int i = 0; i < batch.getRowCount(); i++) {
                    Integer id = (Integer) batch.getVector("id").getObject(i);
                    assertThat(rows.put(id, batch.getVector("name").getObject(i).toString()))
                            .as("key %s read twice", id).isNull();
                }
            }
        }
        return rows;
    }

    static UnionRead unionRead(LocalCluster cluster, Riffle riffle, TablePath path) {
        RiffleTable table = riffle.table(path);
        return UnionRead.of(riffle, FlussPluginLakeSource.create("paimon", cluster.lakeCatalogOptions(), path,
                table.info().getRowType()), table);
    }

    /** Runs a tiering service until the lake snapshot covers {@code rows} rows, then stops it. */
    static void tierUntilLakeHas(LocalCluster cluster, Connection connection, TablePath path, long offsets)
            throws Exception {
        try (TieringService tiering = TieringServiceIT.start(cluster); Admin admin = connection.getAdmin()) {
            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() -> assertThat(
                    admin.getReadableLakeSnapshot(path).get().getTableBucketsOffset().values().stream()
                            .mapToLong(Long::longValue).sum()).isGreaterThanOrEqualTo(offsets));
        }
    }
}
