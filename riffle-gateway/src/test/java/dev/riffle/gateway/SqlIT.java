package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.JsonValueSink;
import dev.riffle.gateway.http.Json;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** POST /v1/sql: statements through the jdbc:riffle driver, answered in JSON and Arrow. */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class SqlIT {
    private static final String ORDERS = "[{\"name\": \"region\", \"type\": \"STRING\"}, {\"name\": \"id\", \"type\": \"INT\"},"
            + "{\"name\": \"amount\", \"type\": \"DECIMAL(10,2)\"}, {\"name\": \"note\", \"type\": \"STRING\"}]";
    private static final String KEYS = ", \"primary_key\": [\"region\", \"id\"], \"bucket_key\": [\"region\"], \"buckets\": 2";

    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    private String orders(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("orders"), ORDERS, KEYS);
        Api.Response written = api.postJson(tableUrl(path) + "/rows", "["
                + "{\"region\": \"eu\", \"id\": 1, \"amount\": 10.50, \"note\": \"first\"},"
                + "{\"region\": \"eu\", \"id\": 2, \"amount\": 20.00, \"note\": null},"
                + "{\"region\": \"us\", \"id\": 1, \"amount\": 5.25, \"note\": \"other\"}]");
        assertThat(written.status()).as(written.text()).isEqualTo(200);
        return path.getDatabaseName() + ".\"" + path.getTableName() + "\"";
    }

    private Api.Response sql(String sql, String parameters, String... headers) {
        String body = "{\"sql\": " + Api.JSON.valueToTree(sql) + (parameters == null ? "" : ", \"parameters\": " + parameters)
                + "}";
        return api.postJson("/v1/sql", body, headers);
    }

    /** Each row as the gateway renders it (not re-parsed, so decimals keep their scale). */
    private static List<String> rowsText(VectorSchemaRoot batch) {
        List<String> rows = new ArrayList<>();
        for (int row = 0; row < batch.getRowCount(); row++) {
            StringWriter text = new StringWriter();
            try (JsonGenerator json = Json.MAPPER.createGenerator(text)) {
                JsonValueSink.writeRow(json, ArrowValueReader.ofColumns(batch.getFieldVectors()), row,
                        new JsonValueSink(json));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            rows.add(text.toString());
        }
        return rows;
    }

    @Test
    void pointLookupOnTheWholePrimaryKey(Api api, TestNames names) {
        String table = orders(api, names);
        Api.Response found = sql("SELECT id, amount, note FROM " + table + " WHERE region = 'eu' AND id = 1", null);
        assertThat(found.status()).as(found.text()).isEqualTo(200);
        assertThat(found.text()).isEqualTo("{\"columns\":[{\"name\":\"id\",\"type\":\"INTEGER\"},"
                + "{\"name\":\"amount\",\"type\":\"DECIMAL\"},{\"name\":\"note\",\"type\":\"VARCHAR\"}],"
                + "\"rows\":[{\"id\":1,\"amount\":10.50,\"note\":\"first\"}],\"rowCount\":1}");

        // The plan is the Fluss point lookup.
        Api.Response plan = sql("EXPLAIN PLAN FOR SELECT * FROM " + table + " WHERE region = 'eu' AND id = 1", null);
        assertThat(plan.status()).as(plan.text()).isEqualTo(200);
        assertThat(plan.text()).contains("PointLookup");
    }

    @Test
    void parametersAreBoundInOrder(Api api, TestNames names) {
        String table = orders(api, names);
        String query = "SELECT note FROM " + table + " WHERE region = ? AND id = ?";
        Api.Response first = sql(query, "[\"us\", 1]");
        assertThat(first.status()).as(first.text()).isEqualTo(200);
        assertThat(first.json().get("rows").toString()).isEqualTo("[{\"note\":\"other\"}]");
        // The same statement again (prepared once per connection), other values.
        Api.Response second = sql(query, "[\"eu\", 2]");
        assertThat(second.json().get("rows").toString()).isEqualTo("[{\"note\":null}]");
        Api.Response none = sql(query, "[\"eu\", 42]");
        assertThat(none.json().get("rowCount").asInt()).isZero();
        assertThat(none.json().get("rows").size()).isZero();

        Api.Response badParameter = sql(query, "[{\"a\": 1}, 1]");
        assertThat(badParameter.status()).isEqualTo(400);
        assertThat(badParameter.errorMessage()).contains("Parameter 1");
    }

    @Test
    void temporalParametersAreGivenAsTheJsonApiWritesThem(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("times"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"ts\", \"type\": \"TIMESTAMP(9)\"}, {\"name\": \"d\", \"type\": \"DATE\"},"
                + " {\"name\": \"ltz\", \"type\": \"TIMESTAMP_LTZ(6)\"}]", ", \"primary_key\": [\"id\"]");
        String table = path.getDatabaseName() + ".\"" + path.getTableName() + "\"";
        // Written through SQL with parameters, as text the way the JSON API writes these types.
        Api.Response inserted = sql("INSERT INTO " + table + " VALUES (?, ?, ?, ?)",
                "[1, \"2024-06-01T12:30:00.123456789\", \"2024-06-01\", \"2024-06-01T10:30:00.000001Z\"]");
        assertThat(inserted.status()).as(inserted.text()).isEqualTo(200);
        JsonNode row = api.get(tableUrl(path) + "/rows/1").json();
        assertThat(row.get("ts").asText()).isEqualTo("2024-06-01T12:30:00.123456789");
        assertThat(row.get("d").asText()).isEqualTo("2024-06-01");
        assertThat(row.get("ltz").asText()).isEqualTo("2024-06-01T10:30:00.000001Z");

        // Compared as parameters, with every digit: the exact value finds the row, a nanosecond off does not.
        Api.Response found = sql("SELECT id, ts FROM " + table + " WHERE ts = ?", "[\"2024-06-01T12:30:00.123456789\"]");
        assertThat(found.status()).as(found.text()).isEqualTo(200);
        assertThat(found.json().get("rows").toString()).isEqualTo("[{\"id\":1,\"ts\":\"2024-06-01T12:30:00.123456789\"}]");
        assertThat(sql("SELECT id FROM " + table + " WHERE ts = ?", "[\"2024-06-01T12:30:00.123456788\"]")
                .json().get("rowCount").asInt()).isZero();
        assertThat(sql("SELECT id FROM " + table + " WHERE d = ?", "[\"2024-06-01\"]").json().get("rowCount").asInt())
                .isEqualTo(1);

        Api.Response bad = sql("SELECT id FROM " + table + " WHERE ts = ?", "[\"yesterday\"]");
        assertThat(bad.status()).as(bad.text()).isEqualTo(400);
        assertThat(bad.errorMessage()).contains("Parameter 1", "TIMESTAMP", "'yesterday'");
    }

    @Test
    void ddlAndInsertsRunThroughSqlAndARecreatedTableIsReadAnew(Api api, TestNames names) {
        this.api = api;
        String db = names.database("sqlddl");
        assertThat(sql("CREATE DATABASE " + db, null).json().get("updateCount").asLong()).isZero();
        assertThat(sql("CREATE TABLE " + db + ".t (id INT, v STRING)", null).status()).isEqualTo(200);
        assertThat(sql("INSERT INTO " + db + ".t VALUES (1, 'a'), (2, 'b')", null).json().get("updateCount").asLong())
                .isEqualTo(2);
        assertThat(sql("SELECT count(*) AS n FROM " + db + ".t", null).json().get("rows").toString())
                .isEqualTo("[{\"n\":2}]");
        // The same statement text after the table was dropped and created again reads the new table.
        assertThat(sql("DROP TABLE " + db + ".t", null).status()).isEqualTo(200);
        assertThat(sql("CREATE TABLE " + db + ".t (id INT, v STRING)", null).status()).isEqualTo(200);
        assertThat(sql("INSERT INTO " + db + ".t VALUES (3, 'c')", null).status()).isEqualTo(200);
        assertThat(sql("SELECT count(*) AS n FROM " + db + ".t", null).json().get("rows").toString())
                .isEqualTo("[{\"n\":1}]");
        Api.Response bad = sql("CREATE TABLE " + db + ".t (id INT)", null);
        assertThat(bad.status()).as(bad.text()).isEqualTo(409);
        assertThat(bad.errorMessage()).contains("already exists");
    }

    /**
     * A literal INSERT of thousands of rows is written as its rows, not planned as a select per row
     * (which failed from about 2,000 rows).
     */
    @Test
    void aLiteralInsertOfThousandsOfRowsIsWritten(Api api, TestNames names) {
        this.api = api;
        String db = names.database("sqlvalues");
        assertThat(sql("CREATE DATABASE " + db, null).status()).isEqualTo(200);
        assertThat(sql("CREATE TABLE " + db + ".t (id INT, amount DECIMAL(10, 2), d DATE, PRIMARY KEY (id) NOT ENFORCED)",
                null).status()).isEqualTo(200);
        StringBuilder insert = new StringBuilder("INSERT INTO " + db + ".t VALUES ");
        for (int i = 0; i < 2_000; i++) { // 54 KB: the server takes statements up to 64 KiB
            insert.append(i == 0 ? "" : ",").append("(").append(i).append(",").append(i).append(".25,'2024-03-")
                    .append(String.format("%02d", i % 30 + 1)).append("')");
        }
        Api.Response inserted = sql(insert.toString(), null);
        assertThat(inserted.status()).as(inserted.text()).isEqualTo(200);
        assertThat(inserted.json().get("updateCount").asLong()).isEqualTo(2_000);
        // 0.25 * 2000 + (0 + 1 + ... + 1999)
        assertThat(sql("SELECT count(*) AS n, sum(amount) AS total, max(d) AS latest FROM " + db + ".t", null).text())
                .contains("\"rows\":[{\"n\":2000,\"total\":1999500.00,\"latest\":\"2024-03-30\"}]");
        // a key written again is updated, as any upsert into a primary-key table
        assertThat(sql("INSERT INTO " + db + ".t VALUES (7, 0.5, '2024-01-01')", null).status()).isEqualTo(200);
        assertThat(sql("SELECT amount, d FROM " + db + ".t WHERE id = 7", null).text())
                .contains("\"rows\":[{\"amount\":0.50,\"d\":\"2024-01-01\"}]");
    }

    @Test
    void aggregateAndTextPlainBody(Api api, TestNames names) {
        String table = orders(api, names);
        Api.Response totals = sql("SELECT region, count(*) AS n, sum(amount) AS total FROM " + table
                + " GROUP BY region ORDER BY region", null);
        assertThat(totals.status()).as(totals.text()).isEqualTo(200);
        assertThat(totals.text()).contains(
                "\"rows\":[{\"region\":\"eu\",\"n\":2,\"total\":30.50},{\"region\":\"us\",\"n\":1,\"total\":5.25}]");
        assertThat(totals.json().get("rowCount").asInt()).isEqualTo(2);

        Api.Response text = api.post("/v1/sql", "text/plain", ("SELECT count(*) AS n FROM " + table).getBytes(UTF_8));
        assertThat(text.status()).as(text.text()).isEqualTo(200);
        assertThat(text.json().get("rows").toString()).isEqualTo("[{\"n\":3}]");
    }

    @Test
    void arrowAnswerIsAReadableStream(Api api, TestNames names) {
        String table = orders(api, names);
        Api.Response arrow = sql("SELECT region, id, amount, note FROM " + table + " ORDER BY region, id", null,
                "Accept", Api.ARROW);
        assertThat(arrow.status()).as(arrow.text()).isEqualTo(200);
        try (BufferAllocator allocator = new RootAllocator()) {
            List<VectorSchemaRoot> batches = arrow.arrow(allocator);
            try {
                List<String> rows = new ArrayList<>();
                for (VectorSchemaRoot batch : batches) {
                    rows.addAll(rowsText(batch));
                }
                assertThat(rows).containsExactly(
                        "{\"region\":\"eu\",\"id\":1,\"amount\":10.50,\"note\":\"first\"}",
                        "{\"region\":\"eu\",\"id\":2,\"amount\":20.00,\"note\":null}",
                        "{\"region\":\"us\",\"id\":1,\"amount\":5.25,\"note\":\"other\"}");
            } finally {
                batches.forEach(VectorSchemaRoot::close);
            }
        }

        // No rows: still a stream with the schema.
        Api.Response empty = sql("SELECT id FROM " + table + " WHERE region = 'nowhere' AND id = 1", null,
                "Accept", Api.ARROW);
        assertThat(empty.status()).as(empty.text()).isEqualTo(200);
        try (BufferAllocator allocator = new RootAllocator()) {
            List<VectorSchemaRoot> batches = empty.arrow(allocator);
            assertThat(batches).allSatisfy(b -> assertThat(b.getRowCount()).isZero());
            batches.forEach(VectorSchemaRoot::close);
        }
    }

    @Test
    void badStatementsAreClientErrors(Api api, TestNames names) {
        String table = orders(api, names);
        Api.Response syntax = sql("SELEC id FROM " + table, null);
        assertThat(syntax.status()).as(syntax.text()).isEqualTo(400);
        assertThat(syntax.errorCode()).isEqualTo("sql_error");
        assertThat(syntax.errorMessage()).contains("SELEC");
        assertThat(syntax.text()).doesNotContain("\tat ");

        Api.Response unknownTable = sql("SELECT * FROM " + table.substring(0, table.indexOf('.')) + ".no_such_table",
                null);
        assertThat(unknownTable.status()).as(unknownTable.text()).isEqualTo(404);
        assertThat(unknownTable.errorCode()).isEqualTo("table_not_found");
        assertThat(unknownTable.errorMessage()).contains("no_such_table");

        Api.Response unknownColumn = sql("SELECT nope FROM " + table, null);
        assertThat(unknownColumn.status()).isEqualTo(400);
        assertThat(unknownColumn.errorMessage()).contains("nope");

        // What the statement asks of the table is not possible, and the code says so.
        Api.Response keyChange = sql("UPDATE " + table + " SET id = 3 WHERE region = 'eu' AND id = 1", null);
        assertThat(keyChange.status()).as(keyChange.text()).isEqualTo(400);
        assertThat(keyChange.errorCode()).isEqualTo("invalid_statement");
        assertThat(keyChange.errorMessage()).contains("cannot change primary-key column id");
        String log = table.substring(0, table.length() - 1) + "$log\"";
        Api.Response viewWrite = sql("INSERT INTO " + log + " VALUES ('eu', 9, 1.00, 'x')", null);
        assertThat(viewWrite.status()).as(viewWrite.text()).isEqualTo(400);
        assertThat(viewWrite.errorCode()).isEqualTo("unsupported");
        assertThat(viewWrite.errorMessage()).contains("read-only view");

        Api.Response noSql = api.postJson("/v1/sql", "{\"parameters\": []}");
        assertThat(noSql.status()).isEqualTo(400);
        assertThat(noSql.errorCode()).isEqualTo("invalid_request");

        Api.Response wrongType = api.post("/v1/sql", "text/csv", "SELECT 1".getBytes(UTF_8));
        assertThat(wrongType.status()).isEqualTo(415);

        Api.Response stillWorks = sql("SELECT 1 AS x", null);
        assertThat(stillWorks.text()).contains("\"rows\":[{\"x\":1}]");
    }
}
