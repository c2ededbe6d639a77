package dev.riffle.core.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.Riffle;
import dev.riffle.core.exception.InvalidAlterationException;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.ReadPath;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
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
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rows written before a column was added read back under the current schema, the added column
 * null: log tables (with projections the server can and cannot apply to old batches), a
 * primary-key table's changelog and current rows, and batches written after the reader's table
 * info was taken.
 */
@ExtendWith(LocalClusterExtension.class)
class SchemaEvolutionIT {
    private static final Schema FIRST = Schema.newBuilder()
            .column("id", DataTypes.INT())
            .column("v", DataTypes.STRING())
            .build();

    @Test
    void aLogTableReadsAcrossTwoAddedColumns(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("evolving_log");
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(FIRST).distributedBy(2).build(), false).get();
            append(connection, path, GenericRow.of(1, s("one")), GenericRow.of(2, s("two")));
            addColumn(admin, path, "n", DataTypes.BIGINT());
            append(connection, path, GenericRow.of(3, s("three"), 30L), GenericRow.of(4, null, null));
            addColumn(admin, path, "t", DataTypes.STRING());
            append(connection, path, GenericRow.of(5, s("five"), 50L, s("x")));
        }
        try (BufferAllocator allocator = new RootAllocator(); Riffle riffle = Riffle.using(connection, allocator)) {
            assertThat(riffle.table(path).info().getSchemaId()).isEqualTo(3);
            assertThat(rows(riffle.table(path).read())).containsExactly(
                    List.of("1", "one", "null", "null"),
                    List.of("2", "two", "null", "null"),
                    List.of("3", "three", "30", "null"),
                    List.of("4", "null", "null", "null"),
                    List.of("5", "five", "50", "x"));
            // Columns every schema had, in another order: the server projects each batch.
            assertThat(rows(riffle.table(path).read().columns("v", "id"))).containsExactly(
                    List.of("one", "1"), List.of("two", "2"), List.of("three", "3"), List.of("null", "4"),
                    List.of("five", "5"));
            // An added column: old batches lack it, so the projection is applied here.
            assertThat(rows(riffle.table(path).read().columns("t", "id"))).containsExactly(
                    List.of("null", "1"), List.of("null", "2"), List.of("null", "3"), List.of("null", "4"),
                    List.of("x", "5"));
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aReaderWhoseTableInfoIsOlderThanABatchDropsTheNewColumn(Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("newer_batches");
        try (Admin admin = connection.getAdmin(); BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator)) {
            admin.createTable(path, TableDescriptor.builder().schema(FIRST).distributedBy(1).build(), false).get();
            append(connection, path, GenericRow.of(1, s("one")));
            ReadBuilder before = riffle.table(path).read();
            addColumn(admin, path, "n", DataTypes.BIGINT());
            append(connection, path, GenericRow.of(2, s("two"), 20L));
            // The read was described before the change: it answers in the schema it knows.
            assertThat(rows(before)).containsExactly(List.of("1", "one"), List.of("2", "two"));
        }
    }

    @Test
    void aPrimaryKeyTableReadsItsChangelogAndCurrentRowsAcrossAnAddedColumn(Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("evolving_pk");
        Schema keyed = Schema.newBuilder().fromColumns(FIRST.getColumns()).primaryKey("id").build();
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(keyed).distributedBy(3).build(), false).get();
            upsert(connection, path, GenericRow.of(1, s("a")), GenericRow.of(2, s("b")), GenericRow.of(3, s("c")));
            addColumn(admin, path, "n", DataTypes.BIGINT());
            upsert(connection, path, GenericRow.of(2, s("b2"), 22L), GenericRow.of(4, s("d"), 44L));
        }
        try (BufferAllocator allocator = new RootAllocator(); Riffle riffle = Riffle.using(connection, allocator)) {
            ReadBuilder current = riffle.table(path).read();
            assertThat(current.path()).isEqualTo(ReadPath.SNAPSHOT_SCAN);
            assertThat(rows(current)).containsExactly(
                    List.of("1", "a", "null"), List.of("2", "b2", "22"), List.of("3", "c", "null"),
                    List.of("4", "d", "44"));
            List<List<String>> changes = rows(riffle.table(path).changelog().columns("id", "n", "v"));
            assertThat(changes).extracting(row -> row.subList(0, 4)).containsExactlyInAnyOrder(
                    List.of("1", "null", "a", "+I"), List.of("2", "null", "b", "+I"), List.of("3", "null", "c", "+I"),
                    List.of("2", "null", "b", "-U"), List.of("2", "22", "b2", "+U"), List.of("4", "44", "d", "+I"));
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void changesFlussWouldRefuseAreNamedAndNothingChanges(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("refused");
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(FIRST).distributedBy(1).build(), false).get();
            assertThatThrownBy(() -> TableAlteration.of(path, List.of(TableChange.addColumn("m",
                    DataTypes.INT().copy(false), null, TableChange.ColumnPosition.last()))))
                    .isInstanceOf(InvalidAlterationException.class)
                    .hasMessageContaining("'m'").hasMessageContaining("must be nullable");
            assertThatThrownBy(() -> TableAlteration.of(path, List.of()))
                    .isInstanceOf(InvalidAlterationException.class).hasMessageContaining("at least one change");
            assertThatThrownBy(() -> TableAlteration.of(path, List.of(TableChange.addColumn("v", DataTypes.INT(), null,
                    TableChange.ColumnPosition.last()))).apply(admin, false).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("v already exists");
            assertThatThrownBy(() -> TableAlteration.of(TablePath.of(path.getDatabaseName(), "missing"),
                    List.of(TableChange.set("table.datalake.freshness", "1min"))).apply(admin, false)
                    .get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class).hasMessageContaining("missing");
            assertThat(admin.getTableInfo(path).get().getSchemaId()).isEqualTo(1);
            assertThat(admin.getTableInfo(path).get().getSchema().getColumnNames()).containsExactly("id", "v");
        }
    }

    private static void addColumn(Admin admin, TablePath path, String name, org.apache.fluss.types.DataType type)
            throws Exception {
        TableAlteration.of(path, List.of(TableChange.addColumn(name, type, null, TableChange.ColumnPosition.last())))
                .apply(admin, false).get(30, TimeUnit.SECONDS);
    }

    private static BinaryString s(String value) {
        return BinaryString.fromString(value);
    }

    /** Appends through a handle opened now, so it writes with the table's current schema. */
    private static void append(Connection connection, TablePath path, GenericRow... rows) throws Exception {
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (GenericRow row : rows) {
                writer.append(row);
            }
            writer.flush();
        }
    }

    private static void upsert(Connection connection, TablePath path, GenericRow... rows) throws Exception {
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (GenericRow row : rows) {
                writer.upsert(row);
            }
            writer.flush();
        }
    }

    /** Every row as its cells' text, sorted by the first column that is a number. */
    static List<List<String>> rows(ReadBuilder read) {
        List<List<String>> rows = new ArrayList<>();
        try (TableReader reader = read.createReader()) {
            while (reader.hasNext()) {
                try (ReadBatch batch = reader.next()) {
                    VectorSchemaRoot root = batch.root();
                    for (int i = 0; i < root.getRowCount(); i++) {
                        List<String> row = new ArrayList<>();
                        for (FieldVector vector : root.getFieldVectors()) {
                            row.add(Objects.toString(vector.getObject(i)));
                        }
                        rows.add(row);
                    }
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        rows.sort((a, b) -> Integer.compare(idOf(a), idOf(b)));
        return rows;
    }

    private static int idOf(List<String> row) {
        return row.stream().filter(cell -> cell.matches("\\d+")).mapToInt(Integer::parseInt).findFirst()
                .orElse(Integer.MAX_VALUE);
    }
}
