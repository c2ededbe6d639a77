package dev.riffle.lake.union;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.core.Riffle;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.lake.S3ProxyServer;
import dev.riffle.local.LocalCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fluss's remote storage on object storage: servers with {@code remote.data.dir} on S3 (S3Proxy),
 * given Fluss's own S3 options, move log segments and KV snapshots there; Riffle, whose client
 * carries the same options after {@code client.fs.}, reads both back from S3 through Fluss's S3
 * plugin, loaded apart from the class path ({@code IsolatedFileSystemPlugin}).
 */
class RemoteStorageOnObjectStorageIT {
    private static final String BUCKET = "fluss-remote";
    private static final Schema EVENTS = Schema.newBuilder().column("id", DataTypes.INT())
            .column("name", DataTypes.STRING()).column("amount", DataTypes.BIGINT()).build();
    private static final Schema KEYED = Schema.newBuilder().column("id", DataTypes.INT())
            .column("round", DataTypes.INT()).column("note", DataTypes.STRING()).primaryKey("id").build();
    /** Makes each change ~100 bytes, so the rounds fill several 128 KiB segments that expire. */
    private static final String NOTE = "n".repeat(100);

    @TempDir
    static Path dir;
    static S3ProxyServer s3;
    static LocalCluster cluster;
    static Connection connection;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3ProxyServer.start(BUCKET);
        LocalCluster.Builder builder = LocalCluster.builder().dataDir(dir.resolve("cluster")).coordinatorPort(0)
                .lakeEnabled(false)
                .serverConfig("remote.data.dir", s3.uri("remote"))
                .serverConfig("log.segment.file-size", "128kb")
                .serverConfig("remote.log.task-interval-duration", "1s")
                .serverConfig("kv.snapshot.interval", "1s");
        s3.options().forEach(builder::serverConfig);
        cluster = builder.start();
        assertThat(cluster.clientConfig().toMap()).as("the client's file system options")
                .containsEntry("client.fs.s3.endpoint", s3.endpoint())
                .containsEntry("client.fs.s3.access-key", S3ProxyServer.ACCESS_KEY);
        connection = ConnectionFactory.createConnection(cluster.clientConfig());
        try (Admin admin = connection.getAdmin()) {
            admin.createDatabase("remote_s3", DatabaseDescriptor.EMPTY, true).get();
        }
    }

    @AfterAll
    static void stop() throws Exception {
        try (S3ProxyServer closingS3 = s3; LocalCluster closingCluster = cluster; Connection closing = connection) {
            // closed in reverse order: the connection, the cluster, S3Proxy
        }
    }

    @Test
    void aBoundedReadFromTheStartReadsTheSegmentsOnlyS3StillHolds() throws Exception {
        TablePath path = TablePath.of("remote_s3", "events");
        int rows = 60_000;
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(EVENTS).distributedBy(1)
                    .property("table.log.tiered.local-segments", "1")
                    .property("table.log.arrow.compression.type", "NONE").build(), false).get();
        }
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < rows; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("event-" + i), 10L * i));
                if ((i + 1) % 500 == 0) {
                    writer.flush();
                }
            }
            writer.flush();
        }
        // Offset 0 now lives only in S3: its local segment is gone, and the bucket's objects are there.
        await().atMost(Duration.ofSeconds(60)).until(() -> !localFirstSegmentExists(path)
                && s3.objectsUnder("remote/log/").stream().anyMatch(name -> name.endsWith(".log")));
        assertThat(dir.resolve("cluster").resolve("remote")).as("no local remote directory").doesNotExist();

        try (BufferAllocator allocator = new RootAllocator()) {
            List<Integer> ids = new ArrayList<>();
            long amountSum = 0;
            try (Riffle riffle = Riffle.using(connection, allocator);
                    BoundedLogReader reader = riffle.table(path).read().columns("amount", "id").createLogReader()) {
                long expectedOffset = 0;
                while (reader.hasNext()) {
                    try (LogBatch batch = reader.next()) {
                        assertThat(batch.baseOffset()).isEqualTo(expectedOffset);
                        expectedOffset = batch.endOffset();
                        IntVector id = (IntVector) batch.root().getVector("id");
                        BigIntVector amount = (BigIntVector) batch.root().getVector("amount");
                        for (int i = 0; i < batch.rowCount(); i++) {
                            ids.add(id.get(i));
                            amountSum += amount.get(i);
                        }
                    }
                }
            }
            assertThat(ids).containsExactlyElementsOf(IntStream.range(0, rows).boxed().toList());
            assertThat(amountSum).isEqualTo(10L * rows * (rows - 1) / 2);
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void currentRowsComeFromKvSnapshotsInS3AfterTheLogThatWroteThemExpired() throws Exception {
        TablePath path = TablePath.of("remote_s3", "keyed");
        int keys = 2_000;
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(KEYED).distributedBy(2, "id")
                    .property("table.log.ttl", "1s")
                    .property("table.log.tiered.local-segments", "1")
                    .property("table.log.arrow.compression.type", "NONE").build(), false).get();
        }
        // Every key once, then only the even keys again and again: the odd keys' one write expires
        // with the oldest segments, so only the snapshots in S3 still know them.
        Map<Integer, Integer> oracle = new TreeMap<>();
        try (Table table = connection.getTable(path)) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int round = 0; round <= 12; round++) {
                for (int id = 0; id < keys; id += round == 0 ? 1 : 2) {
                    writer.upsert(GenericRow.of(id, round, BinaryString.fromString(NOTE)));
                    oracle.put(id, round);
                }
                writer.flush();
            }
        }
        try (Admin admin = connection.getAdmin()) {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> earliestOffsets(admin, path).values().stream().allMatch(offset -> offset > 0)
                            && snapshotsCoverTheLog(admin, path));
        }
        assertThat(s3.objectsUnder("remote/kv/")).as("KV snapshot files in S3").isNotEmpty();

        try (BufferAllocator allocator = new RootAllocator()) {
            Map<Integer, Integer> rows = new TreeMap<>();
            try (Riffle riffle = Riffle.using(connection, allocator);
                    TableReader reader = riffle.table(path).read().columns("id", "round").createReader()) {
                while (reader.hasNext()) {
                    try (ReadBatch batch = reader.next()) {
                        IntVector id = (IntVector) batch.root().getVector("id");
                        IntVector round = (IntVector) batch.root().getVector("round");
                        for (int i = 0; i < batch.rowCount(); i++) {
                            assertThat(rows.put(id.get(i), round.get(i))).as("key %s once", id.get(i)).isNull();
                        }
                    }
                }
            }
            assertThat(rows).isEqualTo(oracle);
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static boolean localFirstSegmentExists(TablePath path) throws Exception {
        try (Stream<Path> files = Files.walk(dir.resolve("cluster").resolve("tablet-server-0"))) {
            return files.anyMatch(p -> p.toString().contains(path.getTableName())
                    && p.getFileName().toString().equals("00000000000000000000.log"));
        }
    }

    private static Map<Integer, Long> earliestOffsets(Admin admin, TablePath path) throws Exception {
        return admin.listOffsets(path, List.of(0, 1), new OffsetSpec.EarliestSpec()).all().get();
    }

    private static boolean snapshotsCoverTheLog(Admin admin, TablePath path) throws Exception {
        Map<Integer, Long> latest = admin.listOffsets(path, List.of(0, 1), new OffsetSpec.LatestSpec()).all().get();
        KvSnapshots snapshots = admin.getLatestKvSnapshots(path).get();
        return latest.entrySet().stream()
                .allMatch(entry -> snapshots.getLogOffset(entry.getKey()).orElse(-1) >= entry.getValue());
    }
}
