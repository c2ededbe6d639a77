package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.gateway.http.Paths;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Point, batched and prefix lookups, in JSON and Arrow. */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class LookupIT {
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

    private TablePath orders(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("orders"), ORDERS, KEYS);
        Api.Response written = api.postJson(tableUrl(path) + "/rows", "["
                + "{\"region\": \"eu\", \"id\": 1, \"amount\": 10.50, \"note\": \"first\"},"
                + "{\"region\": \"eu\", \"id\": 2, \"amount\": 20.00, \"note\": null},"
                + "{\"region\": \"us\", \"id\": 1, \"amount\": 5.25, \"note\": \"other\"}]");
        assertThat(written.status()).as(written.text()).isEqualTo(200);
        return path;
    }

    @Test
    void pointLookupWithACompositeKeyInJsonAndArrow(Api api, TestNames names) {
        TablePath path = orders(api, names);
        Api.Response found = api.get(tableUrl(path) + "/rows/eu?id=1");
        assertThat(found.status()).as(found.text()).isEqualTo(200);
        assertThat(found.text()).isEqualTo("{\"region\":\"eu\",\"id\":1,\"amount\":10.50,\"note\":\"first\"}");

        Api.Response arrow = api.get(tableUrl(path) + "/rows/us?id=1", "Accept", Api.ARROW);
        assertThat(arrow.status()).isEqualTo(200);
        try (BufferAllocator allocator = new RootAllocator()) {
            List<VectorSchemaRoot> batches = arrow.arrow(allocator);
            try {
                assertThat(batches).hasSize(1);
                assertThat(ReadBack.json(batches.get(0))).extracting(JsonNode::toString)
                        .containsExactly("{\"region\":\"us\",\"id\":1,\"amount\":5.25,\"note\":\"other\"}");
            } finally {
                batches.forEach(VectorSchemaRoot::close);
            }
        }

        Api.Response missing = api.get(tableUrl(path) + "/rows/eu?id=42");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("row_not_found");

        Api.Response incomplete = api.get(tableUrl(path) + "/rows/eu");
        assertThat(incomplete.status()).isEqualTo(400);
        assertThat(incomplete.errorCode()).isEqualTo("invalid_key");
        assertThat(incomplete.errorMessage()).contains("'id'", "missing");

        Api.Response badValue = api.get(tableUrl(path) + "/rows/eu?id=one");
        assertThat(badValue.status()).isEqualTo(400);
        assertThat(badValue.errorMessage()).contains("'id'", "'one'", "whole number");

        Api.Response notAKey = api.get(tableUrl(path) + "/rows/eu?id=1&note=x");
        assertThat(notAKey.status()).isEqualTo(400);
        assertThat(notAKey.errorMessage()).contains("'note'", "region", "id");

        Api.Response unknown = api.get(tableUrl(path) + "/rows/eu?id=1&colour=red");
        assertThat(unknown.status()).isEqualTo(400);
        assertThat(unknown.errorCode()).isEqualTo("column_not_found");
    }

    @Test
    void pointLookupOnASingleColumnKey(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("users"), "[{\"name\": \"id\", \"type\": \"BIGINT\"},"
                + " {\"name\": \"name\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"]");
        api.postJson(tableUrl(path) + "/rows", "[{\"id\": 42, \"name\": \"answer\"}]");
        assertThat(api.get(tableUrl(path) + "/rows/42").json().toString()).isEqualTo("{\"id\":42,\"name\":\"answer\"}");
    }

    /**
     * A plain GET of one row is answered by the Jetty fast path (RowLookupHandler), other forms
     * by the Javalin route: both must give what a scan gives for the row, for every type.
     */
    @Test
    void aLookedUpRowReadsAsTheScanReadsIt(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("typed"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + "{\"name\": \"code\", \"type\": \"CHAR(4)\"}, {\"name\": \"raw\", \"type\": \"BYTES\"},"
                + "{\"name\": \"amount\", \"type\": \"DECIMAL(12,3)\"}, {\"name\": \"score\", \"type\": \"DOUBLE\"},"
                + "{\"name\": \"day\", \"type\": \"DATE\"}, {\"name\": \"at\", \"type\": \"TIMESTAMP(6)\"},"
                + "{\"name\": \"seen\", \"type\": \"TIMESTAMP_LTZ(3)\"}, {\"name\": \"tags\", \"type\": \"ARRAY<STRING>\"},"
                + "{\"name\": \"attrs\", \"type\": \"MAP<STRING, INT>\"},"
                + "{\"name\": \"point\", \"type\": \"ROW<x DOUBLE, label STRING>\"}]", ", \"primary_key\": [\"id\"]");
        String row = "{\"id\":7,\"code\":\"ab\",\"raw\":\"AAEC\",\"amount\":-12.500,\"score\":\"NaN\","
                + "\"day\":\"2024-02-29\",\"at\":\"1969-12-31T23:59:59.000001\",\"seen\":\"2024-06-01T12:30:00.250Z\","
                + "\"tags\":[\"a\",null],\"attrs\":{\"k\":1},\"point\":{\"x\":1.5,\"label\":null}}";
        String nulls = "{\"id\":8,\"code\":null,\"raw\":null,\"amount\":null,\"score\":null,\"day\":null,\"at\":null,"
                + "\"seen\":null,\"tags\":null,\"attrs\":null,\"point\":null}";
        Api.Response written = api.postJson(tableUrl(path) + "/rows", "[" + row + "," + nulls + "]");
        assertThat(written.status()).as(written.text()).isEqualTo(200);

        Api.Response scanned = api.postJson(tableUrl(path) + "/scan", "{\"changelog\": true}");
        assertThat(scanned.status()).as(scanned.text()).isEqualTo(200);
        // Compared as trees: the scan's text keeps "-12.500" too, but this parser reads it as a double.
        List<JsonNode> scannedRows = new ArrayList<>();
        for (JsonNode r : scanned.json().get("rows")) {
            com.fasterxml.jackson.databind.node.ObjectNode columns = r.deepCopy();
            assertThat(columns.get("_change_type").asText()).isEqualTo("+I");
            columns.remove(List.of("_change_type", "_log_offset", "_commit_timestamp"));
            scannedRows.add(columns);
        }
        assertThat(scannedRows).containsExactlyInAnyOrder(tree(row), tree(nulls));

        for (String expected : List.of(row, nulls)) {
            String id = expected.substring(6, 7);
            Api.Response fast = api.get(tableUrl(path) + "/rows/" + id);
            assertThat(fast.status()).as(fast.text()).isEqualTo(200);
            assertThat(fast.header("Content-Type")).startsWith("application/json");
            assertThat(fast.text()).isEqualTo(expected);
            // An Accept with parameters is not the fast path's: the Javalin route answers it.
            Api.Response routed = api.get(tableUrl(path) + "/rows/" + id, "Accept", "application/json; q=1");
            assertThat(routed.status()).as(routed.text()).isEqualTo(200);
            assertThat(routed.text()).isEqualTo(expected);
        }
    }

    private static JsonNode tree(String json) {
        try {
            return Api.JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void plainLookupsAnswerErrorsAndMetricsAsTheRouteDoes(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("users"), "[{\"name\": \"id\", \"type\": \"BIGINT\"},"
                + " {\"name\": \"name\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"]");
        api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"name\": \"one\"}]");
        assertThat(api.get(tableUrl(path) + "/rows/1").status()).isEqualTo(200);

        Api.Response missing = api.get(tableUrl(path) + "/rows/2");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.errorCode()).isEqualTo("row_not_found");
        assertThat(missing.errorMessage()).contains(path.toString(), "2");

        Api.Response badKey = api.get(tableUrl(path) + "/rows/two");
        assertThat(badKey.status()).isEqualTo(400);
        assertThat(badKey.errorMessage()).contains("'id'", "'two'");

        Api.Response noTable = api.get("/v1/databases/" + path.getDatabaseName() + "/tables/" + names.table("none")
                + "/rows/1");
        assertThat(noTable.status()).isEqualTo(404);
        assertThat(noTable.errorCode()).isEqualTo("table_not_found");

        Api.Response logTable = api.get(tableUrl(createTable(api, names.table("log"), "[{\"name\": \"id\", "
                + "\"type\": \"INT\"}]", "")) + "/rows/1");
        assertThat(logTable.status()).isEqualTo(400);
        assertThat(logTable.errorCode()).isEqualTo("not_a_primary_key_table");

        String route = "route=\"" + Paths.ROW + "\"";
        assertThat(api.get("/metrics").text())
                .contains("riffle_gateway_requests_seconds_count{method=\"GET\"," + route + ",status=\"200\"}")
                .contains("riffle_gateway_requests_seconds_count{method=\"GET\"," + route + ",status=\"404\"}")
                .contains("riffle_gateway_errors_total{code=\"row_not_found\",method=\"GET\"," + route + "}")
                .contains("riffle_gateway_errors_total{code=\"table_not_found\",method=\"GET\"," + route + "}")
                .contains("riffle_gateway_rows_total{direction=\"read\",method=\"GET\"," + route + "}");
    }

    @Test
    void batchedLookupAnswersFoundRowsInKeyOrderAndTheMissingIndexes(Api api, TestNames names) {
        TablePath path = orders(api, names);
        String body = "{\"keys\": [{\"region\": \"us\", \"id\": 1}, {\"region\": \"us\", \"id\": 9},"
                + " {\"region\": \"eu\", \"id\": 2}]}";
        Api.Response json = api.postJson(tableUrl(path) + "/lookup", body);
        assertThat(json.status()).as(json.text()).isEqualTo(200);
        assertThat(json.json().get("rows")).extracting(r -> r.get("region").asText() + r.get("id").asInt())
                .containsExactly("us1", "eu2");
        assertThat(json.json().get("missing").toString()).isEqualTo("[1]");

        Api.Response arrow = api.postJson(tableUrl(path) + "/lookup", body, "Accept", Api.ARROW);
        try (BufferAllocator allocator = new RootAllocator()) {
            List<VectorSchemaRoot> batches = arrow.arrow(allocator);
            try {
                assertThat(batches).hasSize(1);
                assertThat(batches.get(0).getRowCount()).isEqualTo(2);
            } finally {
                batches.forEach(VectorSchemaRoot::close);
            }
        }

        Api.Response badKey = api.postJson(tableUrl(path) + "/lookup",
                "{\"keys\": [{\"region\": \"us\", \"id\": 1}, {\"region\": \"us\", \"id\": \"x\"}]}");
        assertThat(badKey.status()).isEqualTo(400);
        assertThat(badKey.errorMessage()).startsWith("Key 1, column 'id'");

        StringBuilder many = new StringBuilder("{\"keys\": [");
        for (int i = 0; i <= GatewayExtension.MAX_KEYS; i++) {
            many.append(i == 0 ? "" : ",").append("{\"region\": \"eu\", \"id\": ").append(i).append('}');
        }
        Api.Response tooMany = api.postJson(tableUrl(path) + "/lookup", many.append("]}").toString());
        assertThat(tooMany.status()).isEqualTo(413);
        assertThat(tooMany.errorCode()).isEqualTo("too_many_keys");

        Api.Response noKeys = api.postJson(tableUrl(path) + "/lookup", "{\"ids\": []}");
        assertThat(noKeys.status()).isEqualTo(400);
    }

    @Test
    void prefixLookupByTheBucketKey(Api api, TestNames names) {
        TablePath path = orders(api, names);
        Api.Response json = api.postJson(tableUrl(path) + "/prefix-lookup", "{\"keys\": [{\"region\": \"eu\"}]}");
        assertThat(json.status()).as(json.text()).isEqualTo(200);
        List<Integer> ids = new ArrayList<>();
        json.json().get("rows").forEach(r -> ids.add(r.get("id").asInt()));
        assertThat(ids).containsExactlyInAnyOrder(1, 2);

        Api.Response arrow = api.postJson(tableUrl(path) + "/prefix-lookup",
                "{\"keys\": [{\"region\": \"eu\"}, {\"region\": \"us\"}, {\"region\": \"none\"}]}", "Accept", Api.ARROW);
        try (BufferAllocator allocator = new RootAllocator()) {
            List<VectorSchemaRoot> batches = arrow.arrow(allocator);
            try {
                assertThat(batches.get(0).getRowCount()).isEqualTo(3);
            } finally {
                batches.forEach(VectorSchemaRoot::close);
            }
        }

        Api.Response notBucketKey = api.postJson(tableUrl(path) + "/prefix-lookup", "{\"keys\": [{\"id\": 1}]}");
        assertThat(notBucketKey.status()).as(notBucketKey.text()).isEqualTo(400);
        assertThat(notBucketKey.errorMessage()).contains("bucket");

        Api.Response notKeyColumn = api.postJson(tableUrl(path) + "/prefix-lookup", "{\"keys\": [{\"note\": \"x\"}]}");
        assertThat(notKeyColumn.status()).isEqualTo(400);
        assertThat(notKeyColumn.errorMessage()).contains("'note'", "primary-key");
    }

    @Test
    void lookupsNeedAPrimaryKeyTable(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("log"), WriteIT.SIMPLE, "");
        Api.Response get = api.get(tableUrl(path) + "/rows/1");
        assertThat(get.status()).isEqualTo(400);
        assertThat(get.errorCode()).isEqualTo("not_a_primary_key_table");
        Api.Response batch = api.postJson(tableUrl(path) + "/lookup", "{\"keys\": [{\"id\": 1}]}");
        assertThat(batch.errorCode()).isEqualTo("not_a_primary_key_table");
        Api.Response delete = api.deleteJson(tableUrl(path) + "/rows", "{\"keys\": [{\"id\": 1}]}");
        assertThat(delete.errorCode()).isEqualTo("not_a_primary_key_table");
    }
}
