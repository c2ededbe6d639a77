package dev.riffle.lake.union;

import static dev.riffle.lake.tiering.TieringServiceIT.createLakeTable;
import static dev.riffle.lake.union.UnionReadIT.tierUntilLakeHas;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.source.LakeScan;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.predicate.PredicateBuilder;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A log table's lake snapshot read column by column from Paimon's columnar batches holds, for
 * every flat type and with nulls, exactly the values the Fluss log holds for the same rows, in the
 * same Arrow encodings; a nested column sends the read through the lake plugin with the same
 * result; a filter Paimon only prunes with is checked on the rows; a primary-key table's snapshot,
 * read by Paimon's own reader, holds the table's current rows.
 */
@ExtendWith(LocalClusterExtension.class)
class ColumnarLakeReadIT {
    private static final Schema EVERY_TYPE = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("b", DataTypes.BOOLEAN()).column("t", DataTypes.TINYINT())
            .column("s", DataTypes.SMALLINT()).column("i", DataTypes.INT()).column("l", DataTypes.BIGINT())
            .column("f", DataTypes.FLOAT()).column("d", DataTypes.DOUBLE()).column("str", DataTypes.STRING())
            .column("bin", DataTypes.BYTES()).column("dec", DataTypes.DECIMAL(10, 2))
            .column("wide", DataTypes.DECIMAL(30, 5)).column("day", DataTypes.DATE()).column("tm", DataTypes.TIME())
            .column("ts3", DataTypes.TIMESTAMP(3)).column("ts6", DataTypes.TIMESTAMP(6))
            .column("ts9", DataTypes.TIMESTAMP(9)).column("ltz3", DataTypes.TIMESTAMP_LTZ(3))
            .column("ltz6", DataTypes.TIMESTAMP_LTZ(6)).column("arr", DataTypes.ARRAY(DataTypes.INT())).build();
    /** The same without the nested column: tiered from Riffle's Arrow reads (ArrowPaimonRow), not Fluss's scanner. */
    private static final Schema EVERY_FLAT_TYPE = Schema.newBuilder()
            .fromColumns(EVERY_TYPE.getColumns().subList(0, EVERY_TYPE.getColumns().size() - 1)).build();
    private static final int ROWS = 3_000;

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
    void everyFlatTypeReadsFromTheLakeAsTheLogHoldsIt(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("every_type");
        createLakeTable(connection, path, EVERY_TYPE, 2);
        // After 1970: Fluss 0.9.1's log scanner (which tiers this table, for its nested column) cannot read a
        // sub-millisecond TIMESTAMP before 1970 (TimestampNtz.fromMillis rejects the negative nano part it computes).
        write(connection, path, true, 1_704_067_200_000L);
        tierUntilLakeHas(cluster, connection, path, ROWS);

        List<String> flat = EVERY_TYPE.getColumnNames().subList(0, EVERY_TYPE.getColumnNames().size() - 1);
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            RiffleTable table = riffle.table(path);
            Map<Integer, List<String>> log = logRows(table);
            assertThat(log).hasSize(ROWS);
            FlussPluginLakeSource lake = FlussPluginLakeSource.create("paimon", cluster.lakeCatalogOptions(), path,
                    table.info().getRowType());
            long snapshot;
            try (Admin admin = connection.getAdmin()) {
                snapshot = admin.getReadableLakeSnapshot(path).get().getSnapshotId();
            }

            // Flat columns: Paimon's columnar reader, its filters pruning only (checked again on the rows).
            PredicateBuilder where = new PredicateBuilder(table.info().getRowType());
            try (LakeScan scan = lake.plan(snapshot, new int[] {0, 5}, List.of(where.greaterThan(5, 0L)))) {
                assertThat(scan.filters().inexact()).hasSize(1);
                assertThat(scan.filters().exact()).isEmpty();
            }
            Map<Integer, List<String>> columnar = lakeRows(UnionRead.of(riffle, lake, table).lakeOnly()
                    .columns(flat).createReader());
            assertThat(columnar).hasSize(ROWS);
            for (Map.Entry<Integer, List<String>> row : columnar.entrySet()) {
                assertThat(row.getValue()).as("row %s: %s", row.getKey(), flat)
                        .isEqualTo(log.get(row.getKey()).subList(0, flat.size()));
            }

            // A nested column: the plugin reads rows; its accepted filters are exact.
            try (LakeScan scan = lake.plan(snapshot, new int[] {0, 19}, List.of(where.greaterThan(0, 10)))) {
                assertThat(scan.filters().exact()).hasSize(1);
            }
            Map<Integer, List<String>> nested = lakeRows(UnionRead.of(riffle, lake, table).lakeOnly()
                    .columns(EVERY_TYPE.getColumnNames()).createReader());
            assertThat(nested).isEqualTo(log);

            // A filter on the columnar path returns exactly the rows it selects.
            Map<Integer, List<String>> positive = lakeRows(UnionRead.of(riffle, lake, table).lakeOnly()
                    .columns(flat).filter(where.greaterThan(5, 0L)).createReader());
            Map<Integer, List<String>> expected = new TreeMap<>();
            int l = flat.indexOf("l");
            columnar.forEach((id, values) -> {
                String value = values.get(l).substring(values.get(l).indexOf(':') + 1);
                if (!value.equals("null") && Long.parseLong(value) > 0) {
                    expected.put(id, values);
                }
            });
            assertThat(expected).isNotEmpty().hasSizeLessThan(ROWS);
            assertThat(positive).isEqualTo(expected);
        }
    }

    @Test
    void everyFlatTypeTieredFromArrowBatchesEqualsTheLog(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("every_flat_type");
        createLakeTable(connection, path, EVERY_FLAT_TYPE, 2);
        // Around 1970, so that timestamps before it (negative, with sub-millisecond digits) are tiered too.
        write(connection, path, false, 0L);
        tierUntilLakeHas(cluster, connection, path, ROWS);

        try (Riffle riffle = Riffle.using(connection, allocator)) {
            RiffleTable table = riffle.table(path);
            Map<Integer, List<String>> log = logRows(table);
            assertThat(log).hasSize(ROWS);
            FlussPluginLakeSource lake = FlussPluginLakeSource.create("paimon", cluster.lakeCatalogOptions(), path,
                    table.info().getRowType());
            assertThat(lakeRows(UnionRead.of(riffle, lake, table).lakeOnly().createReader())).isEqualTo(log);
        }
    }

    /**
     * A primary-key table's snapshot is read by Paimon's own reader (its filters reported inexact,
     * as on the columnar path): after one tiering round (a file per bucket) and after a second that
     * updates, inserts and deletes (files that overlap, which Paimon merges), the lake alone holds
     * exactly the table's current rows, and so does the union read.
     */
    @Test
    void aPrimaryKeyTablesSnapshotReadsAsItsCurrentRows(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("pk_columnar");
        Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING())
                .column("amount", DataTypes.BIGINT()).primaryKey("id").build();
        createLakeTable(connection, path, schema, 2);
        Map<Integer, List<String>> current = new TreeMap<>();
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int id = 0; id < 1_000; id++) {
                writer.upsert(GenericRow.of(id, BinaryString.fromString("first-" + id), id * 10L));
                current.put(id, List.of("first-" + id, Long.toString(id * 10L)));
            }
            writer.flush();
        }
        tierUntilLakeHas(cluster, connection, path, 1_000);
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            assertThat(keyedRows(lakeOnly(cluster, riffle, path))).isEqualTo(current);
        }

        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int id = 500; id < 1_500; id++) {
                writer.upsert(GenericRow.of(id, BinaryString.fromString("second-" + id), -id * 10L));
                current.put(id, List.of("second-" + id, Long.toString(-id * 10L)));
            }
            for (int id = 0; id < 100; id++) {
                writer.delete(GenericRow.of(id, null, null));
                current.remove(id);
            }
            writer.flush();
        }
        // 1,000 +I, then 500 -U/+U pairs, 500 +I and 100 -D.
        tierUntilLakeHas(cluster, connection, path, 2_600);
        try (Riffle riffle = Riffle.using(connection, allocator)) {
            RiffleTable table = riffle.table(path);
            FlussPluginLakeSource lake = FlussPluginLakeSource.create("paimon", cluster.lakeCatalogOptions(), path,
                    table.info().getRowType());
            long snapshot;
            try (Admin admin = connection.getAdmin()) {
                snapshot = admin.getReadableLakeSnapshot(path).get().getSnapshotId();
            }
            PredicateBuilder where = new PredicateBuilder(table.info().getRowType());
            try (LakeScan scan = lake.plan(snapshot, new int[] {0, 1, 2}, List.of(where.greaterThan(2, 0L)))) {
                assertThat(scan.filters().inexact()).hasSize(1);
                assertThat(scan.splits()).as("the second round's files overlap the first's")
                        .anyMatch(split -> split.files() > 1);
            }
            assertThat(keyedRows(lakeOnly(cluster, riffle, path))).isEqualTo(current);
            assertThat(keyedRows(UnionReadIT.unionRead(cluster, riffle, path).createReader())).isEqualTo(current);
            Map<Integer, List<String>> positive = new TreeMap<>(current);
            positive.values().removeIf(values -> Long.parseLong(values.get(1)) <= 0);
            assertThat(positive).isNotEmpty().hasSizeLessThan(current.size());
            assertThat(keyedRows(UnionReadIT.unionRead(cluster, riffle, path).filter(where.greaterThan(2, 0L))
                    .createReader())).isEqualTo(positive);
        }
    }

    private static TableReader lakeOnly(LocalCluster cluster, Riffle riffle, TablePath path) {
        return UnionReadIT.unionRead(cluster, riffle, path).lakeOnly().createReader();
    }

    /** Each row as its key and its other values, as text. */
    private static Map<Integer, List<String>> keyedRows(TableReader reader) {
        Map<Integer, List<String>> rows = new TreeMap<>();
        try (reader) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    VectorSchemaRoot root = batch.root();
                    for (int i = 0; i < root.getRowCount(); i++) {
                        List<String> values = List.of(String.valueOf(root.getVector(1).getObject(i)),
                                String.valueOf(root.getVector(2).getObject(i)));
                        assertThat(rows.put((Integer) root.getVector(0).getObject(i), values)).isNull();
                    }
                }
            }
        }
        return rows;
    }

    /**
     * {@link #ROWS} rows of random values of every type of {@link #EVERY_TYPE} (without its last,
     * nested column unless {@code withArray}), timestamps within 400 days of {@code aroundMillis},
     * about one value in seven null.
     */
    private static void write(Connection connection, TablePath path, boolean withArray, long aroundMillis)
            throws Exception {
        Random random = new Random(42);
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = 0; id < ROWS; id++) {
                long millis = aroundMillis + random.nextLong(86_400_000L * 800) - 86_400_000L * 400;
                Object[] values = {id, random.nextBoolean(), (byte) random.nextInt(256), (short) random.nextInt(65_536),
                        random.nextInt(), random.nextLong(), random.nextFloat() * 1e6f - 5e5f,
                        random.nextGaussian() * 1e9, BinaryString.fromString("s-" + id + "-é-" + "x".repeat(id % 40)),
                        ("bytes-" + id).getBytes(java.nio.charset.StandardCharsets.UTF_8),
                        Decimal.fromBigDecimal(BigDecimal.valueOf(random.nextInt(2_000_000) - 1_000_000, 2), 10, 2),
                        Decimal.fromBigDecimal(new BigDecimal(random.nextLong() + "" + random.nextInt(1000))
                                .movePointLeft(5), 30, 5),
                        random.nextInt(40_000) - 20_000, random.nextInt(86_400) * 1_000,
                        TimestampNtz.fromMillis(millis), TimestampNtz.fromMillis(millis, random.nextInt(1000) * 1000),
                        TimestampNtz.fromMillis(millis, random.nextInt(1_000_000)), TimestampLtz.fromEpochMillis(millis),
                        TimestampLtz.fromEpochMillis(millis, random.nextInt(1000) * 1000),
                        new GenericArray(new Object[] {id, null, -id})};
                if (!withArray) {
                    values = java.util.Arrays.copyOf(values, values.length - 1);
                }
                for (int column = 1; column < values.length; column++) {
                    if (random.nextInt(7) == 0) {
                        values[column] = null;
                    }
                }
                writer.append(GenericRow.of(values));
            }
            writer.flush();
        }
    }

    private static Map<Integer, List<String>> logRows(RiffleTable table) throws Exception {
        Map<Integer, List<String>> rows = new TreeMap<>();
        try (BoundedLogReader log = table.read().log().createLogReader()) {
            while (log.hasNext()) {
                try (LogBatch batch = log.next()) {
                    collect(batch.root(), rows);
                }
            }
        }
        return rows;
    }

    private static Map<Integer, List<String>> lakeRows(TableReader reader) {
        Map<Integer, List<String>> rows = new TreeMap<>();
        try (reader) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    collect(batch.root(), rows);
                }
            }
        }
        return rows;
    }

    /** Each row's values as the Arrow vectors give them ({@code getObject}): encodings must match, not only values. */
    private static void collect(VectorSchemaRoot batch, Map<Integer, List<String>> rows) {
        for (int i = 0; i < batch.getRowCount(); i++) {
            List<String> values = new ArrayList<>();
            for (FieldVector vector : batch.getFieldVectors()) {
                Object value = vector.getObject(i);
                values.add(value instanceof byte[] bytes ? java.util.Arrays.toString(bytes)
                        : vector.getField().getType() + ":" + value);
            }
            Integer id = (Integer) batch.getVector(0).getObject(i);
            assertThat(rows.put(id, values)).as("id %s read twice", id).isNull();
        }
    }
}
