package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.gateway.http.Paths;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TablePath;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A corpus of hostile requests, one table of cases, sent to a gateway with its default limits (as
 * {@code riffle local} and {@code riffle serve} run it): each must answer its 4xx with the error
 * envelope within a second, write nothing, and leave the gateway healthy with its heap where it
 * was.
 */
@ExtendWith(LocalClusterExtension.class)
class HostileInputIT {
    private static final String JSON = "application/json";
    private static final String COLUMNS = "[{\"name\": \"id\", \"type\": \"INT NOT NULL\"},"
            + " {\"name\": \"big\", \"type\": \"BIGINT\"}, {\"name\": \"d\", \"type\": \"DECIMAL(10, 2)\"},"
            + " {\"name\": \"x\", \"type\": \"DOUBLE\"}, {\"name\": \"at\", \"type\": \"TIMESTAMP(3)\"},"
            + " {\"name\": \"tags\", \"type\": \"ARRAY<INT>\"}]";

    /** One hostile request and what it must answer. {@code {t}} stands for the table's path. */
    record Case(String name, String method, String path, String contentType, byte[] body, String accept,
            int status, String code) {
        static Case post(String name, String path, String json, int status, String code) {
            return new Case(name, "POST", path, JSON, json.getBytes(UTF_8), null, status, code);
        }

        static Case get(String name, String path, String accept, int status, String code) {
            return new Case(name, "GET", path, null, null, accept, status, code);
        }
    }

