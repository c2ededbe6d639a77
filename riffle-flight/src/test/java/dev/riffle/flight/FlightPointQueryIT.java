package dev.riffle.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.CancelFlightInfoRequest;
import org.apache.arrow.flight.CancelStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Point queries over Flight SQL, whose key lookups start when the query's FlightInfo is asked for
 * (GetFlightInfo executes, DoGet fetches): every answer is the row the table holds, including rows
 * changed between executions; a ticket fetched from another instance, or a query cancelled between
 * execute and fetch, is run at DoGet instead.
 */
@ExtendWith(LocalClusterExtension.class)
class FlightPointQueryIT {
    private static final byte[] KEY = "a ticket key shared by the deployment".getBytes(StandardCharsets.UTF_8);
    private static final String LOOKED_UP_AHEAD = "DoGet(looked up at GetFlightInfo)";

    private static String accounts(FlightSqlServer server, String db) throws Exception {
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".accounts (id BIGINT, owner STRING,"
                    + " PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')");
            statement.executeUpdate("INSERT INTO " + db + ".accounts VALUES (1, 'ann'), (2, 'bob'), (3, 'cy')");
        }
        return db + ".accounts";
    }

    private static void upsert(FlightSqlServer server, String table, long id, String owner) throws Exception {
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.executeUpdate("INSERT INTO " + table + " VALUES (" + id + ", '" + owner + "')");
        }
    }

    /** Executes {@code prepared} for {@code id} (bind, GetFlightInfo) and returns the FlightInfo. */
    private static FlightInfo execute(FlightSqlClient.PreparedStatement prepared, VectorSchemaRoot parameters, long id) {
        parameters.allocateNew();
        ((BigIntVector) parameters.getVector(0)).setSafe(0, id);
        parameters.setRowCount(1);
        prepared.setParameters(parameters);
        return prepared.execute();
    }

    private static List<String> owners(FlightClient client, FlightInfo info) throws Exception {
        List<String> owners = new ArrayList<>();
        try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
            while (stream.next()) {
                VarCharVector owner = (VarCharVector) stream.getRoot().getVector("owner");
                for (int row = 0; row < stream.getRoot().getRowCount(); row++) {
                    owners.add(owner.isNull(row) ? null : new String(owner.get(row), StandardCharsets.UTF_8));
                }
            }
        }
        return owners;
    }

    private static long calls(SimpleMeterRegistry registry, String command) {
        return Optional.ofNullable(registry.find("riffle_flight_calls").tag("command", command).tag("outcome", "ok")
                .timer()).map(Timer::count).orElse(0L);
    }

    @Test
    void everyExecutionAnswersTheRowTheTableHolds(LocalCluster cluster, TestNames names) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (FlightSqlServer server = FlightSqlServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1")
                .port(0).meterRegistry(registry).start()) {
            String table = accounts(server, names.database("point"));
            try (BufferAllocator allocator = new RootAllocator();
                    FlightClient client = FlightClient.builder(allocator, server.location()).build()) {
                FlightSqlClient sql = new FlightSqlClient(client);
                try (FlightSqlClient.PreparedStatement prepared = sql.prepare("SELECT owner FROM " + table
                        + " WHERE id = ?");
                        VectorSchemaRoot parameters = VectorSchemaRoot.create(prepared.getParameterSchema(), allocator)) {
                    for (int round = 0; round < 20; round++) {
                        assertThat(owners(client, execute(prepared, parameters, 1))).containsExactly("ann");
                        assertThat(owners(client, execute(prepared, parameters, 2))).containsExactly("bob");
                        assertThat(owners(client, execute(prepared, parameters, 4))).isEmpty();
                    }
                    upsert(server, table, 2, "bea");
                    assertThat(owners(client, execute(prepared, parameters, 2))).containsExactly("bea");

                    // Two executions of one query before either is fetched: each ticket is its own,
                    // and each fetch takes its own execution's lookup.
                    // (61 fetches so far, each counted once the server has ended its stream)
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> calls(registry, LOOKED_UP_AHEAD) + calls(registry, "DoGet") == 61);
                    long before = calls(registry, LOOKED_UP_AHEAD);
                    FlightInfo first = execute(prepared, parameters, 3);
                    FlightInfo second = execute(prepared, parameters, 3);
                    assertThat(first.getEndpoints().get(0).getTicket())
                            .isNotEqualTo(second.getEndpoints().get(0).getTicket());
                    assertThat(owners(client, second)).containsExactly("cy");
                    assertThat(owners(client, first)).containsExactly("cy");
                    await().atMost(Duration.ofSeconds(10)).until(() -> calls(registry, LOOKED_UP_AHEAD) == before + 2);
                }
                // The same query as a plain statement, known from the prepared one's runs.
                assertThat(owners(client, sql.execute("SELECT owner FROM " + table + " WHERE id = 1")))
                        .containsExactly("ann");
            }
            // The server records a call once its stream has ended, which the client may see first.
            await().atMost(Duration.ofSeconds(10)).until(() -> calls(registry, LOOKED_UP_AHEAD) > 50);
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    /** The answer a query's DoGet sends: its schema and its rows as text. */
    private static String answer(FlightClient client, FlightInfo info) throws Exception {
        StringBuilder answer = new StringBuilder();
        try (FlightStream stream = client.getStream(info.getEndpoints().get(0).getTicket())) {
            answer.append(stream.getSchema()).append('\n');
            while (stream.next()) {
                VectorSchemaRoot root = stream.getRoot();
                for (int row = 0; row < root.getRowCount(); row++) {
                    for (FieldVector vector : root.getFieldVectors()) {
                        Object value = vector.getObject(row);
                        answer.append(value instanceof byte[] bytes ? Arrays.toString(bytes) : String.valueOf(value))
                                .append('|');
                    }
                    answer.append('\n');
                }
            }
        }
        return answer.toString();
    }

    /**
     * Every scalar type and an array, renamed columns: the answer of a lookup started at
     * GetFlightInfo is the answer of the query run at DoGet, schema and cells.
     */
    @Test
    void aLookupStartedAheadAnswersAsTheQueryRunAtDoGet(LocalCluster cluster, TestNames names) throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        SimpleMeterRegistry otherMetrics = new SimpleMeterRegistry();
        String db = names.database("types");
        try (FlightSqlServer server = FlightSqlServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1")
                .port(0).ticketKey(KEY).meterRegistry(registry).start();
                FlightSqlServer other = FlightSqlServer.builder().clientConfig(cluster.clientConfig())
                        .host("127.0.0.1").port(0).ticketKey(KEY).meterRegistry(otherMetrics).start()) {
            try (Connection jdbc = FlightJdbcIT.connect(server); Statement statement = jdbc.createStatement()) {
                statement.execute("CREATE DATABASE " + db);
                statement.execute("CREATE TABLE " + db + ".all_types (k BIGINT, b BOOLEAN, ti TINYINT, si SMALLINT,"
                        + " i INT, f FLOAT, d DOUBLE, dec DECIMAL(10, 2), s STRING, c CHAR(3), bin BYTES, dt DATE,"
                        + " tm TIME, ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), arr ARRAY<INT>,"
                        + " PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket.num' = '2')");
                statement.executeUpdate("INSERT INTO " + db + ".all_types VALUES"
                        + " (1, TRUE, 1, 2, 3, 1.5, 2.25, 12.34, 'text', 'abc', x'0102', DATE '2024-06-01',"
                        + " TIME '12:34:56', TIMESTAMP '2024-06-01 12:34:56.789', TIMESTAMP '2024-06-01 12:34:56.789',"
                        + " ARRAY[1, 2, 3]),"
                        + " (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
            }
            try (BufferAllocator allocator = new RootAllocator();
                    FlightClient client = FlightClient.builder(allocator, server.location()).build();
                    FlightClient toOther = FlightClient.builder(allocator, other.location()).build()) {
                FlightSqlClient sql = new FlightSqlClient(client);
                try (FlightSqlClient.PreparedStatement prepared = sql.prepare("SELECT s AS label, k, b, ti, si, i, f, d,"
                        + " \"dec\", c, bin, dt, tm, ts, ltz, arr FROM " + db + ".all_types WHERE k = ?");
                        VectorSchemaRoot parameters = VectorSchemaRoot.create(prepared.getParameterSchema(), allocator)) {
                    answer(client, execute(prepared, parameters, 1)); // run once: now a known key lookup
                    for (long key : new long[] {1, 2}) {
                        // Fetched from the other instance, the query runs at DoGet; from this one, the
                        // lookup started at GetFlightInfo answers.
                        String runAtDoGet = answer(toOther, execute(prepared, parameters, key));
                        String lookedUpAhead = answer(client, execute(prepared, parameters, key));
                        long expected = key;
                        await().atMost(Duration.ofSeconds(10)).until(() -> calls(registry, LOOKED_UP_AHEAD) == expected
                                && calls(otherMetrics, "DoGet") == expected);
                        assertThat(lookedUpAhead).isEqualTo(runAtDoGet).contains("label");
                        assertThat(lookedUpAhead).contains(key == 1 ? "text|1|true|1|2|3|1.5|2.25|12.34|abc|[1, 2]|"
                                : "null|2|null|null|");
                    }
                }
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> server.arrowAllocatedBytes() == 0 && other.arrowAllocatedBytes() == 0);
        }
    }

    @Test
    void aTicketFetchedElsewhereOrCancelledIsRunAtDoGet(LocalCluster cluster, TestNames names) throws Exception {
        SimpleMeterRegistry firstMetrics = new SimpleMeterRegistry();
        SimpleMeterRegistry secondMetrics = new SimpleMeterRegistry();
        try (FlightSqlServer first = FlightSqlServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1")
                .port(0).ticketKey(KEY).meterRegistry(firstMetrics).start();
                FlightSqlServer second = FlightSqlServer.builder().clientConfig(cluster.clientConfig())
                        .host("127.0.0.1").port(0).ticketKey(KEY).meterRegistry(secondMetrics).start()) {
            String table = accounts(first, names.database("elsewhere"));
            try (BufferAllocator allocator = new RootAllocator();
                    FlightClient toFirst = FlightClient.builder(allocator, first.location()).build();
                    FlightClient toSecond = FlightClient.builder(allocator, second.location()).build()) {
                FlightSqlClient sql = new FlightSqlClient(toFirst);
                try (FlightSqlClient.PreparedStatement prepared = sql.prepare("SELECT owner FROM " + table
                        + " WHERE id = ?");
                        VectorSchemaRoot parameters = VectorSchemaRoot.create(prepared.getParameterSchema(), allocator)) {
                    assertThat(owners(toFirst, execute(prepared, parameters, 1))).containsExactly("ann");

                    // Executed on the first instance, fetched from the second: the second runs it.
                    assertThat(owners(toSecond, execute(prepared, parameters, 2))).containsExactly("bob");
                    await().atMost(Duration.ofSeconds(10)).until(() -> calls(secondMetrics, "DoGet") == 1);
                    assertThat(calls(secondMetrics, LOOKED_UP_AHEAD)).isZero();

                    // Cancelled between execute and fetch: the lookup started is dropped, and the
                    // fetch runs the query then, seeing the row as changed after the cancel.
                    FlightInfo cancelled = execute(prepared, parameters, 1);
                    assertThat(sql.cancelFlightInfo(new CancelFlightInfoRequest(cancelled)).getStatus())
                            .isEqualTo(CancelStatus.CANCELLED);
                    upsert(first, table, 1, "abe");
                    assertThat(owners(toFirst, cancelled)).containsExactly("abe");
                    // The first instance ran both of its DoGets: the first execution's and this one.
                    await().atMost(Duration.ofSeconds(10)).until(() -> calls(firstMetrics, "DoGet") == 2);
                    assertThat(calls(firstMetrics, LOOKED_UP_AHEAD)).isZero();

                    // Executed again, not fetched; the row changed; executed once more and fetched:
                    // the answer is this execution's, not the earlier one's.
                    FlightInfo unfetched = execute(prepared, parameters, 3);
                    upsert(first, table, 3, "cat");
                    FlightInfo again = execute(prepared, parameters, 3);
                    assertThat(again.getEndpoints().get(0).getTicket())
                            .isNotEqualTo(unfetched.getEndpoints().get(0).getTicket());
                    assertThat(owners(toFirst, again)).containsExactly("cat");
                    await().atMost(Duration.ofSeconds(10)).until(() -> calls(firstMetrics, LOOKED_UP_AHEAD) == 1);
                }
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> first.arrowAllocatedBytes() == 0 && second.arrowAllocatedBytes() == 0);
        }
    }
}
