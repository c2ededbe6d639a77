package dev.riffle.core.read;

import static dev.riffle.core.TestTables.EVENTS;
import static dev.riffle.core.TestTables.appendEvents;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.Riffle;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log whose oldest segments the tablet server has moved to remote storage and deleted locally:
 * a bounded read from the earliest offset reads them from the remote files, then the local log.
 */
class RemoteLogReadIT {

    @Test
    void readsSegmentsThatOnlyRemoteStorageStillHolds(@TempDir Path dataDir) throws Exception {
        TablePath path = TablePath.of("remote", "events");
        int rows = 60_000;
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false)
                        .serverConfig("log.segment.file-size", "128kb")
                        .serverConfig("remote.log.task-interval-duration", "1s")
                        .start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                BufferAllocator allocator = new RootAllocator()) {
            try (Admin admin = connection.getAdmin()) {
                admin.createDatabase("remote", DatabaseDescriptor.EMPTY, false).get();
                admin.createTable(path, TableDescriptor.builder().schema(EVENTS).distributedBy(1)
                        .property("table.log.tiered.local-segments", "1")
                        .property("table.log.arrow.compression.type", "NONE")
                        .build(), false).get();
            }
            appendEvents(connection, path, 0, rows, 500);
            // Wait until the first local segment is gone: offset 0 now lives only in remote storage.
            await().atMost(Duration.ofSeconds(60)).until(() -> !localFirstSegmentExists(dataDir, path)
                    && remoteSegmentCount(dataDir) > 0);

            try (Riffle riffle = Riffle.using(connection, allocator)) {
                List<Integer> ids = new ArrayList<>();
                long amountSum = 0;
                try (BoundedLogReader reader = riffle.table(path).read().columns("amount", "id").createLogReader()) {
                    long expectedOffset = 0;
                    while (reader.hasNext()) {
                        try (LogBatch batch = reader.next()) {
                            assertThat(batch.baseOffset()).isEqualTo(expectedOffset);
                            expectedOffset = batch.endOffset();
                            assertThat(batch.root().getSchema().getFields()).extracting(f -> f.getName())
                                    .containsExactly("amount", "id");
                            IntVector id = (IntVector) batch.root().getVector("id");
                            BigIntVector amount = (BigIntVector) batch.root().getVector("amount");
                            for (int i = 0; i < batch.rowCount(); i++) {
                                ids.add(id.get(i));
                                amountSum += amount.get(i);
                            }
                        }
                    }
                }
                assertThat(ids).containsExactlyElementsOf(IntStream.range(0, rows).boxed().collect(Collectors.toList()));
                assertThat(amountSum).isEqualTo(10L * rows * (rows - 1) / 2);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static boolean localFirstSegmentExists(Path dataDir, TablePath path) throws Exception {
        try (Stream<Path> files = Files.walk(dataDir.resolve("tablet-server-0"))) {
            return files.anyMatch(p -> p.toString().contains(path.getTableName())
                    && p.getFileName().toString().equals("00000000000000000000.log"));
        }
    }

    private static long remoteSegmentCount(Path dataDir) throws Exception {
        Path remote = dataDir.resolve("remote");
        if (!Files.exists(remote)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(remote)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".log")).count();
        }
    }
}
