package dev.riffle.lake.union;

import static dev.riffle.lake.union.UnionReadIT.tierUntilLakeHas;
import static dev.riffle.lake.union.UnionReadIT.unionRead;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.schema.TableAlteration;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A datalake table gains a column between two tiering rounds: Fluss adds it to the Paimon table too,
 * and the union read answers every row in the new schema, whether it comes from a lake snapshot
 * written before the change, the log after it, or a lake snapshot written after it.
 */
@ExtendWith(LocalClusterExtension.class)
class SchemaEvolutionUnionReadIT {

    @ParameterizedTest(name = "primary key: {0}")
    @ValueSource(booleans = {false, true})
    void unionReadsAnswerInTheNewSchemaBeforeAndAfterTieringTheChange(boolean primaryKey, LocalCluster cluster,
            Connection connection, TestNames names) throws Exception {
        TablePath path = names.table(primaryKey ? "evolving_pk" : "evolving_log");
        Schema.Builder schema = Schema.newBuilder().column("id", DataTypes.INT()).column("v", DataTypes.STRING());
        if (primaryKey) {
            schema.primaryKey("id");
        }
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema.build()).distributedBy(2, "id")
                    .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s").build(),
                    false).get();
            write(connection, path, primaryKey, GenericRow.of(1, s("a")), GenericRow.of(2, s("b")),
                    GenericRow.of(3, s("c")));
            tierUntilLakeHas(cluster, connection, path, 3);

            TableAlteration.of(path, List.of(TableChange.addColumn("n", DataTypes.BIGINT(), null,
                    TableChange.ColumnPosition.last()))).apply(admin, false).get(60, TimeUnit.SECONDS);
            write(connection, path, primaryKey, GenericRow.of(4, s("d"), 40L), GenericRow.of(2, s("b2"), 20L));
            List<String> expected = new ArrayList<>(primaryKey
                    ? List.of("1|a|null", "2|b2|20", "3|c|null", "4|d|40")
                    : List.of("1|a|null", "2|b|null", "2|b2|20", "3|c|null", "4|d|40"));
            expected.sort(null);

            try (BufferAllocator allocator = new RootAllocator(); Riffle riffle = Riffle.using(connection, allocator)) {
                // The lake snapshot predates the column; the log tail has it.
                assertThat(rows(unionRead(cluster, riffle, path).createReader())).isEqualTo(expected);
                assertThat(rows(unionRead(cluster, riffle, path).columns(List.of("n", "id")).createReader()))
                        .containsExactlyInAnyOrderElementsOf(expected.stream()
                                .map(row -> row.split("\\|")[2] + "|" + row.split("\\|")[0]).distinct().toList());

                tierUntilLakeHas(cluster, connection, path, primaryKey ? 6 : 5);
                // Now the lake holds rows of both schemas.
                assertThat(rows(unionRead(cluster, riffle, path).createReader())).isEqualTo(expected);
                assertThat(rows(unionRead(cluster, riffle, path).lakeOnly().createReader())).isEqualTo(expected);
                assertThat(allocator.getAllocatedMemory()).isZero();
            }
        }
    }

    private static BinaryString s(String value) {
        return BinaryString.fromString(value);
    }

    /** Writes through a handle opened now, so with the table's current schema. */
    private static void write(Connection connection, TablePath path, boolean primaryKey, GenericRow... rows)
            throws Exception {
        try (Table table = connection.getTable(path)) {
            if (primaryKey) {
                UpsertWriter writer = table.newUpsert().createWriter();
                for (GenericRow row : rows) {
                    writer.upsert(row);
                }
                writer.flush();
            } else {
                AppendWriter writer = table.newAppend().createWriter();
                for (GenericRow row : rows) {
                    writer.append(row);
                }
                writer.flush();
            }
        }
    }

    /** Rows as "a|b|c", sorted. */
    private static List<String> rows(TableReader reader) throws Exception {
        List<String> rows = new ArrayList<>();
        try (reader) {
            while (reader.hasNext()) {
                try (VectorSchemaRoot batch = reader.next().root()) {
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        List<String> cells = new ArrayList<>();
                        for (FieldVector vector : batch.getFieldVectors()) {
                            cells.add(Objects.toString(vector.getObject(i)));
                        }
                        rows.add(String.join("|", cells));
                    }
                }
            }
        }
        rows.sort(null);
        return rows;
    }
}
