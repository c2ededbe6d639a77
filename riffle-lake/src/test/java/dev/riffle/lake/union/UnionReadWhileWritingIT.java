package dev.riffle.lake.union;

import static dev.riffle.lake.tiering.TieringServiceIT.LOG;
import static dev.riffle.lake.tiering.TieringServiceIT.createLakeTable;
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
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Union reads while a writer appends and the tiering service commits lake snapshots underneath. */
@ExtendWith(LocalClusterExtension.class)
class UnionReadWhileWritingIT {

    @Test
    void everyReadHasEveryAcknowledgedRowOnce(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("busy");
        createLakeTable(connection, path, LOG, 3);
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try (Table table = connection.getTable(path)) {
                AppendWriter append = table.newAppend().createWriter();
                int next = 0;
                while (!stop.get()) {
                    int batchEnd = next + 200;
                    for (; next < batchEnd; next++) {
                        append.append(GenericRow.of(next, BinaryString.fromString("name-" + next)));
                    }
                    append.flush(); // every row below `next` is acknowledged now
                    acknowledged.set(next);
                    // A steady trickle (~10k rows/s), not a flood: the reads should stay short.
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
            } catch (Throwable e) {
                writerFailure.set(e);
            }
        });
        writer.start();
        int reads = 0;
        try (TieringService tiering = TieringServiceIT.start(cluster);
                BufferAllocator allocator = new RootAllocator();
                Riffle riffle = Riffle.using(connection, allocator)) {
            await().atMost(Duration.ofSeconds(60)).until(() -> !tiering.tieredTables().isEmpty());
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            boolean sawLake = false;
            while (System.nanoTime() < deadline || !sawLake || reads < 5) {
                int before = acknowledged.get();
                Set<Integer> ids = new HashSet<>();
                try (TableReader reader = UnionReadIT.unionRead(cluster, riffle, path).createReader()) {
                    sawLake |= reader.lakeSnapshotId().isPresent();
                    while (reader.hasNext()) {
                        try (VectorSchemaRoot batch = reader.next().root()) {
                            for (int i = 0; i < batch.getRowCount(); i++) {
                                Integer id = (Integer) batch.getVector("id").getObject(i);
                                assertThat(ids.add(id)).as("id %s read twice in read %s", id, reads).isTrue();
                            }
                        }
                    }
                }
                int after = acknowledged.get();
                // Everything acknowledged before the read began is there; nothing beyond what was written.
                for (int id = 0; id < before; id++) {
                    assertThat(ids).as("read %s misses id %s", reads, id).contains(id);
                }
                assertThat(ids).allMatch(id -> id < after + 200);
                reads++;
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        } finally {
            stop.set(true);
            writer.join();
        }
        assertThat(writerFailure.get()).isNull();
        assertThat(reads).isGreaterThanOrEqualTo(5);
    }
}
