package dev.riffle.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.flight.sql.impl.FlightSql;
import org.apache.arrow.flight.sql.impl.FlightSql.TicketStatementQuery;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.UInt4Vector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Flight SQL's own Java client: a scan cut into endpoints that several instances serve (every row
 * once), signed tickets other deployments cannot use, cancel freeing the read's memory, what the
 * server says of itself, and bad requests answered with Flight errors.
 */
@ExtendWith({LocalClusterExtension.class, FlightServerExtension.class})
class FlightClientIT {
    private static final byte[] KEY = "a ticket key shared by the deployment".getBytes(StandardCharsets.UTF_8);

    private FlightSqlServer server;

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    private static String logTable(FlightSqlServer server, String db, int rows) throws Exception {
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id BIGINT, kind STRING) WITH ('bucket.num' = '4')");
            StringBuilder insert = new StringBuilder("INSERT INTO " + db + ".events VALUES ");
            for (int start = 0; start < rows; start += 1000) {
                insert.setLength(("INSERT INTO " + db + ".events VALUES ").length());
                for (int id = start; id < Math.min(rows, start + 1000); id++) {
                    insert.append(id == start ? "" : ", ").append("(").append(id).append(", 'k").append(id % 3).append("')");
                }
                statement.executeUpdate(insert.toString());
            }
        }
        return db + ".events";
    }

    @Test
    void twoInstancesServeTheEndpointsOfOneScanEveryRowOnce(LocalCluster cluster, FlightSqlServer shared,
            TestNames names) throws Exception {
        String table = logTable(shared, names.database("scale"), 5_000);
        try (FlightSqlServer first = FlightSqlServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1")
                .port(0).ticketKey(KEY).start();
                FlightSqlServer second = FlightSqlServer.builder().clientConfig(cluster.clientConfig())
                        .host("127.0.0.1").port(0).ticketKey(KEY).start();
                FlightSqlServer stranger = FlightSqlServer.builder().clientConfig(cluster.clientConfig())
                        .host("127.0.0.1").port(0).start();
                BufferAllocator allocator = new RootAllocator();
                FlightClient toFirst = FlightClient.builder(allocator, first.location()).build();
                FlightClient toSecond = FlightClient.builder(allocator, second.location()).build();
                FlightClient toStranger = FlightClient.builder(allocator, stranger.location()).build()) {
            FlightInfo info = new FlightSqlClient(toFirst).execute("SELECT id, kind FROM " + table);
            assertThat(info.getEndpoints()).hasSize(4);
            List<Long> ids = new ArrayList<>();
            // Endpoints alternate between the instances: the tickets carry everything needed.
            for (int i = 0; i < info.getEndpoints().size(); i++) {
                FlightClient client = i % 2 == 0 ? toFirst : toSecond;
                try (FlightStream stream = client.getStream(info.getEndpoints().get(i).getTicket())) {
                    while (stream.next()) {
                        BigIntVector id = (BigIntVector) stream.getRoot().getVector("id");
                        for (int r = 0; r < stream.getRoot().getRowCount(); r++) {
                            ids.add(id.get(r));
                        }
                    }
                }
            }
            assertThat(ids).hasSize(5_000);
            assertThat(new HashSet<>(ids)).hasSize(5_000);

            FlightRuntimeException foreign = assertThrows(FlightRuntimeException.class, () -> {
                try (FlightStream stream = toStranger.getStream(info.getEndpoints().get(0).getTicket())) {
                    stream.next();
                }
            });
            assertThat(foreign.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
            assertThat(foreign.getMessage()).contains("not issued by this Riffle deployment");
            assertThat(first.arrowAllocatedBytes()).isZero();
            assertThat(second.arrowAllocatedBytes()).isZero();
        }
    }

    @Test
    void aForgedTicketIsRefused(FlightSqlServer server) throws Exception {
        this.server = server;
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
            byte[] forged = Any.pack(TicketStatementQuery.newBuilder()
                    .setStatementHandle(ByteString.copyFromUtf8("{\"v\":1,\"principal\":\"\",\"sql\":\"SELECT 1\"}"))
                    .build()).toByteArray();
            FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> {
                try (FlightStream stream = client.getStream(new Ticket(forged))) {
                    stream.next();
                }
            });
            assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
        }
    }

    @Test
    void cancellingALongQueryFreesItsMemory(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String table = logTable(server, names.database("cancel"), 20_000);
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
            FlightSqlClient sql = new FlightSqlClient(client);
            // A cross join makes the query long; the client reads one batch and stops.
            FlightInfo info = sql.execute("SELECT a.id, b.id FROM " + table + " a, " + table + " b");
            try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket())) {
                assertThat(stream.next()).isTrue();
                assertThat(sql.cancelFlightInfo(new CancelFlightInfoRequest(info)).getStatus())
                        .isEqualTo(CancelStatus.CANCELLED);
                FlightRuntimeException e = assertThrows(FlightRuntimeException.class, () -> {
                    while (stream.next()) {
                        // drain until the server ends the stream
                    }
                });
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.CANCELLED);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);

            // A client that goes away mid-stream frees it too.
            FlightInfo again = sql.execute("SELECT a.id, b.id FROM " + table + " a, " + table + " b");
            FlightStream abandoned = sql.getStream(again.getEndpoints().get(0).getTicket());
            assertThat(abandoned.next()).isTrue();
            abandoned.cancel("going away", null);
            abandoned.close();
        }
    }

    @Test
    void theServerDescribesItselfAndItsTypes(FlightSqlServer server) throws Exception {
        this.server = server;
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
            FlightSqlClient sql = new FlightSqlClient(client);
            List<String> names = new ArrayList<>();
            FlightInfo info = sql.getSqlInfo(FlightSql.SqlInfo.FLIGHT_SQL_SERVER_NAME, FlightSql.SqlInfo.FLIGHT_SQL_SERVER_READ_ONLY);
            try (FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket())) {
                while (stream.next()) {
                    UInt4Vector ids = (UInt4Vector) stream.getRoot().getVector("info_name");
                    for (int i = 0; i < stream.getRoot().getRowCount(); i++) {
                        names.add(Long.toString(ids.getValueAsLong(i)));
                    }
                }
            }
            assertThat(names).contains(Integer.toString(FlightSql.SqlInfo.FLIGHT_SQL_SERVER_NAME_VALUE));
            Set<String> types = new HashSet<>();
            FlightInfo typeInfo = sql.getXdbcTypeInfo();
            try (FlightStream stream = sql.getStream(typeInfo.getEndpoints().get(0).getTicket())) {
                while (stream.next()) {
                    VarCharVector name = (VarCharVector) stream.getRoot().getVector("type_name");
                    IntVector code = (IntVector) stream.getRoot().getVector("data_type");
                    for (int i = 0; i < stream.getRoot().getRowCount(); i++) {
                        types.add(new String(name.get(i), StandardCharsets.UTF_8) + ":" + code.get(i));
                    }
                }
            }
            assertThat(types).contains("INTEGER:4", "VARCHAR:12", "DECIMAL:3", "TIMESTAMP:93");
        }
    }

    @Test
    void badRequestsGetFlightErrors(FlightSqlServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("bad");
        String table = logTable(server, db, 10);
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
            FlightSqlClient sql = new FlightSqlClient(client);
            FlightRuntimeException unknown = assertThrows(FlightRuntimeException.class,
                    () -> client.getInfo(FlightDescriptor.command("not a command".getBytes(StandardCharsets.UTF_8))));
            assertThat(unknown.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);

            FlightRuntimeException missing = assertThrows(FlightRuntimeException.class,
                    () -> sql.execute("SELECT * FROM " + db + ".nothing"));
            assertThat(missing.status().code()).isEqualTo(FlightStatusCode.NOT_FOUND);
            assertThat(missing.getMessage()).contains("'nothing' not found");

            try (FlightSqlClient.PreparedStatement prepared = sql.prepare("SELECT kind FROM " + table + " WHERE id = ?");
                    VectorSchemaRoot wrongCount = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                            List.of(org.apache.arrow.vector.types.pojo.Field.nullable("a",
                                            new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)),
                                    org.apache.arrow.vector.types.pojo.Field.nullable("b",
                                            new org.apache.arrow.vector.types.pojo.ArrowType.Int(64, true)))),
                            allocator)) {
                assertThat(prepared.getParameterSchema().getFields()).hasSize(1);
                wrongCount.allocateNew();
                wrongCount.setRowCount(1);
                prepared.setParameters(wrongCount);
                FlightRuntimeException e = assertThrows(FlightRuntimeException.class, prepared::execute);
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("2 columns").contains("1 parameters");
            }
            try (FlightSqlClient.PreparedStatement insert = sql.prepare("INSERT INTO " + table + " VALUES (?, ?)");
                    VectorSchemaRoot tooBig = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(
                            List.of(org.apache.arrow.vector.types.pojo.Field.nullable("id",
                                            org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE),
                                    org.apache.arrow.vector.types.pojo.Field.nullable("kind",
                                            org.apache.arrow.vector.types.pojo.ArrowType.Utf8.INSTANCE))),
                            allocator)) {
                tooBig.allocateNew();
                ((VarCharVector) tooBig.getVector("id")).setSafe(0, "not a number".getBytes(StandardCharsets.UTF_8));
                ((VarCharVector) tooBig.getVector("kind")).setSafe(0, "x".getBytes(StandardCharsets.UTF_8));
                tooBig.setRowCount(1);
                insert.setParameters(tooBig);
                FlightRuntimeException e = assertThrows(FlightRuntimeException.class, insert::executeUpdate);
                assertThat(e.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
                assertThat(e.getMessage()).contains("Row 0, column 'id'").contains("nothing was written");
            }
            try (Connection jdbc = FlightJdbcIT.connect(server)) {
                assertThat(FlightJdbcIT.rows(jdbc.createStatement().executeQuery("SELECT count(*) FROM " + table)))
                        .containsExactly("10");
            }
        }
    }
}
