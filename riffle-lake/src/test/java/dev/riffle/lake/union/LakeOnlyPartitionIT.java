package dev.riffle.lake.union;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.reader.TableReader;
import dev.riffle.core.Riffle;
import dev.riffle.lake.tiering.TieringService;
import dev.riffle.lake.tiering.TieringServiceIT;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** A partition dropped from Fluss after it was tiered is still read, from the lake alone. */
@ExtendWith(LocalClusterExtension.class)
class LakeOnlyPartitionIT {

    @Test
    void aPartitionOnlyTheLakeHasIsReadFromTheLake(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("by_day");
        Schema schema = Schema.newBuilder().column("day", DataTypes.STRING()).column("id", DataTypes.INT()).build();
        Map<String, String> expected = new TreeMap<>();
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(2).partitionedBy("day")
                    .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s").build(),
                    false).get();
            try (Table table = connection.getTable(path)) {
                AppendWriter writer = table.newAppend().createWriter();
                for (int i = 0; i < 100; i++) {
                    String day = i % 2 == 0 ? "old" : "new";
                    writer.append(GenericRow.of(BinaryString.fromString(day), i));
                    expected.put(day + "/" + i, day);
                }
                writer.flush();
            }
            try (TieringService tiering = TieringServiceIT.start(cluster)) {
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() ->
                        admin.getReadableLakeSnapshot(path).get().getTableBucketsOffset().values().stream()
                                .mapToLong(Long::longValue).sum() >= 100);
            }
            admin.dropPartition(path, new PartitionSpec(Map.of("day", "old")), false).get();
            assertThat(admin.listPartitionInfos(path).get()).extracting(p -> p.getPartitionName()).containsExactly("new");
        }
        Map<String, String> rows = new TreeMap<>();
        try (BufferAllocator allocator = new RootAllocator(); Riffle riffle = Riffle.using(connection, allocator);
                TableReader reader = UnionReadIT.unionRead(cluster, riffle, path).createReader()) {
            while (reader.hasNext()) {
                try (VectorSchemaRoot batch = reader.next().root()) {
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        String day = batch.getVector("day").getObject(i).toString();
                        assertThat(rows.put(day + "/" + batch.getVector("id").getObject(i), day)).isNull();
                    }
                }
            }
        }
        assertThat(rows).isEqualTo(expected);
    }
}
