package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Bounded scans: every row once, paging by next offsets, projection, filters, changelogs, partitions. */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class ScanIT {
    private static final String EVENTS = "[{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"kind\", \"type\": \"STRING\"},"
            + "{\"name\": \"amount\", \"type\": \"DECIMAL(10,2)\"}, {\"name\": \"at\", \"type\": \"TIMESTAMP(3)\"}]";

    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    /** A log table of 3 buckets holding ids [0, count), written in several requests (so several batches). */
    private TablePath events(Api api, TestNames names, int count) {
        this.api = api;
        TablePath path = createTable(api, names.table("events"), EVENTS, ", \"bucket_key\": [\"id\"], \"buckets\": 3");
        append(api, path, 0, count);
        return path;
    }

    private static void append(Api api, TablePath path, int from, int to) {
        for (int start = from; start < to; start += 25) {
            StringBuilder rows = new StringBuilder("[");
            for (int id = start; id < Math.min(to, start + 25); id++) {
                rows.append(id == start ? "" : ",").append("{\"id\": ").append(id)
                        .append(", \"kind\": \"").append(id % 2 == 0 ? "even" : "odd")
                        .append("\", \"amount\": ").append(id).append(".50, \"at\": \"2024-06-01T00:00:")
                        .append(String.format("%02d", id % 60)).append("\"}");
            }
            Api.Response written = api.postJson(tableUrl(path) + "/rows", rows.append(']').toString());
            assertThat(written.status()).as(written.text()).isEqualTo(200);
        }
    }

    @Test
    void scanReturnsEveryRowInJsonAndArrow(Api api, TestNames names) {
        TablePath path = events(api, names, 100);
        Api.Response json = api.postJson(tableUrl(path) + "/scan", "{}");
        assertThat(json.status()).as(json.text()).isEqualTo(200);
        JsonNode page = json.json();
        assertThat(ids(page.get("rows"))).containsExactlyInAnyOrderElementsOf(range(0, 100));
        assertThat(page.get("done").asBoolean()).isTrue();
        assertThat(page.get("next")).isEqualTo(page.get("until"));
        assertThat(page.get("next").size()).isEqualTo(3);
        long total = 0;
        for (JsonNode offset : page.get("until")) {
            total += offset.asLong();
        }
        assertThat(total).isEqualTo(100);
        assertThat(page.get("rows").get(0).size()).isEqualTo(4);

        Api.Response arrow = api.postJson(tableUrl(path) + "/scan", "{}", "Accept", Api.ARROW);
        assertThat(arrow.status()).isEqualTo(200);
        assertThat(arrow.header("Riffle-Scan-Done")).isEqualTo("true");
        assertThat(arrow.header("Riffle-Next-Offsets")).isEqualTo(page.get("until").toString());
        try (BufferAllocator allocator = new RootAllocator()) {
            List<VectorSchemaRoot> batches = arrow.arrow(allocator);
            try {
                List<Integer> ids = new ArrayList<>();
                for (VectorSchemaRoot batch : batches) {
                    assertThat(batch.getSchema().getFields()).extracting(f -> f.getName())
                            .containsExactly("id", "kind", "amount", "at");
                    IntVector id = (IntVector) batch.getVector("id");
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        ids.add(id.get(i));
                    }
                }
                assertThat(ids).containsExactlyInAnyOrderElementsOf(range(0, 100));
                assertThat(batches.size()).isGreaterThan(1);
            } finally {
                batches.forEach(VectorSchemaRoot::close);
            }
        }
    }

    @Test
    void pagingWithNextOffsetsReturnsEveryRowExactlyOnce(Api api, TestNames names) {
        TablePath path = events(api, names, 100);
        List<Integer> seen = new ArrayList<>();
        JsonNode until = null;
        ObjectNode request = Api.JSON.createObjectNode().put("limit", 7);
        int pages = 0;
        while (true) {
            Api.Response response = api.postJson(tableUrl(path) + "/scan", request.toString());
            assertThat(response.status()).as(response.text()).isEqualTo(200);
            JsonNode page = response.json();
            assertThat(page.get("rows").size()).isLessThanOrEqualTo(7);
            seen.addAll(ids(page.get("rows")));
            pages++;
            if (until == null) {
                until = page.get("until");
                // Rows appended while paging stay out: the pages are pinned to the first page's stop offsets.
                append(api, path, 100, 120);
            }
            if (page.get("done").asBoolean()) {
                break;
            }
            request.set("from", Api.JSON.createObjectNode().set("offsets", page.get("next")));
            request.set("until", Api.JSON.createObjectNode().set("offsets", until));
        }
        assertThat(seen).hasSize(100).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(range(0, 100));
        assertThat(pages).isGreaterThanOrEqualTo(15);
    }

    @Test
    void arrowPagesCarryTheirOffsetsInHeadersAndFilterRows(Api api, TestNames names) throws Exception {
        TablePath path = events(api, names, 60);
        List<Integer> seen = new ArrayList<>();
        ObjectNode request = Api.JSON.createObjectNode().put("limit", 8);
        request.set("columns", Api.JSON.createArrayNode().add("id"));
        request.set("filter", Api.JSON.readTree("{\"column\": \"kind\", \"op\": \"=\", \"value\": \"even\"}"));
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int pages = 0; pages < 50; pages++) {
                Api.Response response = api.postJson(tableUrl(path) + "/scan", request.toString(), "Accept", Api.ARROW);
                assertThat(response.status()).as(response.text()).isEqualTo(200);
                List<VectorSchemaRoot> batches = response.arrow(allocator);
                try {
                    for (VectorSchemaRoot batch : batches) {
                        assertThat(batch.getSchema().getFields()).extracting(f -> f.getName()).containsExactly("id");
                        for (int i = 0; i < batch.getRowCount(); i++) {
                            seen.add(((IntVector) batch.getVector("id")).get(i));
                        }
                    }
                } finally {
                    batches.forEach(VectorSchemaRoot::close);
                }
                if (Boolean.parseBoolean(response.header("Riffle-Scan-Done"))) {
                    break;
                }
                request.set("from", Api.JSON.createObjectNode()
                        .set("offsets", Api.JSON.readTree(response.header("Riffle-Next-Offsets"))));
            }
        }
        assertThat(seen).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(range(0, 60).stream().filter(i -> i % 2 == 0).toList());
    }

    @Test
    void projectionAndFilters(Api api, TestNames names) {
        TablePath path = events(api, names, 40);
        JsonNode page = scan(api, path, "{\"columns\": [\"amount\", \"id\"], \"filter\": {\"and\": ["
                + "{\"column\": \"id\", \"op\": \">=\", \"value\": 10},"
                + "{\"not\": {\"column\": \"id\", \"op\": \"in\", \"value\": [11, 12, 13]}},"
                + "{\"or\": [{\"column\": \"kind\", \"op\": \"=\", \"value\": \"odd\"},"
                + "          {\"column\": \"amount\", \"op\": \"<\", \"value\": 20}]},"
                + "{\"column\": \"at\", \"op\": \"<\", \"value\": \"2024-06-01T00:00:35\"}]}}");
        // id >= 10, not 11..13, (odd or amount < 20 i.e. id <= 19), at second < 35 i.e. id < 35
        List<Integer> expected = range(10, 35).stream()
                .filter(i -> i < 11 || i > 13).filter(i -> i % 2 == 1 || i <= 19).toList();
        assertThat(ids(page.get("rows"))).containsExactlyInAnyOrderElementsOf(expected);
        List<String> fields = new ArrayList<>();
        page.get("rows").get(0).fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("amount", "id");

        JsonNode limited = scan(api, path, "{\"limit\": 5, \"filter\": {\"column\": \"amount\", \"op\": \"=\","
                + " \"value\": \"7.5\"}}");
        assertThat(ids(limited.get("rows"))).containsExactly(7);
        assertThat(scan(api, path, "{\"filter\": {\"column\": \"kind\", \"op\": \"is_null\"}}").get("rows")).isEmpty();
    }

    @Test
    void badScanRequestsAreClear400s(Api api, TestNames names) {
        TablePath path = events(api, names, 5);
        String scan = tableUrl(path) + "/scan";
        assertError(api.postJson(scan, "{\"columns\": [\"nope\"]}"), "column_not_found", "'nope'");
        assertError(api.postJson(scan, "{\"filter\": {\"column\": \"nope\", \"op\": \"=\", \"value\": 1}}"),
                "column_not_found", "'nope'");
        assertError(api.postJson(scan, "{\"filter\": {\"column\": \"id\", \"op\": \"~\", \"value\": 1}}"),
                "invalid_filter", "'~'");
        assertError(api.postJson(scan, "{\"filter\": {\"column\": \"id\", \"op\": \"=\", \"value\": \"x\"}}"),
                "invalid_filter", "whole number");
        assertError(api.postJson(scan, "{\"from\": {\"offsets\": {\"7\": 0}}}"), "invalid_request", "bucket 7");
        assertError(api.postJson(scan, "{\"from\": \"yesterday\"}"), "invalid_request", "'from'");
        assertError(api.postJson(scan, "{\"limit\": -1}"), "invalid_request", "'limit'");
        assertError(api.postJson(scan, "{\"colums\": [\"id\"]}"), "invalid_request", "'colums'");
        assertError(api.postJson(scan, "[1, 2]"), "invalid_request", "JSON object");
        assertThat(api.post(scan, "text/plain", "{}".getBytes()).status()).isEqualTo(415);
        assertThat(api.postJson(tableUrl(names.table("absent")) + "/scan", "{}").errorCode()).isEqualTo("table_not_found");
    }

    @Test
    void aPrimaryKeyTableWithoutALakeAnswersItsCurrentRows(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("accounts"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"balance\", \"type\": \"INT\"}]", ", \"primary_key\": [\"id\"], \"buckets\": 2");
        api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"balance\": 10}, {\"id\": 2, \"balance\": 20},"
                + " {\"id\": 3, \"balance\": 30}, {\"id\": 4, \"balance\": 40}]");
        api.postJson(tableUrl(path) + "/rows", "[{\"id\": 3, \"balance\": 33}]");
        api.deleteJson(tableUrl(path) + "/rows", "{\"keys\": [{\"id\": 4}]}");

        JsonNode all = scan(api, path, "{}");
        assertThat(all.get("source").asText()).isEqualTo("current");
        Map<Integer, Integer> balances = new java.util.TreeMap<>();
        all.get("rows").forEach(r -> balances.put(r.get("id").asInt(), r.get("balance").asInt()));
        assertThat(balances).containsExactly(Map.entry(1, 10), Map.entry(2, 20), Map.entry(3, 33));

        JsonNode rich = scan(api, path, "{\"columns\": [\"balance\"], \"filter\": {\"column\": \"balance\", "
                + "\"op\": \">\", \"value\": 15}}");
        List<Integer> richBalances = new ArrayList<>();
        rich.get("rows").forEach(r -> richBalances.add(r.get("balance").asInt()));
        assertThat(richBalances).containsExactlyInAnyOrder(20, 33);
        assertThat(rich.get("rows").get(0).has("id")).as("only the columns asked for").isFalse();

        JsonNode one = scan(api, path, "{\"limit\": 1, \"filter\": {\"column\": \"id\", \"op\": \">=\", \"value\": 2}}");
        assertThat(one.get("rows")).hasSize(1);
        assertThat(one.get("truncated").asBoolean()).isTrue();
    }

    @Test
    void primaryKeyTablesAnswerTheirCurrentRowsOrTheirChangelog(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("users"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"name\", \"type\": \"STRING\"}]", ", \"primary_key\": [\"id\"], \"buckets\": 1");
        api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"name\": \"a\"}]");
        api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"name\": \"b\"}]");
        api.deleteJson(tableUrl(path) + "/rows", "{\"keys\": [{\"id\": 1}]}");

        // Without a range the table answers its current rows (KV snapshot + changelog): key 1 is deleted.
        Api.Response current = api.postJson(tableUrl(path) + "/scan", "{}");
        assertThat(current.status()).as(current.text()).isEqualTo(200);
        assertThat(current.json().get("source").asText()).isEqualTo("current");
        assertThat(current.json().get("rows")).isEmpty();
        assertThat(current.json().get("done").asBoolean()).isTrue();
        // A range of its log is a changelog, and says so.
        Api.Response plain = api.postJson(tableUrl(path) + "/scan", "{\"from\": \"earliest\"}");
        assertThat(plain.status()).isEqualTo(400);
        assertThat(plain.errorCode()).isEqualTo("changelog_required");

        JsonNode page = scan(api, path, "{\"changelog\": true, \"columns\": [\"name\"]}");
        List<String> changes = new ArrayList<>();
        page.get("rows").forEach(r -> changes.add(r.get("_change_type").asText() + " " + r.get("name").asText()
                + " @" + r.get("_log_offset").asLong()));
        assertThat(changes).containsExactly("+I a @0", "-U a @1", "+U b @2", "-D b @3");
        assertThat(page.get("rows").get(0).has("_commit_timestamp")).isTrue();

        JsonNode deletes = scan(api, path, "{\"changelog\": true, \"filter\": {\"column\": \"_change_type\","
                + " \"op\": \"=\", \"value\": \"-D\"}}");
        assertThat(deletes.get("rows")).hasSize(1);
    }

    @Test
    void partitionedTablesNameBucketsByPartition(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("daily"), "[{\"name\": \"id\", \"type\": \"INT\"},"
                + " {\"name\": \"dt\", \"type\": \"STRING\"}]", ", \"partition_keys\": [\"dt\"], \"buckets\": 2");
        Api.Response written = api.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"dt\": \"2024-06-01\"},"
                + " {\"id\": 2, \"dt\": \"2024-06-01\"}, {\"id\": 3, \"dt\": \"2024-06-02\"}]");
        assertThat(written.status()).as(written.text()).isEqualTo(200);

        JsonNode all = scan(api, path, "{}");
        assertThat(ids(all.get("rows"))).containsExactlyInAnyOrder(1, 2, 3);
        List<String> keys = new ArrayList<>();
        all.get("until").fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("2024-06-01/0", "2024-06-01/1", "2024-06-02/0", "2024-06-02/1");

        JsonNode oneDay = scan(api, path, "{\"partitions\": [\"2024-06-02\"]}");
        assertThat(ids(oneDay.get("rows"))).containsExactly(3);

        JsonNode offsets = api.get(tableUrl(path) + "/offsets").json();
        assertThat(offsets.get("buckets")).extracting(b -> b.get("key").asText()).containsExactlyElementsOf(keys);

        // Paging by next offsets works across partitions too.
        JsonNode first = scan(api, path, "{\"limit\": 2}");
        JsonNode rest = scan(api, path, "{\"from\": {\"offsets\": " + first.get("next") + "}}");
        List<Integer> both = new ArrayList<>(ids(first.get("rows")));
        both.addAll(ids(rest.get("rows")));
        assertThat(both).containsExactlyInAnyOrder(1, 2, 3);
    }

    private static JsonNode scan(Api api, TablePath path, String body) {
        Api.Response response = api.postJson(tableUrl(path) + "/scan", body);
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        return response.json();
    }

    private static void assertError(Api.Response response, String code, String inMessage) {
        assertThat(response.status()).as(response.text()).isEqualTo(400);
        assertThat(response.errorCode()).isEqualTo(code);
        assertThat(response.errorMessage()).contains(inMessage);
    }

    private static List<Integer> ids(JsonNode rows) {
        List<Integer> ids = new ArrayList<>();
        rows.forEach(r -> ids.add(r.get("id").asInt()));
        return ids;
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.range(from, to).boxed().toList();
    }
}