    static List<Case> cases() throws Exception {
        List<Case> cases = new ArrayList<>();
        // Numbers: judged from their text, before any arithmetic.
        cases.add(Case.post("decimal exponent", "{t}/rows", "[{\"id\": 1, \"d\": 1e999999999}]", 400, "invalid_row"));
        cases.add(Case.post("decimal negative exponent", "{t}/rows", "[{\"id\": 1, \"d\": 1e-999999999}]", 400,
                "invalid_row"));
        cases.add(Case.post("integer exponent", "{t}/rows", "[{\"id\": 1e999999999}]", 400, "invalid_row"));
        cases.add(Case.post("huge integer", "{t}/rows", "[{\"id\": 1, \"big\": " + "9".repeat(5_000) + "}]", 400,
                "malformed_json"));
        cases.add(Case.post("huge decimal text", "{t}/rows", "[{\"id\": 1, \"d\": \"" + "9".repeat(100_000) + "\"}]",
                400, "invalid_row"));
        cases.add(Case.post("double overflow", "{t}/rows", "[{\"id\": 1, \"x\": 1e999999999}]", 400, "invalid_row"));
        cases.add(Case.post("timestamp far out of range", "{t}/rows",
                "[{\"id\": 1, \"at\": \"+999999999-12-31T23:59:59\"}]", 400, "invalid_row"));
        cases.add(Case.post("timestamp millis far out of range", "{t}/rows",
                "[{\"id\": 1, \"at\": 9223372036854775807}]", 400, "invalid_row"));
        // JSON structure.
        cases.add(Case.post("deep nesting", "{t}/rows", "[".repeat(100_000) + "]".repeat(100_000), 400,
                "malformed_json"));
        cases.add(Case.post("deep nesting in a value", "{t}/rows",
                "[{\"id\": 1, \"tags\": " + "[".repeat(5_000) + "]".repeat(5_000) + "}]", 400, "malformed_json"));
        cases.add(Case.post("duplicate keys", "{t}/rows", "[{\"id\": 1, \"id\": 2}]", 400, "malformed_json"));
        cases.add(new Case("invalid UTF-8", "POST", "{t}/rows", JSON,
                new byte[] {'[', '{', '"', 'i', 'd', '"', ':', '1', ',', '"', (byte) 0xC3, (byte) 0x28, '"', ':', '1',
                    '}', ']'}, null, 400, "malformed_json"));
        cases.add(Case.post("truncated JSON", "{t}/rows", "[{\"id\": 1", 400, "malformed_json"));
        cases.add(Case.post("one bad row among good ones", "{t}/rows",
                "[{\"id\": 1}, {\"id\": 2}, {\"id\": \"three\"}]", 400, "invalid_row"));
        // Counts a caller controls.
        cases.add(Case.post("a billion buckets", "{db}/tables",
                "{\"name\": \"huge\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}], \"buckets\": 1000000000}",
                400, "too_many_buckets"));
        cases.add(Case.post("buckets beyond int", "{db}/tables",
                "{\"name\": \"huge\", \"columns\": [{\"name\": \"id\", \"type\": \"INT\"}], \"buckets\": 1e20}",
                400, "invalid_request"));
        cases.add(Case.post("lookup of too many keys", "{t}/lookup", "{\"keys\": [" + "[1],".repeat(20_000) + "[1]]}",
                413, "too_many_keys"));
        cases.add(Case.post("scan limit 1e20", "{t}/scan", "{\"limit\": 1e20}", 400, "invalid_request"));
        cases.add(Case.post("scan negative limit", "{t}/scan", "{\"limit\": -1}", 400, "invalid_request"));
        cases.add(Case.post("scan offset 1e30", "{t}/scan", "{\"from\": {\"offsets\": {\"0\": 1e30}}}", 400,
                "invalid_request"));
        cases.add(Case.post("scan of a bucket that does not exist", "{t}/scan", "{\"changelog\": true, \"buckets\": [2147483647]}", 400,
                "invalid_request"));
        cases.add(Case.post("SQL too long", "/v1/sql", "{\"sql\": \"SELECT " + "1 + ".repeat(300_000) + "1\"}", 413,
                "sql_too_long"));
        cases.add(Case.post("SQL nested too deep", "/v1/sql", "{\"sql\": \"SELECT " + "(".repeat(20_000) + "1"
                + ")".repeat(20_000) + "\"}", 400, "sql_error"));
        cases.add(Case.post("SQL IN list too long", "/v1/sql", "{\"sql\": \"SELECT * FROM {sqlt} WHERE id IN ("
                + "1, ".repeat(12_000) + "1)\"}", 400, "sql_error"));
        // Paths and media types.
        cases.add(Case.get("dot-dot database", "/v1/databases/%2e%2e/tables", null, 400, "invalid_name"));
        cases.add(Case.get("dot database", "/v1/databases/%2E/tables", null, 400, "invalid_name"));
        cases.add(Case.get("slash in a table name", "/v1/databases/{dbname}/tables/a%2Fb", null, 400, "invalid_name"));
        // Refused by Jetty before any route (an encoded NUL), still in the envelope.
        cases.add(Case.get("control character in a name", "/v1/databases/{dbname}/tables/a%00b", null, 400,
                "invalid_request"));
        cases.add(Case.get("image/png", "/v1/databases", "image/png", 406, "not_acceptable"));
        cases.add(Case.get("health as an image", "/health", "image/png", 406, "not_acceptable"));
        cases.add(Case.get("readiness as HTML", "/ready", "text/html", 406, "not_acceptable"));
        cases.add(Case.get("OpenAPI as XML", "/openapi.json", "application/xml", 406, "not_acceptable"));
        cases.add(Case.get("metrics as JSON", "/metrics", "application/json", 406, "not_acceptable"));
        cases.add(Case.get("table list as CSV", "/v1/databases/{dbname}/tables", "text/csv", 406,
                "not_acceptable"));
        cases.add(new Case("SQL answered as CSV", "POST", "/v1/sql", JSON, "{\"sql\": \"SELECT 1\"}".getBytes(UTF_8),
                "text/csv", 406, "not_acceptable"));
        cases.add(Case.get("image/png for a row", "{t}/rows/1", "image/png", 406, "not_acceptable"));
        cases.add(new Case("scan answered as HTML", "POST", "{t}/scan", JSON, "{}".getBytes(UTF_8), "text/html", 406,
                "not_acceptable"));
        cases.add(new Case("rows as text/plain", "POST", "{t}/rows", "text/plain",
                "[{\"id\": 1}]".getBytes(UTF_8), null, 415, "unsupported_media_type"));
        // Arrow streams that lie.
        cases.add(new Case("Arrow message declaring 2 GiB of metadata", "POST", "{t}/rows", Api.ARROW,
                lyingArrowMetadata(), null, 400, "malformed_arrow"));
        cases.add(new Case("Arrow batch declaring 1 TiB of body", "POST", "{t}/rows", Api.ARROW, lyingArrowBody(),
                null, 400, "malformed_arrow"));
        cases.add(new Case("truncated Arrow stream", "POST", "{t}/rows", Api.ARROW, truncatedArrow(), null, 400,
                "malformed_arrow"));
        cases.add(new Case("Arrow garbage", "POST", "{t}/rows", Api.ARROW, "not arrow at all".getBytes(UTF_8), null,
                400, "malformed_arrow"));
        return cases;
    }

