package dev.riffle.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.riffle.flight.statement.AcceptedCompression;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.FlightCallHeaders;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.HeaderCallOption;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A DoGet sends the batches Fluss stored as they are (not decoded on the server) to a client that
 * accepts their codec, and decoded batches to every other client: the same rows either way.
 */
@ExtendWith({LocalClusterExtension.class, FlightServerExtension.class})
class FlightStoredBatchesIT {
    private static final int ROWS = 6_000;

    private SimpleMeterRegistry metrics;
    private FlightSqlServer server;
    private BufferAllocator allocator;
    private FlightClient client;

    @BeforeEach
    void start(LocalCluster cluster) {
        metrics = new SimpleMeterRegistry();
        server = FlightSqlServer.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .meterRegistry(metrics).start();
        allocator = new RootAllocator();
        client = FlightClient.builder(allocator, server.location()).build();
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        server.close();
        allocator.close(); // fails if the client leaked a batch
    }

    @Test
    void aClientThatAcceptsZstdGetsTheStoredBatchesAndTheSameRows(TestNames names) throws Exception {
        String table = table(names.database("stored"), "");

        List<String> plain = scan("SELECT * FROM " + table, Optional.empty());
        assertThat(storedBatches()).isZero(); // ZSTD batches, and this client did not say it decompresses them
        List<String> forwarded = scan("SELECT * FROM " + table, Optional.of("zstd"));
        double sentStored = storedBatches();

        assertThat(plain).hasSize(ROWS);
        assertThat(forwarded).containsExactlyInAnyOrderElementsOf(plain);
        assertThat(sentStored).isPositive();
        // Some columns only: decoded and sent uncompressed, header or not.
        assertThat(scan("SELECT kind, id FROM " + table, Optional.of("zstd"))).hasSize(ROWS);
        assertThat(storedBatches()).isEqualTo(sentStored);
    }

    @Test
    void uncompressedStoredBatchesGoToEveryClient(TestNames names) throws Exception {
        String table = table(names.database("stored_none"), ", 'table.log.arrow.compression.type' = 'NONE'");

        List<String> rows = scan("SELECT * FROM " + table, Optional.empty());

        assertThat(rows).hasSize(ROWS);
        assertThat(rows).contains("0|k0|0.0", (ROWS - 1) + "|k" + ((ROWS - 1) % 3) + "|" + (ROWS - 1) / 2.0);
        assertThat(storedBatches()).isPositive();
    }

    @Test
    void anUnknownCodecInTheHeaderIsRefusedByName(TestNames names) throws Exception {
        String table = table(names.database("stored_bad"), "");

        FlightRuntimeException refused = assertThrows(FlightRuntimeException.class,
                () -> scan("SELECT * FROM " + table, Optional.of("zstd, brotli")));

        assertThat(refused.status().code()).isEqualTo(FlightStatusCode.INVALID_ARGUMENT);
        assertThat(refused.getMessage()).contains("'brotli'").contains(AcceptedCompression.HEADER);
    }

    /** A log table of {@code ROWS} rows (id, kind, half of id) in four buckets. */
    private String table(String db, String options) throws Exception {
        try (Connection sql = FlightJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id BIGINT, kind STRING, half DOUBLE)"
                    + " WITH ('bucket.num' = '4'" + options + ")");
            // 100 rows a statement: planning a 1,000-row VALUES of decimals for the driver's prepare
            // can fail in Calcite's code generation ("Compilation unit is nested too deeply").
            for (int start = 0; start < ROWS; start += 100) {
                StringBuilder insert = new StringBuilder("INSERT INTO " + db + ".events VALUES ");
                for (int id = start; id < start + 100; id++) {
                    insert.append(id == start ? "" : ", ").append("(").append(id).append(", 'k").append(id % 3)
                            .append("', ").append(id / 2.0).append(")");
                }
                statement.executeUpdate(insert.toString());
            }
        }
        return db + ".events";
    }

    /** Every row of every endpoint, as "a|b|c", read with {@code accepted} in the header when given. */
    private List<String> scan(String query, Optional<String> accepted) {
        FlightCallHeaders headers = new FlightCallHeaders();
        accepted.ifPresent(codecs -> headers.insert(AcceptedCompression.HEADER, codecs));
        CallOption header = new HeaderCallOption(headers);
        FlightSqlClient sql = new FlightSqlClient(client);
        FlightInfo info = sql.execute(query, header);
        List<String> rows = new ArrayList<>();
        for (FlightEndpoint endpoint : info.getEndpoints()) {
            try (FlightStream stream = sql.getStream(endpoint.getTicket(), header)) {
                while (stream.next()) {
                    VectorSchemaRoot root = stream.getRoot();
                    for (int row = 0; row < root.getRowCount(); row++) {
                        StringBuilder line = new StringBuilder();
                        for (FieldVector vector : root.getFieldVectors()) {
                            line.append(line.isEmpty() ? "" : "|").append(vector.getObject(row));
                        }
                        rows.add(line.toString());
                    }
                }
            } catch (Exception e) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
        }
        return rows;
    }

    private double storedBatches() {
        Counter counter = metrics.find("riffle_flight_stored_batches").counter();
        return counter == null ? 0 : counter.count();
    }
}
