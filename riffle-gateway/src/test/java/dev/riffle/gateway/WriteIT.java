package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.MetadataIT.tablesOf;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMilliVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Writes over HTTP, read back through riffle-core; bad requests write nothing. */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class WriteIT {
    static final String ALL_TYPES = "["
            + "{\"name\": \"id\", \"type\": \"INT NOT NULL\"},"
            + "{\"name\": \"flag\", \"type\": \"BOOLEAN\"},"
            + "{\"name\": \"tiny\", \"type\": \"TINYINT\"},"
            + "{\"name\": \"small\", \"type\": \"SMALLINT\"},"
            + "{\"name\": \"big\", \"type\": \"BIGINT\"},"
            + "{\"name\": \"f\", \"type\": \"FLOAT\"},"
            + "{\"name\": \"d\", \"type\": \"DOUBLE\"},"
            + "{\"name\": \"amount\", \"type\": \"DECIMAL(10,2)\"},"
            + "{\"name\": \"code\", \"type\": \"CHAR(3)\"},"
            + "{\"name\": \"name\", \"type\": \"STRING\"},"
            + "{\"name\": \"raw\", \"type\": \"BYTES\"},"
            + "{\"name\": \"fixed\", \"type\": \"BINARY(2)\"},"
            + "{\"name\": \"day\", \"type\": \"DATE\"},"
            + "{\"name\": \"clock\", \"type\": \"TIME(3)\"},"
            + "{\"name\": \"at\", \"type\": \"TIMESTAMP(3)\"},"
            + "{\"name\": \"seen\", \"type\": \"TIMESTAMP_LTZ(6)\"},"
            + "{\"name\": \"tags\", \"type\": \"ARRAY<INT>\"},"
            + "{\"name\": \"attrs\", \"type\": \"MAP<STRING, INT>\"},"
            + "{\"name\": \"pos\", \"type\": \"ROW<x DOUBLE, label STRING>\"}]";
    static final String ALL_TYPES_ROWS = "["
            + "{\"id\": 1, \"flag\": true, \"tiny\": 7, \"small\": 300, \"big\": 9007199254740993, \"f\": 1.5,"
            + " \"d\": 2.25, \"amount\": 12.50, \"code\": \"abc\", \"name\": \"héllo ✓\", \"raw\": \"AQID\","
            + " \"fixed\": \"AQI=\", \"day\": \"2024-06-01\", \"clock\": \"12:30:00.250\","
            + " \"at\": \"2024-06-01T12:30:00.250\", \"seen\": \"2024-06-01T12:30:00.123456Z\","
            + " \"tags\": [1, null, 3], \"attrs\": {\"a\": 1, \"b\": null}, \"pos\": {\"x\": 1.5, \"label\": \"p\"}},"
            + "{\"id\": 2, \"flag\": null, \"tiny\": null, \"small\": null, \"big\": null, \"f\": null, \"d\": null,"
            + " \"amount\": null, \"code\": null, \"name\": null, \"raw\": null, \"fixed\": null, \"day\": null,"
            + " \"clock\": null, \"at\": null, \"seen\": null, \"tags\": null, \"attrs\": null, \"pos\": null}]";

    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void jsonRowsOfEveryTypeReadBackIdenticallyThroughTheJavaReader(Api api, Connection connection, TestNames names)
            throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("all_types"), ALL_TYPES, "");
        Api.Response written = api.postJson(tableUrl(path) + "/rows", ALL_TYPES_ROWS);
        assertThat(written.status()).as(written.text()).isEqualTo(200);
        assertThat(written.json().get("written").asInt()).isEqualTo(2);

        List<JsonNode> expected = new ArrayList<>();
        Api.JSON.readTree(ALL_TYPES_ROWS).forEach(expected::add);
        assertThat(ReadBack.rows(connection, path, false)).containsExactlyElementsOf(expected);

        // Spot-check the Arrow values themselves, not only their JSON rendering.
        try (BufferAllocator allocator = new RootAllocator();
                dev.riffle.core.Riffle riffle = dev.riffle.core.Riffle.using(connection, allocator);
                var reader = riffle.table(path).read().log().columns("big", "amount", "at").createLogReader();
                var batches = reader.collectAll()) {
            VectorSchemaRoot root = batches.batches().get(0).root();
            assertThat(((BigIntVector) root.getVector("big")).get(0)).isEqualTo(9007199254740993L);
            assertThat(((DecimalVector) root.getVector("amount")).getObject(0)).isEqualTo(new BigDecimal("12.50"));
            assertThat(((TimeStampMilliVector) root.getVector("at")).get(0))
                    .isEqualTo(java.time.Instant.parse("2024-06-01T12:30:00.250Z").toEpochMilli());
        }
    }

    @Test
    void ndjsonAppendsOneRowPerLine(Api api, Connection connection, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("ndjson"), SIMPLE, "");
        String body = "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}\n\n{\"id\": 3}\n";
        Api.Response written = api.post(tableUrl(path) + "/rows", "application/x-ndjson", body.getBytes(UTF_8));
        assertThat(written.status()).as(written.text()).isEqualTo(200);
        assertThat(written.json().get("written").asInt()).isEqualTo(3);
        assertThat(ReadBack.rows(connection, path, false)).extracting(r -> r.get("id").asInt()).containsExactly(1, 2, 3);
    }

    @Test
    void aColumnAddedAMomentAgoIsWrittenAtOnce(Api api, Connection connection, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("added_column"), SIMPLE, "");
        // The first write leaves the table's metadata with the gateway's session (kept up to a second).
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"name\": \"a\"}]").status()).isEqualTo(200);
        Api.Response altered = api.send("PATCH", tableUrl(path),
                "{\"add_columns\": [{\"name\": \"note\", \"type\": \"STRING\"}]}");
        assertThat(altered.status()).as(altered.text()).isEqualTo(200);

        Api.Response json = api.postJson(tableUrl(path) + "/rows", "[{\"id\": 2, \"name\": \"b\", \"note\": \"new\"}]");
        assertThat(json.status()).as(json.text()).isEqualTo(200);
        Api.Response ndjson = api.post(tableUrl(path) + "/rows", "application/x-ndjson",
                "{\"id\": 3, \"note\": \"newer\"}\n".getBytes(UTF_8));
        assertThat(ndjson.status()).as(ndjson.text()).isEqualTo(200);
        assertThat(ReadBack.rows(connection, path, false)).extracting(r -> r.get("id").asInt() + ":" + r.get("note"))
                .containsExactly("1:null", "2:\"new\"", "3:\"newer\"");
    }

    @Test
    void aTableCreatedAgainAMomentAgoTakesTheNextWrite(Api api, Connection connection, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("created_again"), SIMPLE, "");
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"name\": \"old\"}]").status()).isEqualTo(200);
        assertThat(api.delete(tableUrl(path)).status()).isEqualTo(204);
        createTable(api, path, SIMPLE, "");

        Api.Response written = api.postJson(tableUrl(path) + "/rows", "[{\"id\": 2, \"name\": \"new\"}]");
        assertThat(written.status()).as(written.text()).isEqualTo(200);
        assertThat(ReadBack.rows(connection, path, false)).extracting(r -> r.get("name").asText())
                .containsExactly("new");
    }

    @Test
    void aPrimaryKeyTableCreatedAgainAMomentAgoTakesTheNextWrite(Api api, Connection connection, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("pk_created_again"), SIMPLE_NOT_NULL, ", \"primary_key\": [\"id\"]");
        assertThat(api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"name\": \"old\"}]").status()).isEqualTo(200);
        assertThat(api.delete(tableUrl(path)).status()).isEqualTo(204);
        createTable(api, path, SIMPLE_NOT_NULL, ", \"primary_key\": [\"id\"]");

        // Fluss's writer would wait out the request timeout on the dropped table's id (seen: 60 s, then a
        // 504), so primary-key tables are written by fresh metadata.
        Api.Response written = api.postJson(tableUrl(path) + "/rows", "[{\"id\": 2, \"name\": \"new\"}]");
        assertThat(written.status()).as(written.text()).isEqualTo(200);
        assertThat(ReadBack.rows(connection, path, true)).extracting(r -> r.get("name").asText())
                .containsExactly("new");
    }

    @Test
    void arrowStreamIngestReadsBackIdentically(Api api, Connection connection, TestNames names) throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("arrow_in"), "["
                + "{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"name\", \"type\": \"STRING\"},"
                + "{\"name\": \"amount\", \"type\": \"DECIMAL(10,2)\"}, {\"name\": \"at\", \"type\": \"TIMESTAMP(3)\"}]", "");
        Schema schema = new Schema(List.of(
                Field.nullable("id", new ArrowType.Int(32, true)),
                Field.nullable("name", ArrowType.Utf8.INSTANCE),
                Field.nullable("amount", new ArrowType.Decimal(10, 2, 128)),
                Field.nullable("at", new ArrowType.Timestamp(TimeUnit.MILLISECOND, null))));
        byte[] body;
        try (BufferAllocator allocator = new RootAllocator(); VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
            body = arrowStream(root, (batch, n) -> {
                for (int i = 0; i < 5; i++) {
                    ((IntVector) batch.getVector("id")).setSafe(i, i);
                    ((VarCharVector) batch.getVector("name")).setSafe(i, ("n" + i).getBytes(UTF_8));
                    ((DecimalVector) batch.getVector("amount")).setSafe(i, new BigDecimal(i + ".25"));
                    ((TimeStampMilliVector) batch.getVector("at")).setSafe(i, 1_717_245_000_000L + i);
                }
                batch.getVector("name").setNull(4);
                batch.setRowCount(5);
            }, 2);
        }
        Api.Response written = api.post(tableUrl(path) + "/rows", Api.ARROW, body);
        assertThat(written.status()).as(written.text()).isEqualTo(200);
        assertThat(written.json().get("written").asInt()).isEqualTo(10);
        List<JsonNode> rows = ReadBack.rows(connection, path, false);
        assertThat(rows).hasSize(10);
        assertThat(rows.get(0).toString())
                .isEqualTo("{\"id\":0,\"name\":\"n0\",\"amount\":0.25,\"at\":\"2024-06-01T12:30:00\"}");
        assertThat(rows.get(9).toString())
                .isEqualTo("{\"id\":4,\"name\":null,\"amount\":4.25,\"at\":\"2024-06-01T12:30:00.004\"}");
    }

    @Test
    void upsertPartialUpdateAndDeleteOnAPrimaryKeyTable(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("users"), "["
                + "{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"name\", \"type\": \"STRING\"},"
                + "{\"name\": \"score\", \"type\": \"BIGINT\"}]", ", \"primary_key\": [\"id\"], \"buckets\": 2");
        assertThat(api.postJson(tableUrl(path) + "/rows",
                "[{\"id\": 1, \"name\": \"ann\", \"score\": 10}, {\"id\": 2, \"name\": \"bob\", \"score\": 20}]").status())
                .isEqualTo(200);
        Api.Response partial = api.postJson(tableUrl(path) + "/rows?columns=id,score", "[{\"id\": 1, \"score\": 11}]");
        assertThat(partial.status()).as(partial.text()).isEqualTo(200);
        assertThat(api.get(tableUrl(path) + "/rows/1").json().toString())
                .isEqualTo("{\"id\":1,\"name\":\"ann\",\"score\":11}");

        Api.Response notInUpdate = api.postJson(tableUrl(path) + "/rows?columns=id,score", "[{\"id\": 1, \"name\": \"x\"}]");
        assertThat(notInUpdate.status()).isEqualTo(400);
        assertThat(notInUpdate.errorMessage()).contains("'name'", "partial update");
        Api.Response keyless = api.postJson(tableUrl(path) + "/rows?columns=score", "[{\"score\": 1}]");
        assertThat(keyless.status()).isEqualTo(400);
        assertThat(keyless.errorMessage()).contains("primary-key", "'id'");

        Api.Response deleted = api.deleteJson(tableUrl(path) + "/rows", "{\"keys\": [{\"id\": 2}, {\"id\": 99}]}");
        assertThat(deleted.status()).as(deleted.text()).isEqualTo(200);
        assertThat(deleted.json().get("deleted").asInt()).isEqualTo(2);
        assertThat(api.get(tableUrl(path) + "/rows/2").status()).isEqualTo(404);
        assertThat(api.get(tableUrl(path) + "/rows/1").status()).isEqualTo(200);

        Api.Response badKey = api.deleteJson(tableUrl(path) + "/rows", "{\"keys\": [{\"id\": 1}, {\"name\": \"ann\"}]}");
        assertThat(badKey.status()).isEqualTo(400);
        assertThat(badKey.json().get("error").get("key").asInt()).isEqualTo(1);
        assertThat(api.get(tableUrl(path) + "/rows/1").status()).as("nothing deleted").isEqualTo(200);
    }

    @Test
    void badRowsAreRejectedWholeNamingTheRowAndColumn(Api api, Connection connection, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("strict"), SIMPLE_NOT_NULL, "");
        String rows = tableUrl(path) + "/rows";

        Api.Response wrongType = api.postJson(rows, "[{\"id\": 1, \"name\": \"a\"}, {\"id\": 2, \"name\": \"b\"},"
                + " {\"id\": \"three\", \"name\": \"c\"}]");
        assertThat(wrongType.status()).isEqualTo(400);
        assertThat(wrongType.errorCode()).isEqualTo("invalid_row");
        assertThat(wrongType.json().get("error").get("row").asInt()).isEqualTo(2);
        assertThat(wrongType.json().get("error").get("column").asText()).isEqualTo("id");
        assertThat(wrongType.errorMessage())
                .isEqualTo("Row 2, column 'id': expected INT NOT NULL (a whole number), got string \"three\"");

        Api.Response missing = api.postJson(rows, "[{\"id\": 1, \"name\": \"a\"}, {\"name\": \"b\"}]");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.errorMessage()).contains("Row 1, column 'id'", "missing", "NOT NULL");

        Api.Response outOfRange = api.postJson(rows, "[{\"id\": 3000000000, \"name\": \"a\"}]");
        assertThat(outOfRange.status()).isEqualTo(400);
        assertThat(outOfRange.errorMessage()).contains("Row 0, column 'id'", "out of range");

        Api.Response unknown = api.postJson(rows, "[{\"id\": 1, \"name\": \"a\", \"colour\": \"red\"}]");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.errorCode()).isEqualTo("column_not_found");
        assertThat(unknown.errorMessage()).contains("Row 0", "'colour'", "[id, name]");

        Api.Response notAnArray = api.postJson(rows, "{\"id\": 1, \"name\": \"a\"}");
        assertThat(notAnArray.status()).isEqualTo(400);
        assertThat(notAnArray.errorMessage()).contains("array of row objects");

        Api.Response malformed = api.postJson(rows, "[{\"id\": 1, \"name\": \"a\"},");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.errorCode()).isEqualTo("malformed_json");

        Api.Response badLine = api.post(rows, "application/x-ndjson",
                "{\"id\": 1, \"name\": \"a\"}\n{\"id\": 2, \"name\": \"b\"}\n{\"id\": 3, \"name\": 4}\n".getBytes(UTF_8));
        assertThat(badLine.status()).isEqualTo(400);
        assertThat(badLine.errorMessage()).startsWith("Row 2, column 'name'");

        Api.Response wrongContentType = api.post(rows, "text/csv", "id,name\n1,a\n".getBytes(UTF_8));
        assertThat(wrongContentType.status()).isEqualTo(415);
        assertThat(wrongContentType.errorMessage()).contains("text/csv", "application/x-ndjson");

        Api.Response formEncoded = api.post(rows, "application/x-www-form-urlencoded", "id=1".getBytes(UTF_8));
        assertThat(formEncoded.status()).isEqualTo(415);

        StringBuilder huge = new StringBuilder("[");
        while (huge.length() < GatewayExtension.MAX_BODY_BYTES + 10_000) {
            huge.append("{\"id\": 1, \"name\": \"").append("x".repeat(100)).append("\"},");
        }
        huge.append("{\"id\": 1, \"name\": \"a\"}]");
        Api.Response tooLarge = api.postJson(rows, huge.toString());
        assertThat(tooLarge.status()).isEqualTo(413);
        assertThat(tooLarge.errorCode()).isEqualTo("payload_too_large");

        Api.Response partialOnLogTable = api.postJson(rows + "?columns=id", "[{\"id\": 1}]");
        assertThat(partialOnLogTable.status()).isEqualTo(400);
        assertThat(partialOnLogTable.errorMessage()).contains("log table");

        Api.Response noTable = api.postJson(tableUrl(names.table("absent")) + "/rows", "[{\"id\": 1}]");
        assertThat(noTable.status()).isEqualTo(404);
        assertThat(noTable.errorCode()).isEqualTo("table_not_found");

        assertThat(ReadBack.rows(connection, path, false)).as("nothing was written").isEmpty();
    }

    @Test
    void badArrowBodiesWriteNothing(Api api, Connection connection, TestNames names) throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("strict_arrow"), SIMPLE_NOT_NULL, "");
        String rows = tableUrl(path) + "/rows";
        try (BufferAllocator allocator = new RootAllocator()) {
            Schema wrongType = new Schema(List.of(Field.nullable("id", ArrowType.Utf8.INSTANCE)));
            try (VectorSchemaRoot root = VectorSchemaRoot.create(wrongType, allocator)) {
                byte[] body = arrowStream(root, (b, n) -> {
                    ((VarCharVector) b.getVector("id")).setSafe(0, "1".getBytes(UTF_8));
                    b.setRowCount(1);
                }, 1);
                Api.Response response = api.post(rows, Api.ARROW, body);
                assertThat(response.status()).isEqualTo(400);
                assertThat(response.errorMessage()).contains("Column 'id'", "Utf8", "INT NOT NULL");
            }
            Schema withNull = new Schema(List.of(
                    new Field("id", FieldType.nullable(new ArrowType.Int(32, true)), null),
                    Field.nullable("name", ArrowType.Utf8.INSTANCE)));
            try (VectorSchemaRoot root = VectorSchemaRoot.create(withNull, allocator)) {
                byte[] body = arrowStream(root, (b, n) -> {
                    ((IntVector) b.getVector("id")).setSafe(0, 1);
                    if (n == 1) {
                        b.getVector("id").setNull(1); // the second batch's second row: row 3 of the request
                    } else {
                        ((IntVector) b.getVector("id")).setSafe(1, 2);
                    }
                    ((VarCharVector) b.getVector("name")).setSafe(0, "a".getBytes(UTF_8));
                    ((VarCharVector) b.getVector("name")).setSafe(1, "b".getBytes(UTF_8));
                    b.setRowCount(2);
                }, 2);
                Api.Response response = api.post(rows, Api.ARROW, body);
                assertThat(response.status()).isEqualTo(400);
                assertThat(response.errorMessage()).isEqualTo(
                        "Row 3, column 'id': null, but this write needs it (the column is NOT NULL)");
            }
        }
        Api.Response garbage = api.post(rows, Api.ARROW, "not arrow at all".getBytes(UTF_8));
        assertThat(garbage.status()).isEqualTo(400);
        assertThat(garbage.errorCode()).isEqualTo("malformed_arrow");
        assertThat(ReadBack.rows(connection, path, false)).as("nothing was written").isEmpty();
    }

    static final String SIMPLE = "[{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"name\", \"type\": \"STRING\"}]";
    static final String SIMPLE_NOT_NULL =
            "[{\"name\": \"id\", \"type\": \"INT NOT NULL\"}, {\"name\": \"name\", \"type\": \"STRING\"}]";

    static TablePath createTable(Api api, TablePath path, String columns, String extra) {
        Api.Response created = api.postJson(tablesOf(path),
                "{\"name\": \"" + path.getTableName() + "\", \"columns\": " + columns + extra + "}");
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        return path;
    }

    interface BatchFiller {
        void fill(VectorSchemaRoot root, int batch);
    }

    /** An Arrow IPC stream holding {@code batches} copies of the batch {@code filler} makes. */
    static byte[] arrowStream(VectorSchemaRoot root, BatchFiller filler, int batches) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            for (int i = 0; i < batches; i++) {
                root.allocateNew();
                filler.fill(root, i);
                writer.writeBatch();
            }
            writer.end();
        }
        return out.toByteArray();
    }
}
