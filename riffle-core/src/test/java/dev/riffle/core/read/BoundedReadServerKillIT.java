package dev.riffle.core.read;

import static dev.riffle.core.TestTables.EVENTS;
import static dev.riffle.core.TestTables.appendEvents;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.core.rpc.LogFetcher;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.local.ProcessCluster;
import java.nio.file.Path;
import java.util.BitSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded read in progress when the leader of a bucket it reads is killed with {@code kill -9}
 * (three tablet servers as processes, replication factor 3): the reader goes on from its last
 * offsets on the new leader, and every row comes exactly once.
 */
class BoundedReadServerKillIT {

    @Test
    void aReadGoesOnFromItsOffsetsOnTheNewLeader(@TempDir Path dataDir) throws Exception {
        TablePath path = TablePath.of("killed", "events");
        int rows = 60_000;
        try (ProcessCluster cluster = ProcessCluster.builder().dataDir(dataDir).tabletServers(3).start();
                FlussConnection connection = (FlussConnection) ConnectionFactory.createConnection(cluster.clientConfig());
                BufferAllocator allocator = new RootAllocator()) {
            long tableId;
            try (Admin admin = connection.getAdmin()) {
                admin.createDatabase("killed", DatabaseDescriptor.EMPTY, false).get();
                admin.createTable(path, TableDescriptor.builder().schema(EVENTS).distributedBy(3).build(), false).get();
                tableId = admin.getTableInfo(path).get().getTableId();
            }
            appendEvents(connection, path, 0, rows, 1_000);
            connection.getMetadataUpdater().updateTableOrPartitionMetadata(path, null);
            int leader = connection.getMetadataUpdater().getBucketLocation(new TableBucket(tableId, 0)).orElseThrow()
                    .getLeader();

            BitSet seen = new BitSet(rows);
            int duplicates = 0;
            long read = 0;
            boolean killed = false;
            // Small fetches, so that most of the read is still ahead when the leader goes.
            LogFetcher.Config small = new LogFetcher.Config(64 << 10, 16 << 10, 100, 256 << 10, 1);
            try (Riffle riffle = Riffle.using(connection, allocator);
                    BoundedLogReader reader = riffle.table(path).read().columns("id").fetchConfig(small)
                            .createLogReader()) {
                while (reader.hasNext()) {
                    try (LogBatch batch = reader.next()) {
                        IntVector id = (IntVector) batch.root().getVector(0);
                        for (int i = 0; i < batch.rowCount(); i++) {
                            if (seen.get(id.get(i))) {
                                duplicates++;
                            }
                            seen.set(id.get(i));
                        }
                        read += batch.rowCount();
                    }
                    if (!killed && read > rows / 10) {
                        cluster.killTabletServer(leader);
                        killed = true;
                    }
                }
            }
            assertThat(killed).as("the leader was killed while the read was under way").isTrue();
            assertThat(duplicates).as("rows read twice").isZero();
            assertThat(seen.cardinality()).as("distinct rows read").isEqualTo(rows);
            assertThat(read).isEqualTo(rows);
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }
}
