package dev.riffle.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.google.protobuf.Any;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.adbc.core.AdbcConnection;
import org.apache.arrow.adbc.core.AdbcDatabase;
import org.apache.arrow.adbc.core.AdbcDriver;
import org.apache.arrow.adbc.core.AdbcStatement;
import org.apache.arrow.adbc.core.BulkIngestMode;
import org.apache.arrow.adbc.driver.flightsql.FlightSqlDriver;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.PutResult;
import org.apache.arrow.flight.SyncPutListener;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest;
import org.apache.arrow.flight.sql.impl.FlightSql.CommandStatementIngest.TableDefinitionOptions;
import org.apache.arrow.flight.sql.impl.FlightSql.DoPutUpdateResult;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Rows arriving as Arrow: ADBC's Java driver (its bulk ingest is a prepared INSERT bound with
 * whole batches) loading a million rows into a log table and into a primary-key table, read back
 * identically through ADBC; Flight SQL's own bulk ingest command with its create, append, replace
 * and fail options; a stream that does not fit the table writes nothing.
 */
@ExtendWith({LocalClusterExtension.class, FlightServerExtension.class})
class FlightIngestIT {
    private static final int ROWS = 1_000_000;
    private static final int BATCH = 100_000;

    private FlightSqlServer server;

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    @Test
    void adbcLoadsAMillionRowsIntoALogTableAndAPrimaryKeyTableAndReadsThemBack(FlightSqlServer server,
            TestNames names) throws Exception {
        this.server = server;
        String db = names.database("adbc");
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id BIGINT, name STRING, score DOUBLE)"
                    + " WITH ('bucket.num' = '4')");
            statement.execute("CREATE TABLE " + db + ".users (id BIGINT, name STRING, score DOUBLE,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4')");
        }
        try (BufferAllocator allocator = new RootAllocator()) {
            Map<String, Object> parameters = new HashMap<>();
            AdbcDriver.PARAM_URI.set(parameters, "grpc://127.0.0.1:" + server.port());
            try (AdbcDatabase database = new FlightSqlDriver(allocator).open(parameters);
                    AdbcConnection connection = database.connect()) {
                for (String table : new String[] {"events", "users"}) {
                    long loaded = 0;
                    try (VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                            java.util.List.of(field("id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)),
                                    field("name", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE),
                                    field("score", new org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint(
                                            org.apache.arrow.vector.types.FloatingPointPrecision.DOUBLE)))), allocator)) {
                        for (int start = 0; start < ROWS; start += BATCH) {
                            fill(root, start, BATCH);
                            try (AdbcStatement ingest = connection.bulkIngest(db + "." + table, BulkIngestMode.APPEND)) {
                                ingest.bind(root);
                                loaded += ingest.executeUpdate().getAffectedRows();
                            }
                        }
                    }
                    assertThat(loaded).isEqualTo(ROWS);
                    assertReadBack(connection, db + "." + table);
                }
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void flightSqlBulkIngestCreatesAppendsReplacesAndRefuses(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("ingest");
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
        }
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build();
                VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                        java.util.List.of(field("id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)),
                                field("name", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))), allocator)) {
            TableDefinitionOptions create = options(TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE,
                    TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_FAIL);
            assertThat(ingest(client, root, db, "fresh", create, 0, 10, 10, 10)).isEqualTo(20);
            FlightRuntimeException exists = org.junit.jupiter.api.Assertions.assertThrows(FlightRuntimeException.class,
                    () -> ingest(client, root, db, "fresh", create, 100, 5));
            assertThat(exists.status().code()).isEqualTo(FlightStatusCode.ALREADY_EXISTS);

            TableDefinitionOptions append = options(TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL,
                    TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_APPEND);
            assertThat(ingest(client, root, db, "fresh", append, 20, 5)).isEqualTo(5);
            FlightRuntimeException missing = org.junit.jupiter.api.Assertions.assertThrows(FlightRuntimeException.class,
                    () -> ingest(client, root, db, "absent", append, 0, 5));
            assertThat(missing.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
            assertThat(count(server, db + ".fresh")).isEqualTo(25);

            TableDefinitionOptions replace = options(TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE,
                    TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_REPLACE);
            assertThat(ingest(client, root, db, "fresh", replace, 500, 3)).isEqualTo(3);
            assertThat(count(server, db + ".fresh")).isEqualTo(3);
        }
    }

    @Test
    void aStreamThatDoesNotFitTheTableWritesNothing(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("misfit");
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED)");
            statement.execute("CREATE TABLE " + db + ".strict (id INT NOT NULL, name STRING)");
        }
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
            TableDefinitionOptions append = options(TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_FAIL,
                    TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_APPEND);
            try (VectorSchemaRoot wrongName = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                    java.util.List.of(field("id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)),
                            field("nmae", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))), allocator)) {
                FlightRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(FlightRuntimeException.class,
                        () -> ingest(client, wrongName, db, "t", append, 0, 5));
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("'nmae' does not exist");
            }
            try (VectorSchemaRoot wrongType = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                    java.util.List.of(field("id", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE),
                            field("name", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))), allocator)) {
                FlightRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(FlightRuntimeException.class,
                        () -> ingest(client, wrongType, db, "t", append, 0, 5));
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("Column 'id'");
            }
            try (VectorSchemaRoot noKey = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                    java.util.List.of(field("name", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))),
                    allocator)) {
                FlightRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(FlightRuntimeException.class,
                        () -> ingest(client, noKey, db, "t", append, 0, 5));
                assertThat(e.getMessage()).contains("lacks column 'id'");
            }
            assertThat(count(server, db + ".t")).isZero();

            // A log table's batch in its own types goes to the writer as it is: a null id is still refused.
            try (VectorSchemaRoot nullId = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                    java.util.List.of(field("id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)),
                            field("name", org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))), allocator)) {
                CommandStatementIngest command = CommandStatementIngest.newBuilder().setSchema(db).setTable("strict")
                        .setTableDefinitionOptions(append).build();
                FlightClient.ClientStreamListener writer = client.startPut(
                        FlightDescriptor.command(Any.pack(command).toByteArray()), nullId, new SyncPutListener());
                fillSimple(nullId, 0, 5);
                nullId.getVector("id").setNull(3);
                writer.putNext();
                writer.completed();
                FlightRuntimeException e = org.junit.jupiter.api.Assertions.assertThrows(FlightRuntimeException.class,
                        writer::getResult);
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("Row 3, column 'id'", "NOT NULL", "nothing was written");
            }
            assertThat(count(server, db + ".strict")).isZero();
        }
    }

    @Test
    void dictionaryEncodedColumnsAreIngestedAsTheirValues(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("dict");
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
        }
        String[] regions = {"eu", "us", "apac"};
        org.apache.arrow.vector.types.pojo.DictionaryEncoding encoding =
                new org.apache.arrow.vector.types.pojo.DictionaryEncoding(7L, false,
                        new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true));
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build();
                VarCharVector dictionary = new VarCharVector("regions", allocator);
                VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                        java.util.List.of(field("id", new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)),
                                new org.apache.arrow.vector.types.pojo.Field("region",
                                        new org.apache.arrow.vector.types.pojo.FieldType(true,
                                                new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true), encoding),
                                        null))), allocator)) {
            dictionary.allocateNew();
            for (int i = 0; i < regions.length; i++) {
                dictionary.setSafe(i, regions[i].getBytes(StandardCharsets.UTF_8));
            }
            dictionary.setValueCount(regions.length);
            org.apache.arrow.vector.dictionary.DictionaryProvider.MapDictionaryProvider provider =
                    new org.apache.arrow.vector.dictionary.DictionaryProvider.MapDictionaryProvider();
            provider.put(new org.apache.arrow.vector.dictionary.Dictionary(dictionary, encoding));
            // Created from the stream's schema: the region column is a STRING, not the indices' INT.
            CommandStatementIngest command = CommandStatementIngest.newBuilder().setSchema(db).setTable("events")
                    .setTableDefinitionOptions(options(
                            TableDefinitionOptions.TableNotExistOption.TABLE_NOT_EXIST_OPTION_CREATE,
                            TableDefinitionOptions.TableExistsOption.TABLE_EXISTS_OPTION_FAIL)).build();
            SyncPutListener listener = new SyncPutListener();
            FlightClient.ClientStreamListener writer = client.startPut(
                    FlightDescriptor.command(Any.pack(command).toByteArray()), root, provider, listener);
            for (int b = 0; b < 2; b++) {
                root.allocateNew();
                for (int i = 0; i < 150; i++) {
                    ((IntVector) root.getVector("id")).setSafe(i, b * 150 + i);
                    if (i % 10 == 0) {
                        root.getVector("region").setNull(i);
                    } else {
                        ((IntVector) root.getVector("region")).setSafe(i, i % 3);
                    }
                }
                root.setRowCount(150);
                writer.putNext();
            }
            writer.completed();
            writer.getResult();
            try (PutResult result = listener.read()) {
                assertThat(DoPutUpdateResult.parseFrom(result.getApplicationMetadata().nioBuffer()).getRecordCount())
                        .isEqualTo(300);
            }
        }
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            // Per batch: i % 10 == 0 is null (15 rows); of the rest, i % 3 gives the region.
            assertThat(FlightJdbcIT.rows(statement.executeQuery("SELECT region, count(*) FROM " + db + ".events"
                    + " GROUP BY region ORDER BY region NULLS FIRST")))
                    .containsExactly("null|30", "apac|90", "eu|90", "us|90");
            assertThat(FlightJdbcIT.rows(statement.executeQuery("SELECT region FROM " + db + ".events WHERE id = 151")))
                    .containsExactly("us");
        }
    }

    private static org.apache.arrow.vector.types.pojo.Field field(String name,
            org.apache.arrow.vector.types.pojo.ArrowType type) {
        return org.apache.arrow.vector.types.pojo.Field.nullable(name, type);
    }

    private static TableDefinitionOptions options(TableDefinitionOptions.TableNotExistOption ifNotExist,
            TableDefinitionOptions.TableExistsOption ifExists) {
        return TableDefinitionOptions.newBuilder().setIfNotExist(ifNotExist).setIfExists(ifExists).build();
    }

    /** Sends batches of ids [start, start + size) for each (start, size) pair in one DoPut; returns the count. */
    private static long ingest(FlightClient client, VectorSchemaRoot root, String db, String table,
            TableDefinitionOptions options, int... batches) throws Exception {
        CommandStatementIngest command = CommandStatementIngest.newBuilder().setSchema(db).setTable(table)
                .setTableDefinitionOptions(options).build();
        SyncPutListener listener = new SyncPutListener();
        FlightClient.ClientStreamListener writer = client.startPut(
                FlightDescriptor.command(Any.pack(command).toByteArray()), root, listener);
        for (int b = 0; b < batches.length; b += 2) {
            fillSimple(root, batches[b], batches[b + 1]);
            writer.putNext();
        }
        writer.completed();
        writer.getResult();
        try (PutResult result = listener.read()) {
            return DoPutUpdateResult.parseFrom(result.getApplicationMetadata().nioBuffer()).getRecordCount();
        }
    }

    private static long count(FlightSqlServer server, String table) throws Exception {
        try (Connection sql = FlightJdbcIT.connect(server)) {
            return Long.parseLong(FlightJdbcIT.rows(sql.createStatement().executeQuery("SELECT count(*) FROM " + table))
                    .get(0));
        }
    }

    private static void fillSimple(VectorSchemaRoot root, int start, int size) {
        root.allocateNew();
        if (root.getVector("id") instanceof IntVector id) {
            for (int i = 0; i < size; i++) {
                id.setSafe(i, start + i);
            }
        } else if (root.getVector("id") instanceof VarCharVector id) {
            for (int i = 0; i < size; i++) {
                id.setSafe(i, String.valueOf(start + i).getBytes(StandardCharsets.UTF_8));
            }
        }
        for (String text : new String[] {"name", "nmae"}) {
            if (root.getVector(text) instanceof VarCharVector name) {
                for (int i = 0; i < size; i++) {
                    name.setSafe(i, ("n" + (start + i)).getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        root.setRowCount(size);
    }

    /** Id {@code i} is named {@code name-i} and scores {@code i / 4.0}; every 7th name is null. */
    private static void fill(VectorSchemaRoot root, int start, int size) {
        root.allocateNew();
        BigIntVector id = (BigIntVector) root.getVector("id");
        VarCharVector name = (VarCharVector) root.getVector("name");
        Float8Vector score = (Float8Vector) root.getVector("score");
        for (int i = 0; i < size; i++) {
            long value = start + i;
            id.setSafe(i, value);
            if (value % 7 == 0) {
                name.setNull(i);
            } else {
                name.setSafe(i, ("name-" + value).getBytes(StandardCharsets.UTF_8));
            }
            score.setSafe(i, value / 4.0);
        }
        root.setRowCount(size);
    }

    /** Every row once, each as {@link #fill} wrote it. */
    private static void assertReadBack(AdbcConnection connection, String table) throws Exception {
        boolean[] seen = new boolean[ROWS];
        long rows = 0;
        try (AdbcStatement query = connection.createStatement()) {
            query.setSqlQuery("SELECT id, name, score FROM " + table);
            try (AdbcStatement.QueryResult result = query.executeQuery()) {
                ArrowReader reader = result.getReader();
                while (reader.loadNextBatch()) {
                    VectorSchemaRoot batch = reader.getVectorSchemaRoot();
                    BigIntVector id = (BigIntVector) batch.getVector("id");
                    VarCharVector name = (VarCharVector) batch.getVector("name");
                    Float8Vector score = (Float8Vector) batch.getVector("score");
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        long value = id.get(i);
                        assertThat(seen[(int) value]).as("id %s twice in %s", value, table).isFalse();
                        seen[(int) value] = true;
                        if (value % 7 == 0) {
                            assertThat(name.isNull(i)).isTrue();
                        } else {
                            assertThat(new String(name.get(i), StandardCharsets.UTF_8)).isEqualTo("name-" + value);
                        }
                        assertThat(score.get(i)).isEqualTo(value / 4.0);
                        rows++;
                    }
                }
            }
        }
        assertThat(rows).isEqualTo(ROWS);
    }
}
