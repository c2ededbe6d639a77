package dev.riffle.lake.tiering;

import static dev.riffle.lake.tiering.LakeReadBack.awaitLakeHoldsTheWholeLog;
import static dev.riffle.lake.tiering.LakeReadBack.assertNoArrowMemoryLeft;
import static dev.riffle.lake.tiering.LakeReadBack.lakeRows;
import static dev.riffle.lake.tiering.LakeReadBack.unionRows;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.lake.LakeTables;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.LogFormat;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Tables Riffle's Arrow reader cannot tier are read with Fluss's own log scanner (chosen from the
 * table's metadata, see {@link SpanReaders}): a log format other than ARROW, and nested columns.
 * Each is tiered, then read back from the lake through Riffle's lake source, equal to what was
 * written; every bucket's lake offsets are exact (no row lost or written twice across rounds).
 */
@ExtendWith(LocalClusterExtension.class)
class ScannedLogTieringIT {
    private static final Schema SCALARS = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING())
            .column("amount", DataTypes.DECIMAL(10, 2)).column("flag", DataTypes.BOOLEAN())
            .column("seen", DataTypes.BIGINT()).build();
    private static final Schema NESTED = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("tags", DataTypes.ARRAY(DataTypes.STRING()))
            .column("counts", DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))
            .column("address", DataTypes.ROW(DataTypes.FIELD("city", DataTypes.STRING()),
                    DataTypes.FIELD("zip", DataTypes.INT())))
            .build();
    private static final Schema NESTED_PK = Schema.newBuilder().fromColumns(NESTED.getColumns()).primaryKey("id").build();

    @Test
    void indexedLogTableIsTieredRoundAfterRoundAndReadsBackFromTheLake(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("indexed");
        create(connection, TableDescriptor.builder().schema(SCALARS).distributedBy(2).logFormat(LogFormat.INDEXED), path);
        assertThat(SpanReaders.logReadPath(info(connection, path))).isEqualTo(SpanReaders.LogReadPath.SCANNED_ROWS);
        Map<Object, Map<String, Object>> written = new TreeMap<>();
        appendScalars(connection, path, 0, 700, written);

        BufferAllocator tieringMemory;
        try (TieringService tiering = TieringServiceIT.start(cluster)) {
            tieringMemory = tiering.allocator();
            awaitLakeHoldsTheWholeLog(connection, path, 2);
            assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(written);
            // A second round continues from the offsets the first one recorded.
            appendScalars(connection, path, 700, 1_000, written);
            awaitLakeHoldsTheWholeLog(connection, path, 2);
        }
        assertNoArrowMemoryLeft(tieringMemory);
        assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(written);
        assertEveryBucketHoldsEachOffsetOnce(cluster, path);
    }

    @Test
    void nestedColumnsAreTieredAndReadBackFromTheLakeAndTheUnionRead(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("nested");
        create(connection, TableDescriptor.builder().schema(NESTED).distributedBy(2), path);
        assertThat(SpanReaders.logReadPath(info(connection, path))).isEqualTo(SpanReaders.LogReadPath.SCANNED_ROWS);
        Map<Object, Map<String, Object>> written = new TreeMap<>();
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = 0; id < 400; id++) {
                writer.append(nestedRow(id, "", written));
            }
            writer.flush();
        }

        BufferAllocator tieringMemory;
        try (TieringService tiering = TieringServiceIT.start(cluster)) {
            tieringMemory = tiering.allocator();
            awaitLakeHoldsTheWholeLog(connection, path, 2);
        }
        assertNoArrowMemoryLeft(tieringMemory);
        assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(written);
        assertEveryBucketHoldsEachOffsetOnce(cluster, path);

        // The union read joins the lake's nested values and the log tail's without a seam.
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = 400; id < 450; id++) {
                writer.append(nestedRow(id, "", written));
            }
            writer.flush();
        }
        assertThat(unionRows(cluster, connection, path, "id")).isEqualTo(written);
    }

    @Test
    void nestedPrimaryKeyTableKeepsNewestValuesAndEndsAtAWriteThatChangedNothing(LocalCluster cluster,
            Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("nested_pk");
        create(connection, TableDescriptor.builder().schema(NESTED_PK).distributedBy(1, "id"), path);
        assertThat(SpanReaders.logReadPath(info(connection, path))).isEqualTo(SpanReaders.LogReadPath.SCANNED_ROWS);
        Map<Object, Map<String, Object>> expected = new TreeMap<>();
        upsertNested(connection, path, expected);

        BufferAllocator tieringMemory;
        try (TieringService tiering = TieringServiceIT.start(cluster)) {
            tieringMemory = tiering.allocator();
            awaitLakeHoldsTheWholeLog(connection, path, 1);
            assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(expected);
            // Deleting a key that does not exist changes nothing, yet takes the bucket's last offset in a
            // batch without records: the scanner never shows it, the round must still end there.
            try (Table table = connection.getTable(path)) {
                UpsertWriter writer = table.newUpsert().createWriter();
                writer.upsert(nestedRow(1_000, "late-", expected));
                writer.flush();
                long beforeDelete = latestOffset(connection, path);
                writer.delete(nestedRow(5_000, "", new HashMap<>()));
                writer.flush();
                assertThat(latestOffset(connection, path)).as("the no-op delete took an offset")
                        .isEqualTo(beforeDelete + 1);
            }
            awaitLakeHoldsTheWholeLog(connection, path, 1);
        }
        assertNoArrowMemoryLeft(tieringMemory);
        assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(expected);
    }

    @Test
    void compactedLogPrimaryKeyTableIsTieredWithTheLogScanner(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("compacted_pk");
        Schema schema = Schema.newBuilder().fromColumns(SCALARS.getColumns()).primaryKey("id").build();
        create(connection, TableDescriptor.builder().schema(schema).distributedBy(2, "id")
                .logFormat(LogFormat.COMPACTED), path);
        assertThat(SpanReaders.logReadPath(info(connection, path))).isEqualTo(SpanReaders.LogReadPath.SCANNED_ROWS);
        Map<Object, Map<String, Object>> expected = new TreeMap<>();
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int id = 0; id < 300; id++) {
                writer.upsert(scalarRow(id, "v1-", expected));
            }
            for (int id = 0; id < 300; id += 3) {
                writer.upsert(scalarRow(id, "v2-", expected));
            }
            for (int id = 0; id < 300; id += 7) {
                writer.delete(scalarRow(id, "v2-", new HashMap<>()));
                expected.remove(id);
            }
            writer.flush();
            writer.delete(scalarRow(9_999, "", new HashMap<>())); // a key that never existed: an empty batch
            writer.flush();
        }

        BufferAllocator tieringMemory;
        try (TieringService tiering = TieringServiceIT.start(cluster)) {
            tieringMemory = tiering.allocator();
            awaitLakeHoldsTheWholeLog(connection, path, 2);
        }
        assertNoArrowMemoryLeft(tieringMemory);
        assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(expected);
    }

    @Test
    void aTableWhoseSchemaChangedIsTieredAsArrowBatchesAcrossTheChange(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("altered");
        Schema before = Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();
        create(connection, TableDescriptor.builder().schema(before).distributedBy(1), path);
        assertThat(SpanReaders.logReadPath(info(connection, path))).isEqualTo(SpanReaders.LogReadPath.ARROW_BATCHES);
        Map<Object, Map<String, Object>> written = new TreeMap<>();
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = 0; id < 300; id++) {
                writer.append(GenericRow.of(id, BinaryString.fromString("name-" + id)));
                written.put(id, alteredRow(id, null));
            }
            writer.flush();
        }
        try (Admin admin = connection.getAdmin()) {
            admin.alterTable(path, List.of(TableChange.addColumn("score", DataTypes.INT(), null,
                    TableChange.ColumnPosition.last())), false).get();
        }
        // The log now holds batches of two schemas: Riffle's Arrow reader maps the older ones by column id.
        assertThat(SpanReaders.logReadPath(info(connection, path))).isEqualTo(SpanReaders.LogReadPath.ARROW_BATCHES);
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = 300; id < 500; id++) {
                writer.append(GenericRow.of(id, BinaryString.fromString("name-" + id), id * 2));
                written.put(id, alteredRow(id, id * 2));
            }
            writer.flush();
        }

        BufferAllocator tieringMemory;
        try (TieringService tiering = TieringServiceIT.start(cluster)) {
            tieringMemory = tiering.allocator();
            awaitLakeHoldsTheWholeLog(connection, path, 1);
        }
        assertNoArrowMemoryLeft(tieringMemory);
        assertThat(lakeRows(cluster, connection, path, "id")).isEqualTo(written);
    }

    private static Map<String, Object> alteredRow(int id, Integer score) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("name", "name-" + id);
        row.put("score", score);
        return row;
    }

    /**
     * Fluss 0.9.1's log scanner cannot read a TIMESTAMP(9) before 1970 with a fraction (its
     * TimestampNtz refuses the negative nanoseconds its Arrow vector computes), so a table with
     * nested columns (read through that scanner) holding one fails every round. The service tries
     * that table again only after a pause that doubles with each failure, instead of at once (it once
     * failed some 8,000 rounds a minute, each logged with its stack trace), while the other tables of
     * the cluster (those of the other tests here) go on tiering.
     */
    @Test
    void aTableThatFailsEveryRoundIsRetriedWithGrowingPauses(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("unreadable");
        create(connection, TableDescriptor.builder().schema(Schema.newBuilder().column("id", DataTypes.INT())
                .column("tags", DataTypes.ARRAY(DataTypes.STRING())).column("at", DataTypes.TIMESTAMP(9)).build())
                .distributedBy(1), path);
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            writer.append(GenericRow.of(1, new GenericArray(new Object[] {BinaryString.fromString("a")}),
                    org.apache.fluss.row.TimestampNtz.fromLocalDateTime(
                            java.time.LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999))));
            writer.flush();
        }
        ch.qos.logback.classic.Logger log = (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(
                TieringService.class);
        ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events =
                new ch.qos.logback.core.read.ListAppender<>();
        events.start();
        log.addAppender(events);
        try (TieringService tiering = TieringServiceIT.start(cluster)) {
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> failures(events, path) >= 1);
            Thread.sleep(4_000); // a rate over time: no event says "no more failures came"
            // Pauses of 0.2, 0.4, 0.8, 1.6 and 3.2 s: at most 5 more rounds in 4 s (before: hundreds).
            assertThat(failures(events, path)).isBetween(2L, 6L);
        } finally {
            log.detachAppender(events);
        }
    }

    private static long failures(ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> events,
            TablePath path) {
        synchronized (events) { // the appender appends under its own lock
            return events.list.stream().filter(e -> e.getFormattedMessage().startsWith("Tiering " + path + " failed"))
                    .count();
        }
    }

    private static void create(Connection connection, TableDescriptor.Builder descriptor, TablePath path)
            throws Exception {
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, descriptor.property("table.datalake.enabled", "true")
                    .property("table.datalake.freshness", "1s").build(), false).get();
        }
    }

    private static org.apache.fluss.metadata.TableInfo info(Connection connection, TablePath path) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            return admin.getTableInfo(path).get();
        }
    }

    private static long latestOffset(Connection connection, TablePath path) throws Exception {
        try (Admin admin = connection.getAdmin()) {
            return admin.listOffsets(path, List.of(0), new OffsetSpec.LatestSpec()).all().get().get(0);
        }
    }

    private static void appendScalars(Connection connection, TablePath path, int from, int to,
            Map<Object, Map<String, Object>> written) throws Exception {
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = from; id < to; id++) {
                writer.append(scalarRow(id, "name-", written));
            }
            writer.flush();
        }
    }

    /** A row of {@link #SCALARS}, also put into {@code oracle} as the lake should give it back. */
    private static GenericRow scalarRow(int id, String prefix, Map<Object, Map<String, Object>> oracle) {
        String name = id % 10 == 0 ? null : prefix + id;
        BigDecimal amount = BigDecimal.valueOf(id * 125L - 3_000, 2);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("name", name);
        row.put("amount", amount);
        row.put("flag", id % 2 == 0);
        row.put("seen", 1_700_000_000_000L + id);
        oracle.put(id, row);
        return GenericRow.of(id, name == null ? null : BinaryString.fromString(name), Decimal.fromBigDecimal(amount, 10, 2),
                id % 2 == 0, 1_700_000_000_000L + id);
    }

    /** A row of {@link #NESTED} (some values null or empty), also put into {@code oracle}. */
    private static GenericRow nestedRow(int id, String prefix, Map<Object, Map<String, Object>> oracle) {
        List<String> tags = new ArrayList<>();
        for (int t = 0; t < id % 4; t++) {
            tags.add(prefix + "tag-" + id + "-" + t);
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (int c = 0; c < id % 3; c++) {
            counts.put(prefix + "k" + c, id * 10 + c);
        }
        boolean noAddress = id % 5 == 0;
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("id", id);
        row.put("tags", id % 11 == 0 ? null : tags);
        row.put("counts", counts);
        Map<String, Object> address = new LinkedHashMap<>();
        address.put("city", prefix + "city-" + id);
        address.put("zip", 10_000 + id);
        row.put("address", noAddress ? null : address);
        oracle.put(id, row);

        Object[] tagValues = tags.stream().map(BinaryString::fromString).toArray();
        Map<Object, Object> countValues = new HashMap<>();
        counts.forEach((key, value) -> countValues.put(BinaryString.fromString(key), value));
        return GenericRow.of(id, id % 11 == 0 ? null : new GenericArray(tagValues), new GenericMap(countValues),
                noAddress ? null : GenericRow.of(BinaryString.fromString(prefix + "city-" + id), 10_000 + id));
    }

    private static void upsertNested(Connection connection, TablePath path, Map<Object, Map<String, Object>> oracle)
            throws Exception {
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int id = 0; id < 200; id++) {
                writer.upsert(nestedRow(id, "v1-", oracle));
            }
            for (int id = 0; id < 200; id += 2) {
                writer.upsert(nestedRow(id, "v2-", oracle));
            }
            for (int id = 0; id < 200; id += 9) {
                writer.delete(nestedRow(id, "v2-", new HashMap<>()));
                oracle.remove(id);
            }
            writer.flush();
        }
    }

    /** Per bucket, the lake holds log offsets 0..n-1, each once: nothing lost, nothing tiered twice. */
    private static void assertEveryBucketHoldsEachOffsetOnce(LocalCluster cluster, TablePath path) throws Exception {
        int fields = LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> row.getFieldCount()).get(0);
        Map<Integer, List<Long>> offsets = new HashMap<>();
        // The lake appends __bucket, __offset, __timestamp after the table's columns.
        LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> new long[] {row.getInt(fields - 3), row.getLong(fields - 2)})
                .forEach(r -> offsets.computeIfAbsent((int) r[0], b -> new ArrayList<>()).add(r[1]));
        assertThat(offsets).isNotEmpty();
        offsets.forEach((bucket, list) -> {
            list.sort(null);
            for (int i = 0; i < list.size(); i++) {
                assertThat(list.get(i)).as("offset %s of bucket %s", i, bucket).isEqualTo((long) i);
            }
        });
    }
}