    @Test
    void everyHostileRequestIsAQuick4xxThatWritesNothing(LocalCluster cluster, TestNames names) throws Exception {
        try (Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .start()) {
            Api api = new Api(gateway);
            TablePath path = createTable(api, names.table("target"), COLUMNS,
                    ", \"primary_key\": [\"id\"], \"buckets\": 2");
            String table = tableUrl(path);
            String db = "/v1/databases/" + path.getDatabaseName();
            String count = "{\"sql\": \"SELECT count(*) AS n FROM " + path.getDatabaseName() + ".\\\""
                    + path.getTableName() + "\\\"\"}";
            // Warm every route once, so the second limit measures the request, not the JIT.
            assertThat(api.postJson(table + "/rows", "[{\"id\": 0}]").status()).isEqualTo(200);
            assertThat(api.postJson("/v1/sql", count).json().get("rows").get(0).get("n").asLong()).isEqualTo(1);
            for (Case c : cases()) {
                System.out.println("warming up: " + c.name());
                send(api, c, table, db, path);
            }
            long heapBefore = heapAfterGc();

            SoftAssertions softly = new SoftAssertions();
            for (Case c : cases()) {
                long started = System.nanoTime();
                Api.Response response = send(api, c, table, db, path);
                long millis = (System.nanoTime() - started) / 1_000_000;
                String code = envelopeField(response, "code");
                System.out.printf("%-45s %d %-22s %5d ms  %s%n", c.name(), response.status(), code, millis,
                        clip(response.text()).replace('\n', ' '));
                softly.assertThat(response.status()).as("%s: %s", c.name(), clip(response.text())).isEqualTo(c.status());
                softly.assertThat(code).as("%s: %s", c.name(), clip(response.text())).isEqualTo(c.code());
                softly.assertThat(envelopeField(response, "message")).as("%s: message", c.name()).isNotBlank();
                softly.assertThat(response.text()).as("%s: no stack trace", c.name()).doesNotContain("\tat ");
                softly.assertThat(millis).as("%s: answered within a second", c.name()).isLessThan(1_000);
                softly.assertThat(api.get("/health").status()).as("%s: /health after it", c.name()).isEqualTo(200);
            }
            softly.assertAll();

            // Nothing was written: the one warm-up row is all the table holds.
            assertThat(api.postJson("/v1/sql", count).json().get("rows").get(0).get("n").asLong()).isEqualTo(1);
            assertThat(api.get("/v1/databases/" + path.getDatabaseName() + "/tables").text()).doesNotContain("huge");
            long heapAfter = heapAfterGc();
            System.out.printf("heap after a full GC: %d MiB before the corpus, %d MiB after%n", heapBefore >> 20,
                    heapAfter >> 20);
            assertThat(heapAfter).as("heap after a full GC").isLessThanOrEqualTo(heapBefore + heapBefore / 10);
            api.assertNoArrowMemoryHeld();
        }
    }

