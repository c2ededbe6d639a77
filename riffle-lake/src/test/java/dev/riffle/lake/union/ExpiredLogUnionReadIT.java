package dev.riffle.lake.union;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.reader.TableReader;
import dev.riffle.core.Riffle;
import dev.riffle.lake.tiering.TieringService;
import dev.riffle.lake.tiering.TieringServiceIT;
import dev.riffle.local.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A table whose Fluss log has expired (short TTL) below what the lake holds: the union read still
 * returns every row, the old ones from the lake.
 */
class ExpiredLogUnionReadIT {

    @Test
    void readsCompletelyAfterTheLogExpiredBelowTheLakeOffsets(@TempDir Path dataDir) throws Exception {
        TablePath path = TablePath.of("ttl", "events");
        int rows = 60_000;
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0)
                        .serverConfig("log.segment.file-size", "128kb")
                        .serverConfig("remote.log.task-interval-duration", "1s")
                        .start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin();
                BufferAllocator allocator = new RootAllocator()) {
            admin.createDatabase("ttl", DatabaseDescriptor.EMPTY, false).get();
            admin.createTable(path, TableDescriptor.builder().schema(TieringServiceIT.LOG).distributedBy(1)
                    .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s")
                    .property("table.log.ttl", "1s").property("table.log.tiered.local-segments", "1")
                    .property("table.log.arrow.compression.type", "NONE").build(), false).get();
            // Many small batches, so the log rolls into many 128 KB segments that can be tiered and expire.
            try (Table table = connection.getTable(path)) {
                AppendWriter writer = table.newAppend().createWriter();
                for (int i = 0; i < rows; i++) {
                    writer.append(GenericRow.of(i, BinaryString.fromString("name-" + i)));
                    if (i % 200 == 199) {
                        writer.flush();
                    }
                }
                writer.flush();
            }
            try (TieringService tiering = TieringServiceIT.start(cluster)) {
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions().until(() ->
                        admin.getLatestLakeSnapshot(path).get().getTableBucketsOffset().values().iterator().next() >= rows);
                // The log expires below the lake offset once it has been tiered.
                await().atMost(Duration.ofSeconds(90)).until(() ->
                        admin.listOffsets(path, List.of(0), new OffsetSpec.EarliestSpec()).all().get().get(0) > 0);
            }
            long earliest = admin.listOffsets(path, List.of(0), new OffsetSpec.EarliestSpec()).all().get().get(0);
            Set<Integer> ids = new HashSet<>();
            try (Riffle riffle = Riffle.using(connection, allocator);
                    TableReader reader = UnionReadIT.unionRead(cluster, riffle, path).createReader()) {
                while (reader.hasNext()) {
                    try (VectorSchemaRoot batch = reader.next().root()) {
                        for (int i = 0; i < batch.getRowCount(); i++) {
                            assertThat(ids.add((Integer) batch.getVector("id").getObject(i))).isTrue();
                        }
                    }
                }
            }
            assertThat(earliest).as("the log no longer starts at 0").isPositive();
            assertThat(ids).hasSize(rows).containsAll(TieringServiceIT.range(0, rows));
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }
}
