package dev.riffle.core.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.TestTables;
import dev.riffle.core.rpc.FetchedRecords;
import dev.riffle.core.rpc.LogFetcher;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * FetchLog responses of the embedded Fluss 0.9.1 cluster, as Riffle's fetcher receives them:
 * unprojected ones carry magic-0 batches whose CRCs hold, projected ones carry the writer's CRC
 * over bytes the server no longer sends — which is why {@link LogBytesSource} exists.
 */
@ExtendWith(LocalClusterExtension.class)
class ServerLogBytesIT {
    private static final int ROWS = 300;

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
    void unprojectedLogTableBatchesPassTheirCrcAndDecode(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("crc_log");
        TestTables.create(connection, path, TestTables.EVENTS, 1);
        TestTables.appendEvents(connection, path, 0, ROWS, 70);
        RowType rowType = TestTables.EVENTS.getRowType();

        List<List<Object>> rows = new ArrayList<>();
        fetchAll(connection, path, Optional.empty(), ROWS, fetched -> {
            List<LogBatchHeader> headers = LogRecordsParser.parse(fetched.records(), LogBytesSource.AS_WRITTEN);
            assertThat(headers).isEqualTo(fetched.batches());
            for (LogBatchHeader header : headers) {
                assertThat(header.magic()).as("what a 0.9.1 cluster stores").isZero();
                assertThat(header.appendOnly()).isTrue();
                rows.addAll(decode(fetched, header, rowType));
            }
        });
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            expected.add(List.of(i, "name-" + i, i * 10L));
        }
        assertThat(rows).isEqualTo(expected);
    }

    @Test
    void unprojectedChangelogBatchesPassTheirCrcAndCarryChangeTypes(Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("crc_changelog");
        Schema schema = Schema.newBuilder()
                .column("id", DataTypes.INT()).column("name", DataTypes.STRING())
                .primaryKey("id").build();
        TestTables.create(connection, path, schema, 1);
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            writer.upsert(GenericRow.of(1, BinaryString.fromString("a"))).get(30, TimeUnit.SECONDS);
            writer.upsert(GenericRow.of(1, BinaryString.fromString("b"))).get(30, TimeUnit.SECONDS);
            writer.delete(GenericRow.of(1, BinaryString.fromString("b"))).get(30, TimeUnit.SECONDS);
        }

        List<String> changeTypes = new ArrayList<>();
        List<List<Object>> rows = new ArrayList<>();
        fetchAll(connection, path, Optional.empty(), 4, fetched -> {
            for (LogBatchHeader header : LogRecordsParser.parse(fetched.records(), LogBytesSource.AS_WRITTEN)) {
                assertThat(header.magic()).isZero();
                assertThat(header.appendOnly()).isFalse();
                for (int i = 0; i < header.recordCount(); i++) {
                    byte changeType = fetched.records().get(header.changeTypesPosition() + i);
                    changeTypes.add(ChangeType.fromByteValue(changeType).shortString());
                }
                rows.addAll(decode(fetched, header, schema.getRowType()));
            }
        });
        assertThat(changeTypes).containsExactly("+I", "-U", "+U", "-D");
        assertThat(rows).containsExactly(List.of(1, "a"), List.of(1, "a"), List.of(1, "b"), List.of(1, "b"));
    }

    @Test
    void projectedBatchesKeepTheWritersCrcSoOnlyTheirStructureIsChecked(Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("crc_projected");
        TestTables.create(connection, path, TestTables.EVENTS, 1);
        TestTables.appendEvents(connection, path, 0, ROWS, 100);
        int[] projected = {0, 2};
        RowType projectedType = TestTables.EVENTS.getRowType().project(projected);

        List<List<Object>> rows = new ArrayList<>();
        fetchAll(connection, path, Optional.of(projected), ROWS, fetched -> {
            assertThat(fetched.serverProjected()).isTrue();
            assertThatThrownBy(() -> LogRecordsParser.parse(fetched.records(), LogBytesSource.AS_WRITTEN))
                    .isInstanceOf(CorruptLogException.class)
                    .hasMessageContaining("fails its CRC-32C check");
            for (LogBatchHeader header : LogRecordsParser.parse(fetched.records(), LogBytesSource.SERVER_PROJECTED)) {
                rows.addAll(decode(fetched, header, projectedType));
            }
        });
        List<List<Object>> expected = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            expected.add(List.of(i, i * 10L));
        }
        assertThat(rows).isEqualTo(expected);
    }

    private List<List<Object>> decode(FetchedRecords fetched, LogBatchHeader header, RowType rowType) {
        ArrowBatchDecoder decoder = new ArrowBatchDecoder(allocator, ArrowTypeMapping.toArrowSchema(rowType));
        try (VectorSchemaRoot root = decoder.decode(fetched.records(), header)) {
            return ArrowValues.rows(root, rowType);
        }
    }

    /**
     * Hands every response for bucket 0 to {@code check} until {@code records} records were fetched,
     * while the fetcher is open (the responses point into its RPC buffers).
     */
    private static void fetchAll(Connection connection, TablePath path, Optional<int[]> projection, int records,
            Consumer<FetchedRecords> check) throws Exception {
        TableInfo table;
        try (Admin admin = connection.getAdmin()) {
            table = admin.getTableInfo(path).get(30, TimeUnit.SECONDS);
        }
        try (LogFetcher fetcher = new LogFetcher((FlussConnection) connection, table, projection,
                LogFetcher.Config.DEFAULT)) {
            TableBucket bucket = new TableBucket(table.getTableId(), 0);
            fetcher.assign(bucket, 0);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            int fetched = 0;
            while (fetched < records) {
                assertThat(System.nanoTime()).as("fetched %s of %s records in time", fetched, records)
                        .isLessThan(deadline);
                for (FetchedRecords response : fetcher.poll(Duration.ofMillis(500))) {
                    check.accept(response);
                    fetched += response.batches().stream().mapToInt(LogBatchHeader::recordCount).sum();
                }
            }
        }
    }
}
