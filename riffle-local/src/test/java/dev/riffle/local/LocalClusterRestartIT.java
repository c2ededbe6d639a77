package dev.riffle.local;

import static dev.riffle.local.FlussRows.append;
import static dev.riffle.local.FlussRows.lookup;
import static dev.riffle.local.FlussRows.readLog;
import static dev.riffle.local.FlussRows.upsert;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The data directory persists: stop the cluster, start it again, and everything is still there. */
class LocalClusterRestartIT {
    private static final Schema LOG_SCHEMA = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();
    private static final Schema PK_SCHEMA = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).primaryKey("id").build();

    @Test
    void databasesTablesAndRowsSurviveARestart(@TempDir Path dataDir) throws Exception {
        TablePath logTable = TablePath.of("shop", "events");
        TablePath pkTable = TablePath.of("shop", "customers");

        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase("shop", DatabaseDescriptor.EMPTY, false).get();
            admin.createTable(logTable, TableDescriptor.builder().schema(LOG_SCHEMA).distributedBy(2).build(), false).get();
            admin.createTable(pkTable, TableDescriptor.builder().schema(PK_SCHEMA).distributedBy(2, "id").build(), false).get();
            append(connection, logTable, 0, 500);
            upsert(connection, pkTable, 0, 100, "v1-");
            upsert(connection, pkTable, 50, 100, "v2-");
        }

        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            assertThat(admin.listDatabases().get()).contains("shop");
            assertThat(admin.listTables("shop").get()).containsExactlyInAnyOrder("events", "customers");

            List<String> expectedLog = IntStream.range(0, 500).mapToObj(i -> i + ":name-" + i).collect(Collectors.toList());
            assertThat(readLog(connection, logTable, 2, 500)).containsExactlyInAnyOrderElementsOf(expectedLog);

            assertThat(lookup(connection, pkTable, 7)).isEqualTo("7:v1-7");
            assertThat(lookup(connection, pkTable, 77)).isEqualTo("77:v2-77");
            assertThat(lookup(connection, pkTable, 100)).isNull();
            // The PK table's changelog also survives: 100 inserts, then 50 updates (-U, +U each).
            assertThat(readLog(connection, pkTable, 2, 200)).hasSize(200);
        }
    }
}
