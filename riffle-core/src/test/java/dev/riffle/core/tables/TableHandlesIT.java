package dev.riffle.core.tables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.Riffle;
import dev.riffle.core.schema.TableAlteration;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableChange;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Values made from a table version's metadata are made once per version while the session keeps
 * its handle, and made again from the new metadata once the table is altered (and its old handle
 * closed); a request holding the old metadata after that does not close the newer handle.
 */
@ExtendWith(LocalClusterExtension.class)
class TableHandlesIT {

    @Test
    void derivedValuesAreMadeOncePerTableVersion(Connection connection, TestNames names) throws Exception {
        TablePath path = names.table("derived");
        AtomicInteger made = new AtomicInteger();
        SchemaDerived<List<String>> columns = SchemaDerived.of("columns", info -> {
            made.incrementAndGet();
            return info.getRowType().getFieldNames();
        });
        try (Admin admin = connection.getAdmin(); BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator);
                TableHandles handles = new TableHandles(riffle)) {
            admin.createTable(path, TableDescriptor.builder()
                    .schema(Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING())
                            .primaryKey("id").build())
                    .distributedBy(1).build(), false).get(30, TimeUnit.SECONDS);

            TableInfo first = handles.info(path);
            assertThat(handles.derived(first, columns)).containsExactly("id", "v");
            // The same version's metadata, asked for again (another object after a second): not made again.
            TableInfo fetchedAgain = admin.getTableInfo(path).get(30, TimeUnit.SECONDS);
            assertThat(fetchedAgain).isNotSameAs(first);
            assertThat(handles.derived(fetchedAgain, columns)).containsExactly("id", "v");
            assertThat(made).hasValue(1);
            assertThat(handles.openHandles()).isEqualTo(1);

            TableAlteration.of(path, List.of(TableChange.addColumn("n", DataTypes.BIGINT(), null,
                    TableChange.ColumnPosition.last()))).apply(admin, false).get(30, TimeUnit.SECONDS);
            // Within a second the session notices the new schema, whose values are made from it.
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> handles.info(path).getSchemaId() != first.getSchemaId());
            TableInfo altered = handles.info(path);
            assertThat(handles.derived(altered, columns)).containsExactly("id", "v", "n");
            assertThat(made).hasValue(2);
            assertThat(handles.openHandles()).as("the old version's handle is closed").isEqualTo(1);
            assertThat(handles.tablesClosed()).isEqualTo(1);

            // A request that took the metadata before the alteration comes late: it gets a handle
            // (and values) of its own version, and the newer handle stays open for everyone else.
            assertThat(handles.derived(first, columns)).containsExactly("id", "v");
            assertThat(handles.openHandles()).isEqualTo(2);
            assertThat(handles.tablesClosed()).as("the newer handle is not closed by a late request").isEqualTo(1);
            assertThat(handles.derived(altered, columns)).containsExactly("id", "v", "n");
            assertThat(made).as("one make per version and handle").hasValue(3);
            assertThat(handles.openHandles()).isEqualTo(2);
        }
    }
}
