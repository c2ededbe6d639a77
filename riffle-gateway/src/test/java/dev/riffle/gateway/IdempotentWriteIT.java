package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.core.Riffle;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.StringJoiner;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Writes sent with an {@code Idempotency-Key} are written once however often they are sent: a
 * client whose connection dropped before the answer sends the request again and every row is in the
 * table exactly once (without a key the same retry writes the rows twice); the retry's answer is the
 * first request's, marked {@code Idempotent-Replayed}; the key with another body is refused; a key
 * whose first request was refused before writing may be used again.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class IdempotentWriteIT {
    private static final int ROWS = 2_000;

    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void aRequestRetriedAfterADroppedConnectionWritesEachRowOnce(Api api, Connection connection, TestNames names)
            throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("retried"), "[{\"name\": \"id\", \"type\": \"INT NOT NULL\"},"
                + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"buckets\": 2");
        String rows = tableUrl(path) + "/rows";
        byte[] body = jsonRows(0, ROWS);

        // The first attempt: the whole request is sent, then the connection drops before the answer.
        sendAndHangUp(api.url(), rows, body, "batch-0001");
        Api.Response retried = api.post(rows, "application/json", body, "Idempotency-Key", "batch-0001");
        assertThat(retried.status()).as(retried.text()).isEqualTo(200);
        assertThat(retried.json().get("written").asInt()).isEqualTo(ROWS);
        // And again: the answer of the write, nothing written.
        Api.Response again = api.post(rows, "application/json", body, "Idempotency-Key", "batch-0001");
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.json().get("written").asInt()).isEqualTo(ROWS);

        // An Arrow body with its own key, sent twice: once.
        byte[] arrow;
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(new org.apache.arrow.vector.types.pojo.Schema(List.of(
                        org.apache.arrow.vector.types.pojo.Field.notNullable("id",
                                new org.apache.arrow.vector.types.pojo.ArrowType.Int(32, true)))), allocator)) {
            arrow = WriteIT.arrowStream(root, (batch, b) -> {
                IntVector ids = (IntVector) batch.getVector("id");
                for (int i = 0; i < 100; i++) {
                    ids.setSafe(i, ROWS + b * 100 + i);
                }
                batch.setRowCount(100);
            }, 1);
        }
        assertThat(api.post(rows, Api.ARROW, arrow, "Idempotency-Key", "arrow-1").status()).isEqualTo(200);
        Api.Response arrowAgain = api.post(rows, Api.ARROW, arrow, "Idempotency-Key", "arrow-1");
        assertThat(arrowAgain.status()).isEqualTo(200);
        assertThat(arrowAgain.header("Idempotent-Replayed")).isEqualTo("true");

        List<Integer> expected = new ArrayList<>();
        for (int id = 0; id < ROWS + 100; id++) {
            expected.add(id);
        }
        assertThat(ids(connection, path)).isEqualTo(expected);

        // Without a key the same retry is a second write: what the key is for.
        TablePath plain = createTable(api, names.table("retried_plain"), "[{\"name\": \"id\", \"type\": \"INT NOT NULL\"},"
                + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"buckets\": 2");
        byte[] few = jsonRows(0, 10);
        assertThat(api.post(tableUrl(plain) + "/rows", "application/json", few).status()).isEqualTo(200);
        assertThat(api.post(tableUrl(plain) + "/rows", "application/json", few).status()).isEqualTo(200);
        assertThat(ids(connection, plain)).hasSize(20);
    }

    @Test
    void aKeyIsForOneBodyAndARefusedRequestLeavesItFree(Api api, Connection connection, TestNames names)
            throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("keys"), "[{\"name\": \"id\", \"type\": \"INT NOT NULL\"},"
                + " {\"name\": \"v\", \"type\": \"STRING\"}]", ", \"buckets\": 1");
        String rows = tableUrl(path) + "/rows";
        assertThat(api.post(rows, "application/json", jsonRows(0, 5), "Idempotency-Key", "k1").status())
                .isEqualTo(200);

        Api.Response reused = api.post(rows, "application/json", jsonRows(5, 10), "Idempotency-Key", "k1");
        assertThat(reused.status()).isEqualTo(422);
        assertThat(reused.errorCode()).isEqualTo("idempotency_key_reused");
        assertThat(reused.errorMessage()).contains("'k1'").contains("new key");

        // Refused before anything was written (a null id): the key stays free for the corrected request.
        Api.Response refused = api.post(rows, "application/json",
                "[{\"id\": null, \"v\": \"x\"}]".getBytes(StandardCharsets.UTF_8), "Idempotency-Key", "k2");
        assertThat(refused.status()).isEqualTo(400);
        Api.Response corrected = api.post(rows, "application/json", jsonRows(5, 10), "Idempotency-Key", "k2");
        assertThat(corrected.status()).as(corrected.text()).isEqualTo(200);
        assertThat(corrected.header("Idempotent-Replayed")).isNull();

        Api.Response badKey = api.post(rows, "application/json", jsonRows(10, 11), "Idempotency-Key", "two words");
        assertThat(badKey.status()).isEqualTo(400);
        assertThat(badKey.errorCode()).isEqualTo("invalid_idempotency_key");

        assertThat(ids(connection, path)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    private static byte[] jsonRows(int from, int to) {
        StringJoiner rows = new StringJoiner(", ", "[", "]");
        for (int id = from; id < to; id++) {
            rows.add("{\"id\": " + id + ", \"v\": \"row-" + id + "\"}");
        }
        return rows.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Sends the whole request over a socket of its own and closes it without reading the answer. */
    private static void sendAndHangUp(String base, String path, byte[] body, String key) throws Exception {
        URI uri = URI.create(base);
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                    + "\r\nContent-Type: application/json\r\nIdempotency-Key: " + key + "\r\nContent-Length: "
                    + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
        }
    }

    /** Every id in the table's log, sorted (each appears as often as it was written). */
    private static List<Integer> ids(Connection connection, TablePath path) throws Exception {
        List<Integer> ids = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator(); Riffle riffle = Riffle.using(connection, allocator);
                BoundedLogReader log = riffle.table(path).read().log().createLogReader()) {
            while (log.hasNext()) {
                try (LogBatch batch = log.next()) {
                    IntVector id = (IntVector) batch.root().getVector("id");
                    for (int i = 0; i < batch.root().getRowCount(); i++) {
                        ids.add(id.get(i));
                    }
                }
            }
        }
        Collections.sort(ids);
        return ids;
    }
}