    /**
     * SQL of a few dozen bytes that would run for hours in execution, not parsing (the corpus above):
     * a cross join counted, a self-join aggregated, a cross join ordered, a cross join grouped, over
     * three 2,000-row tables. Each answers its deadline's 504 or its budget's 413 within the
     * deadline and a second, the gateway's threads go back to idle, and its heap is where it was.
     */
    @Test
    void statementsThatWouldRunForHoursStopAtTheirDeadlineOrBudget(LocalCluster cluster, TestNames names)
            throws Exception {
        try (Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .statementTimeout(java.time.Duration.ofSeconds(2)).start()) {
            Api api = new Api(gateway);
            String t = RunawayStatementsIT.table(api, names, 2_000);
            List<String> statements = List.of(
                    "SELECT count(*) FROM " + t + " a, " + t + " b, " + t + " c WHERE a.id + b.id + c.id < 0",
                    "SELECT a.v, count(*), sum(b.id) FROM " + t + " a JOIN " + t + " b ON MOD(a.id, 2) = MOD(b.id, 2)"
                            + " JOIN " + t + " c ON MOD(b.id, 2) = MOD(c.id, 2) GROUP BY a.v",
                    "SELECT a.id, b.id, c.id FROM " + t + " a, " + t + " b, " + t + " c ORDER BY a.id + b.id + c.id",
                    "SELECT a.id + b.id AS k, count(*) FROM " + t + " a, " + t + " b, " + t + " c GROUP BY a.id + b.id");
            api.postJson("/v1/sql", RunawayStatementsIT.sql(statements.get(0))); // warm up the planner
            long heapBefore = heapAfterGc();
            SoftAssertions softly = new SoftAssertions();
            for (String statement : statements) {
                long started = System.nanoTime();
                Api.Response response = api.postJson("/v1/sql", RunawayStatementsIT.sql(statement));
                long millis = (System.nanoTime() - started) / 1_000_000;
                System.out.printf("%d %-26s %5d ms  %s%n", response.status(), response.errorCode(), millis,
                        clip(response.text()).replace('\n', ' '));
                softly.assertThat(response.status()).as("%s: %s", statement, clip(response.text())).isIn(504, 413);
                softly.assertThat(response.errorCode()).as(statement).isIn("statement_timeout",
                        "statement_budget_exceeded");
                softly.assertThat(millis).as("%s: answered within its 2 s deadline and a second", statement)
                        .isLessThan(3_000);
                RunawayStatementsIT.assertThreadsIdleWithin("riffle-gateway-http", java.time.Duration.ofSeconds(2));
                softly.assertThat(api.get("/health").status()).as("%s: /health after it", statement).isEqualTo(200);
            }
            softly.assertAll();
            long heapAfter = heapAfterGc();
            System.out.printf("heap after a full GC: %d MiB before the statements, %d MiB after%n", heapBefore >> 20,
                    heapAfter >> 20);
            assertThat(heapAfter).as("heap after a full GC").isLessThanOrEqualTo(heapBefore + heapBefore / 10);
            api.assertNoArrowMemoryHeld();
        }
    }

    private static Api.Response send(Api api, Case c, String table, String db, TablePath path) {
        String target = c.path().replace("{t}", table).replace("{db}", db)
                .replace("{dbname}", path.getDatabaseName());
        byte[] body = c.body() == null ? null : new String(c.body(), UTF_8).contains("{sqlt}")
                ? new String(c.body(), UTF_8).replace("{sqlt}", path.getDatabaseName() + ".\\\"" + path.getTableName()
                        + "\\\"").getBytes(UTF_8)
                : c.body();
        String[] headers = c.accept() == null ? new String[0] : new String[] {"Accept", c.accept()};
        return c.method().equals("GET") ? api.get(target, headers) : api.post(target, c.contentType(), body, headers);
    }

