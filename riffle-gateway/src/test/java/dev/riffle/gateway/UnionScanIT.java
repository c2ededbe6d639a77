package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.lake.tiering.TieringService;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Scans of datalake-enabled tables: the union read (lake snapshot + log tail) by default, the lake
 * or the log alone on request, and paging on from a union answer's next offsets through the log.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class UnionScanIT {
    private static final String EVENTS = "[{\"name\": \"id\", \"type\": \"INT\"}, {\"name\": \"kind\", \"type\": \"STRING\"}]";
    private static final String LAKE = ", \"properties\": {\"table.datalake.enabled\": \"true\", "
            + "\"table.datalake.freshness\": \"1s\"}";

    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void logTableUnionReadsLakeThenLogAndPagesOnThroughTheLog(Api api, LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("events"), EVENTS, ", \"bucket_key\": [\"id\"], \"buckets\": 2" + LAKE);
        append(api, path, 0, 300);
        tierUntilLakeHas(cluster, connection, path, 300);
        append(api, path, 300, 450);

        // The default for a datalake-enabled table: every row once, from the lake and the log tail.
        JsonNode union = scan(path, "{}");
        assertThat(union.get("source").asText()).isEqualTo("union");
        assertThat(union.get("lake_snapshot_id").isNumber()).isTrue();
        assertThat(ids(union.get("rows"))).hasSize(450).containsExactlyInAnyOrderElementsOf(range(0, 450));
        assertThat(union.get("done").asBoolean()).isTrue();
        assertThat(union.get("truncated").asBoolean()).isFalse();
        assertThat(union.get("next")).isEqualTo(union.get("until"));
        assertThat(sum(union.get("next"))).isEqualTo(450); // where the log part stopped

        // Paging on from next reads exactly the rows written since, from the log.
        append(api, path, 450, 500);
        ObjectNode more = Api.JSON.createObjectNode();
        more.set("from", Api.JSON.createObjectNode().set("offsets", union.get("next")));
        JsonNode tail = scan(path, more.toString());
        assertThat(tail.has("source")).isFalse();
        assertThat(ids(tail.get("rows"))).containsExactlyInAnyOrderElementsOf(range(450, 500));
        assertThat(tail.get("done").asBoolean()).isTrue();

        // The lake alone: the tiered rows, and next where the snapshot ends in the log.
        JsonNode lake = scan(path, "{\"source\": \"lake\"}");
        assertThat(lake.get("source").asText()).isEqualTo("lake");
        assertThat(lake.get("lake_snapshot_id")).isEqualTo(union.get("lake_snapshot_id"));
        assertThat(ids(lake.get("rows"))).containsExactlyInAnyOrderElementsOf(range(0, 300));
        assertThat(sum(lake.get("next"))).isEqualTo(300);
        ObjectNode afterLake = Api.JSON.createObjectNode();
        afterLake.set("from", Api.JSON.createObjectNode().set("offsets", lake.get("next")));
        afterLake.set("until", Api.JSON.createObjectNode().set("offsets", union.get("next")));
        assertThat(ids(scan(path, afterLake.toString()).get("rows"))).containsExactlyInAnyOrderElementsOf(range(300, 450));

        // The log alone, as before union reads existed.
        JsonNode log = scan(path, "{\"source\": \"log\"}");
        assertThat(ids(log.get("rows"))).containsExactlyInAnyOrderElementsOf(range(0, 500));

        // Columns, filters and limits apply to union answers too; a filter column need not be returned.
        JsonNode filtered = scan(path, "{\"columns\": [\"kind\"], \"filter\": {\"column\": \"id\", \"op\": \"<\", "
                + "\"value\": 10}}");
        assertThat(filtered.get("rows")).hasSize(10);
        filtered.get("rows").forEach(row -> assertThat(row.size()).isEqualTo(1));
        JsonNode limited = scan(path, "{\"limit\": 5, \"filter\": {\"column\": \"kind\", \"op\": \"=\", \"value\": \"even\"}}");
        assertThat(limited.get("rows")).hasSize(5);
        limited.get("rows").forEach(row -> assertThat(row.get("id").asInt() % 2).isZero());
        assertThat(limited.get("truncated").asBoolean()).isTrue();
        assertThat(limited.get("next")).isEqualTo(limited.get("until"));

        // Arrow: the same rows, the offsets and the source in headers.
        Api.Response arrow = api.postJson(tableUrl(path) + "/scan", "{}", "Accept", Api.ARROW);
        assertThat(arrow.status()).as(arrow.text()).isEqualTo(200);
        assertThat(arrow.header("Riffle-Scan-Source")).isEqualTo("union");
        assertThat(arrow.header("Riffle-Scan-Done")).isEqualTo("true");
        assertThat(arrow.header("Riffle-Scan-Truncated")).isEqualTo("false");
        assertThat(arrow.header("Riffle-Lake-Snapshot-Id")).isEqualTo(union.get("lake_snapshot_id").asText());
        assertThat(sum(Api.JSON.readTree(arrow.header("Riffle-Next-Offsets")))).isEqualTo(500);
        assertThat(arrowIds(arrow)).hasSize(500).containsExactlyInAnyOrderElementsOf(range(0, 500));
        Api.Response arrowLimited = api.postJson(tableUrl(path) + "/scan", "{\"limit\": 7, \"columns\": [\"id\"]}",
                "Accept", Api.ARROW);
        assertThat(arrowLimited.header("Riffle-Scan-Truncated")).isEqualTo("true");
        assertThat(arrowIds(arrowLimited)).hasSize(7).doesNotHaveDuplicates();

        // A union read takes no log range.
        Api.Response mixed = api.postJson(tableUrl(path) + "/scan", "{\"source\": \"union\", \"from\": \"earliest\"}");
        assertThat(mixed.status()).as(mixed.text()).isEqualTo(400);
        assertThat(mixed.errorMessage()).contains("from").contains("\"source\": \"log\"");
        Api.Response badSource = api.postJson(tableUrl(path) + "/scan", "{\"source\": \"kv\"}");
        assertThat(badSource.status()).isEqualTo(400);
        assertThat(badSource.errorMessage()).contains("union").contains("log").contains("lake");
    }

    @Test
    void primaryKeyTableUnionMergesTheLogTailOverTheLake(Api api, LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("users"), EVENTS, ", \"primary_key\": [\"id\"], \"buckets\": 2"
                + LAKE);
        Map<Integer, String> oracle = new TreeMap<>();
        upsert(api, path, 0, 100, "lake", oracle);
        tierUntilLakeHas(cluster, connection, path, 100);
        List<Integer> updated = IntStream.range(0, 100).filter(i -> i % 3 == 0).boxed().toList();
        StringBuilder rows = new StringBuilder("[");
        for (int id : updated) {
            rows.append(rows.length() > 1 ? "," : "").append("{\"id\": ").append(id).append(", \"kind\": \"tail-")
                    .append(id).append("\"}");
            oracle.put(id, "tail-" + id);
        }
        assertThat(api.postJson(tableUrl(path) + "/rows", rows.append(']').toString()).status()).isEqualTo(200);
        assertThat(api.deleteJson(tableUrl(path) + "/rows", "{\"keys\": [{\"id\": 1}, {\"id\": 3}]}").status())
                .isEqualTo(200);
        oracle.remove(1);
        oracle.remove(3);
        upsert(api, path, 100, 120, "new", oracle);

        // No "changelog": true needed: the union read answers the current rows.
        JsonNode union = scan(path, "{}");
        assertThat(union.get("source").asText()).isEqualTo("union");
        Map<Integer, String> current = new TreeMap<>();
        union.get("rows").forEach(row -> assertThat(current.put(row.get("id").asInt(), row.get("kind").asText()))
                .as("id %s twice", row.get("id")).isNull());
        assertThat(current).isEqualTo(oracle);

        // A page with a limit and no filter comes from the KV store, which holds every current row
        // (no merge of the lake with the tail): the tail's updates, no deleted key, no key twice.
        JsonNode page = scan(path, "{\"limit\": 40}");
        assertThat(page.get("rows")).hasSize(40);
        Map<Integer, String> paged = new TreeMap<>();
        page.get("rows").forEach(row -> assertThat(paged.put(row.get("id").asInt(), row.get("kind").asText()))
                .as("id %s twice", row.get("id")).isNull());
        assertThat(oracle).containsAllEntriesOf(paged);
        assertThat(paged.keySet()).as("updated in the tail").containsAnyElementsOf(updated);
        assertThat(page.get("truncated").asBoolean()).isTrue();

        // The log of a primary-key table is still its changelog.
        Api.Response log = api.postJson(tableUrl(path) + "/scan", "{\"source\": \"log\"}");
        assertThat(log.status()).isEqualTo(400);
        assertThat(log.errorCode()).isEqualTo("changelog_required");
    }

    /**
     * A filter is pushed into the lake: files whose statistics rule it out are not read. Two
     * tiering rounds leave ids 0..99 and 100..199 in separate files; {@code id >= 150} needs only
     * the second.
     */
    @Test
    void aFilteredUnionScanReadsFewerLakeFiles(Api api, LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        this.api = api;
        TablePath path = createTable(api, names.table("filtered"), EVENTS, ", \"buckets\": 1" + LAKE);
        append(api, path, 0, 100);
        tierUntilLakeHas(cluster, connection, path, 100);
        append(api, path, 100, 200);
        tierUntilLakeHas(cluster, connection, path, 200);

        Api.Response all = api.postJson(tableUrl(path) + "/scan", "{}");
        assertThat(all.status()).as(all.text()).isEqualTo(200);
        assertThat(ids(all.json().get("rows"))).containsExactlyInAnyOrderElementsOf(range(0, 200));
        long allFiles = Long.parseLong(all.header("Riffle-Lake-Files-Read"));

        String filter = "{\"filter\": {\"column\": \"id\", \"op\": \">=\", \"value\": 150}}";
        Api.Response filtered = api.postJson(tableUrl(path) + "/scan", filter);
        assertThat(filtered.status()).as(filtered.text()).isEqualTo(200);
        assertThat(ids(filtered.json().get("rows"))).containsExactlyInAnyOrderElementsOf(range(150, 200));
        long filteredFiles = Long.parseLong(filtered.header("Riffle-Lake-Files-Read"));
        assertThat(allFiles).isGreaterThanOrEqualTo(2);
        assertThat(filteredFiles).isPositive().isLessThan(allFiles);

        // In Arrow too, where the header goes out before the first row.
        Api.Response arrow = api.postJson(tableUrl(path) + "/scan", filter, "Accept", Api.ARROW);
        assertThat(arrow.header("Riffle-Lake-Files-Read")).isEqualTo(Long.toString(filteredFiles));
        assertThat(arrowIds(arrow)).containsExactlyInAnyOrderElementsOf(range(150, 200));
    }

    @Test
    void unionAndLakeNeedADatalakeTable(Api api, TestNames names) {
        this.api = api;
        TablePath path = createTable(api, names.table("plain"), EVENTS, ", \"buckets\": 1");
        append(api, path, 0, 3);
        assertThat(ids(scan(path, "{}").get("rows"))).containsExactlyInAnyOrderElementsOf(range(0, 3));
        for (String source : List.of("union", "lake")) {
            Api.Response response = api.postJson(tableUrl(path) + "/scan", "{\"source\": \"" + source + "\"}");
            assertThat(response.status()).as(response.text()).isEqualTo(400);
            assertThat(response.errorCode()).isEqualTo("not_datalake_enabled");
        }
    }

    private JsonNode scan(TablePath path, String body) {
        Api.Response response = api.postJson(tableUrl(path) + "/scan", body);
        assertThat(response.status()).as(response.text()).isEqualTo(200);
        return response.json();
    }

    private static void append(Api api, TablePath path, int from, int to) {
        StringBuilder rows = new StringBuilder("[");
        for (int id = from; id < to; id++) {
            rows.append(id == from ? "" : ",").append("{\"id\": ").append(id).append(", \"kind\": \"")
                    .append(id % 2 == 0 ? "even" : "odd").append("\"}");
        }
        Api.Response written = api.postJson(tableUrl(path) + "/rows", rows.append(']').toString());
        assertThat(written.status()).as(written.text()).isEqualTo(200);
    }

    private static void upsert(Api api, TablePath path, int from, int to, String prefix, Map<Integer, String> oracle) {
        StringBuilder rows = new StringBuilder("[");
        for (int id = from; id < to; id++) {
            rows.append(id == from ? "" : ",").append("{\"id\": ").append(id).append(", \"kind\": \"").append(prefix)
                    .append('-').append(id).append("\"}");
            oracle.put(id, prefix + "-" + id);
        }
        Api.Response written = api.postJson(tableUrl(path) + "/rows", rows.append(']').toString());
        assertThat(written.status()).as(written.text()).isEqualTo(200);
    }

    /** Runs a tiering service until the table's readable lake snapshot covers {@code offsets} log offsets. */
    static void tierUntilLakeHas(LocalCluster cluster, Connection connection, TablePath path, long offsets)
            throws Exception {
        try (TieringService tiering = TieringService.builder().clientConfig(cluster.clientConfig())
                        .lake("paimon", cluster.lakeCatalogOptions()).pollInterval(Duration.ofMillis(200)).start();
                Admin admin = connection.getAdmin()) {
            await().atMost(Duration.ofSeconds(90)).ignoreExceptions().untilAsserted(() -> assertThat(
                    admin.getReadableLakeSnapshot(path).get().getTableBucketsOffset().values().stream()
                            .mapToLong(Long::longValue).sum()).isGreaterThanOrEqualTo(offsets));
        }
    }

    private static List<Integer> arrowIds(Api.Response response) {
        List<Integer> ids = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator()) {
            List<VectorSchemaRoot> batches = response.arrow(allocator);
            try {
                for (VectorSchemaRoot batch : batches) {
                    IntVector id = (IntVector) batch.getVector("id");
                    for (int i = 0; i < batch.getRowCount(); i++) {
                        ids.add(id.get(i));
                    }
                }
            } finally {
                batches.forEach(VectorSchemaRoot::close);
            }
        }
        return ids;
    }

    private static long sum(JsonNode offsets) {
        long total = 0;
        for (JsonNode offset : offsets) {
            total += offset.asLong();
        }
        return total;
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
