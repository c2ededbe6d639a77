package dev.riffle.lake.union;

import static dev.riffle.lake.tiering.TieringServiceIT.PK;
import static dev.riffle.lake.tiering.TieringServiceIT.createLakeTable;
import static dev.riffle.lake.union.UnionReadIT.tierUntilLakeHas;
import static dev.riffle.lake.union.UnionReadIT.unionRead;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.core.reader.TableReader;
import dev.riffle.lake.LakeTables;
import dev.riffle.lake.S3ProxyServer;
import dev.riffle.local.LocalCluster;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lake on object storage: a cluster whose Paimon warehouse is {@code s3://}, served by S3Proxy
 * (a real S3 API server, here over jclouds' in-memory store) on loopback, given only the options Paimon users
 * already know ({@code s3.endpoint}, {@code s3.access-key}, {@code s3.secret-key},
 * {@code s3.path.style.access}). Tiering writes the lake there, Riffle's union read merges it with
 * the log, and Paimon's own reader reads the same table back from S3.
 */
class LakeOnObjectStorageIT {
    private static final String BUCKET = "riffle-lake";

    @TempDir
    static Path dir;
    static S3ProxyServer s3;
    static LocalCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        s3 = S3ProxyServer.start(BUCKET);
        LocalCluster.Builder builder = LocalCluster.builder().dataDir(dir.resolve("cluster")).coordinatorPort(0)
                .lakeOption("warehouse", s3.uri("warehouse"));
        s3.options().forEach(builder::lakeOption);
        cluster = builder.start();
    }

    @AfterAll
    static void stop() throws Exception {
        try (S3ProxyServer closing = s3) {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void tieringWritesTheLakeToS3AndTheUnionReadMergesTheLogTailOverIt() throws Exception {
        assertThat(cluster.lakeCatalogOptions()).containsEntry("warehouse", "s3://" + BUCKET + "/warehouse")
                .containsEntry("s3.path.style.access", "true");
        TablePath path = TablePath.of("s3_lake", "pk");
        Map<Integer, String> oracle = new TreeMap<>();
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                BufferAllocator allocator = new RootAllocator()) {
            connection.getAdmin().createDatabase(path.getDatabaseName(),
                    org.apache.fluss.metadata.DatabaseDescriptor.EMPTY, true).get();
            createLakeTable(connection, path, PK, 2, "id");
            upsert(connection, 0, 300, "lake", oracle);
            tierUntilLakeHas(cluster, connection, path, 300);

            // The lake is on S3: Paimon's own reader, given the same options, reads the tiered rows from there.
            Map<Integer, String> lake = new TreeMap<>();
            LakeTables.rows(cluster.lakeCatalogOptions(), path, row -> Map.entry(row.getInt(0),
                    row.getString(1).toString())).forEach(entry -> lake.put(entry.getKey(), entry.getValue()));
            assertThat(lake).isEqualTo(oracle);
            List<String> objects = s3.objectsUnder("warehouse/" + path.getDatabaseName() + ".db/" + path.getTableName());
            assertThat(objects).as("the table's files in the S3 bucket")
                    .anySatisfy(name -> assertThat(name).contains("/snapshot/snapshot-"))
                    .anySatisfy(name -> assertThat(name).contains("/bucket-").contains("data-"));
            assertThat(cluster.lakeWarehouse()).as("no local warehouse").doesNotExist();

            // Updates, deletes and new keys in the log tail merge over the lake snapshot read from S3.
            try (Table table = connection.getTable(path)) {
                UpsertWriter writer = table.newUpsert().createWriter();
                for (int id = 0; id < 300; id += 4) {
                    writer.upsert(GenericRow.of(id, BinaryString.fromString("tail-" + id)));
                    oracle.put(id, "tail-" + id);
                }
                for (int id = 1; id < 300; id += 9) {
                    writer.delete(GenericRow.of(id, BinaryString.fromString(oracle.remove(id))));
                }
                writer.flush();
            }
            upsert(connection, 300, 350, "new", oracle);
            try (Riffle riffle = Riffle.using(connection, allocator);
                    TableReader reader = unionRead(cluster, riffle, path).createReader()) {
                assertThat(reader.lakeSnapshotId()).isPresent();
                assertThat(UnionReadIT.namesById(reader)).isEqualTo(oracle);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static void upsert(Connection connection, int from, int to, String prefix, Map<Integer, String> oracle)
            throws Exception {
        try (Table table = connection.getTable(TablePath.of("s3_lake", "pk"))) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int id = from; id < to; id++) {
                writer.upsert(GenericRow.of(id, BinaryString.fromString(prefix + "-" + id)));
                oracle.put(id, prefix + "-" + id);
            }
            writer.flush();
        }
    }
}