    /** A field of the error envelope, or null when the answer has none. */
    private static String envelopeField(Api.Response response, String field) {
        try {
            var error = Api.JSON.readTree(response.body()).get("error");
            return error == null || error.get(field) == null ? null : error.get(field).asText();
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /**
     * The heap in use after full GCs: the least of several, since the embedded cluster in this JVM
     * allocates between them (what only the corpus kept alive survives every one).
     */
    private static long heapAfterGc() {
        var memory = ManagementFactory.getMemoryMXBean();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < 6; i++) {
            memory.gc();
            least = Math.min(least, memory.getHeapMemoryUsage().getUsed());
        }
        return least;
    }

    private static String clip(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    /** A stream whose first message declares 2 GiB of metadata and carries 8 bytes. */
    private static byte[] lyingArrowMetadata() {
        ByteBuffer buffer = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(0xFFFFFFFF).putInt(Integer.MAX_VALUE - 8).putLong(0);
        return buffer.array();
    }

    /** A valid schema, then a record batch whose metadata declares a body of 1 TiB. */
    private static byte[] lyingArrowBody() throws Exception {
        byte[] stream = validArrow();
        // The record batch message follows the schema message; its bodyLength is an 8-byte-aligned
        // little-endian long inside the flatbuffer metadata: find it by its value and rewrite it.
        byte[] copy = stream.clone();
        int batch = indexOfSecondMessage(copy);
        long bodyLength = 1L << 40;
        ByteBuffer view = ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN);
        int metadataLength = view.getInt(batch + 4);
        // Every 8-byte-aligned long in the metadata that equals the real body length is it.
        long realBody = bodyLengthOf(copy, batch);
        for (int i = batch + 8; i + 8 <= batch + 8 + metadataLength; i += 8) {
            if (view.getLong(i) == realBody) {
                view.putLong(i, bodyLength);
            }
        }
        assertThat(bodyLengthOf(copy, batch)).as("the rewritten body length").isEqualTo(bodyLength);
        return copy;
    }

    /** A valid stream cut in the middle of its record batch. */
    private static byte[] truncatedArrow() throws Exception {
        byte[] stream = validArrow();
        byte[] cut = new byte[stream.length - 20];
        System.arraycopy(stream, 0, cut, 0, cut.length);
        return cut;
    }

    private static byte[] validArrow() throws Exception {
        Schema schema = new Schema(List.of(Field.notNullable("id", new ArrowType.Int(32, true))));
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (var writer = new org.apache.arrow.vector.ipc.ArrowStreamWriter(root, null,
                    java.nio.channels.Channels.newChannel(out))) {
                writer.start();
                IntVector ids = (IntVector) root.getVector(0);
                ids.allocateNew(3);
                for (int i = 0; i < 3; i++) {
                    ids.set(i, 100 + i);
                }
                root.setRowCount(3);
                writer.writeBatch();
                writer.end();
            }
            return out.toByteArray();
        }
    }

    private static int indexOfSecondMessage(byte[] stream) {
        ByteBuffer view = ByteBuffer.wrap(stream).order(ByteOrder.LITTLE_ENDIAN);
        int schemaMetadata = view.getInt(4);
        return 8 + schemaMetadata; // a schema message has no body
    }

    private static long bodyLengthOf(byte[] stream, int message) {
        ByteBuffer view = ByteBuffer.wrap(stream).order(ByteOrder.LITTLE_ENDIAN);
        int metadataLength = view.getInt(message + 4);
        ByteBuffer metadata = ByteBuffer.wrap(stream, message + 8, metadataLength).slice().order(ByteOrder.LITTLE_ENDIAN);
        return org.apache.arrow.flatbuf.Message.getRootAsMessage(metadata).bodyLength();
    }
}
