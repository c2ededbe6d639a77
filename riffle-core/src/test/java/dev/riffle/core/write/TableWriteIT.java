package dev.riffle.core.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.Riffle;
import dev.riffle.core.TestTables;
import dev.riffle.core.exception.UnsupportedTableException;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.tables.TableHandles;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a {@link TableWrite} writes is what a read finds, whichever way the rows travel: a log
 * table's Arrow batches as Riffle-made log batches (a table the appender takes) or row by row
 * through Fluss's writer (a table with a bucket key), a primary-key table's rows upserted, written
 * in part and deleted; the acknowledgements count the rows.
 */
@ExtendWith(LocalClusterExtension.class)
class TableWriteIT {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

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

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aLogTablesArrowBatchesReadBackWhicheverWayTheyTravel(boolean bucketKey, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table(bucketKey ? "keyed_log" : "log");
        if (bucketKey) {
            TestTables.create(connection, path, TestTables.EVENTS, 2, "id");
        } else {
            TestTables.create(connection, path, TestTables.EVENTS, 2);
        }
        try (Riffle riffle = Riffle.using(connection, allocator); TableHandles handles = new TableHandles(riffle)) {
            TableInfo info = handles.info(path);
            assertThat(ArrowLogAppender.takes(info)).isEqualTo(!bucketKey);
            TableWrite write = handles.write(info).timeout(TIMEOUT).open();
            // The batches hold (amount, id, name): the layout names each column's field.
            int[] layout = {1, 2, 0};
            try (VectorSchemaRoot first = batch(1, 2, 3); VectorSchemaRoot second = batch(4, 5)) {
                write.batches(List.of(first, second), layout);
            }
            assertThat(write.acknowledgements().await(TIMEOUT, "rows written to " + path)).isEqualTo(5);

            assertThat(rows(riffle, path)).containsExactly("1 name-1 10", "2 name-2 20", "3 name-3 30",
                    "4 name-4 40", "5 name-5 50");
        }
    }

    @Test
    void aPrimaryKeyTablesRowsAreUpsertedWrittenInPartAndDeleted(Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("pk");
        TestTables.create(connection, path, org.apache.fluss.metadata.Schema.newBuilder()
                .fromSchema(TestTables.EVENTS).primaryKey("id").build(), 1);
        try (Riffle riffle = Riffle.using(connection, allocator); TableHandles handles = new TableHandles(riffle)) {
            TableInfo info = handles.info(path);
            TableWrite upserts = handles.write(info).open();
            upserts.rows(List.of(TestTables.event(1), TestTables.event(2), TestTables.event(3)));
            assertThat(upserts.acknowledgements().await(TIMEOUT, "rows written to " + path)).isEqualTo(3);

            // Only id and amount: id 1's name stays as it was. The delete follows before the
            // partial update is sent (one bucket): Fluss 0.9.1's client refuses to put records of
            // other target columns in the bucket's open batch, and the write sends that batch first.
            TableWrite partial = handles.write(info).columns(List.of("id", "amount")).open();
            partial.row(GenericRow.of(1, null, 99L));
            TableWrite delete = handles.write(info).delete().open();
            delete.row(GenericRow.of(2, null, null));
            assertThat(partial.acknowledgements().await(TIMEOUT, "rows written to " + path)).isEqualTo(1);
            assertThat(delete.acknowledgements().await(TIMEOUT, "rows deleted from " + path)).isEqualTo(1);

            assertThat(rows(riffle, path)).containsExactly("1 name-1 99", "3 name-3 30");
        }
    }

    @Test
    void aWriteSaysWhatATableCannotTake(Connection connection, TestNames names) throws Exception {
        TablePath log = names.table("log");
        TablePath pk = names.table("pk");
        TestTables.create(connection, log, TestTables.EVENTS, 1);
        TestTables.create(connection, pk, org.apache.fluss.metadata.Schema.newBuilder()
                .fromSchema(TestTables.EVENTS).primaryKey("id").build(), 1);
        try (Riffle riffle = Riffle.using(connection, allocator); TableHandles handles = new TableHandles(riffle)) {
            TableInfo logInfo = handles.info(log);
            assertThatThrownBy(() -> handles.write(logInfo).delete()).isInstanceOf(UnsupportedTableException.class)
                    .hasMessageContaining("append-only");
            assertThatThrownBy(() -> handles.write(logInfo).columns(List.of("id")))
                    .isInstanceOf(UnsupportedTableException.class).hasMessageContaining("written in part");
            TableWrite upsert = handles.write(handles.info(pk)).open();
            try (VectorSchemaRoot batch = batch(1)) {
                assertThatThrownBy(() -> upsert.batches(List.of(batch), new int[] {1, 2, 0}))
                        .isInstanceOf(UnsupportedTableException.class).hasMessageContaining("takes rows");
            }
            assertThat(upsert.acknowledgements().count()).isZero();
        }
    }

    /** Rows {@code ids} as (amount, id, name) vectors. */
    private VectorSchemaRoot batch(int... ids) {
        BigIntVector amount = new BigIntVector("amount", allocator);
        IntVector id = new IntVector("id", allocator);
        VarCharVector name = new VarCharVector("name", allocator);
        for (int i = 0; i < ids.length; i++) {
            amount.setSafe(i, ids[i] * 10L);
            id.setSafe(i, ids[i]);
            name.setSafe(i, ("name-" + ids[i]).getBytes(StandardCharsets.UTF_8));
        }
        VectorSchemaRoot root = new VectorSchemaRoot(List.<FieldVector>of(amount, id, name));
        root.setRowCount(ids.length);
        return root;
    }

    /** Every row of the table as "id name amount", in id order. */
    private static List<String> rows(Riffle riffle, TablePath path) throws Exception {
        List<String> rows = new ArrayList<>();
        try (TableReader reader = riffle.table(path).read().createReader()) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    VectorSchemaRoot root = batch.root();
                    for (int i = 0; i < root.getRowCount(); i++) {
                        rows.add(root.getVector("id").getObject(i) + " " + Objects.toString(
                                root.getVector("name").getObject(i)) + " " + root.getVector("amount").getObject(i));
                    }
                }
            }
        }
        rows.sort((a, b) -> Integer.compare(Integer.parseInt(a.split(" ")[0]), Integer.parseInt(b.split(" ")[0])));
        return rows;
    }
}
