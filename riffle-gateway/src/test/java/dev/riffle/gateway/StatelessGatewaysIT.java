package dev.riffle.gateway;

import static dev.riffle.gateway.MetadataIT.tableUrl;
import static dev.riffle.gateway.WriteIT.createTable;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two gateways over one cluster, as two Riffle instances behind a load balancer: a gateway keeps no
 * state a client depends on, so a scan paged from one continues on the other, a row written
 * through one is looked up through the other, and a datalake table reads the same from both.
 */
@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class StatelessGatewaysIT {
    private static Gateway second;
    private static Api other;

    @BeforeAll
    static void start(LocalCluster cluster) {
        second = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0).start();
        other = new Api(second);
    }

    @AfterAll
    static void stop() throws Exception {
        if (second != null) {
            second.close();
        }
    }

    @Test
    void aScanPagedAlternatelyFromTwoGatewaysReturnsEveryRowOnce(Api first, TestNames names) {
        TablePath path = createTable(first, names.table("events"), WriteIT.SIMPLE, ", \"buckets\": 3");
        List<Api> gateways = List.of(first, other);
        for (int from = 0; from < 120; from += 20) {
            // Writes alternate too: either gateway appends to the same table.
            append(gateways.get(from / 20 % 2), path, from, from + 20);
        }

        List<Integer> seen = new ArrayList<>();
        ObjectNode request = Api.JSON.createObjectNode().put("limit", 9);
        JsonNode until = null;
        int pages = 0;
        while (true) {
            Api gateway = gateways.get(pages % 2);
            Api.Response response = gateway.postJson(tableUrl(path) + "/scan", request.toString());
            assertThat(response.status()).as("page %d from gateway %d: %s", pages, pages % 2, response.text())
                    .isEqualTo(200);
            JsonNode page = response.json();
            page.get("rows").forEach(row -> seen.add(row.get("id").asInt()));
            pages++;
            if (until == null) {
                until = page.get("until");
                append(other, path, 120, 130); // after the first page: outside the pinned stop offsets
            }
            if (page.get("done").asBoolean()) {
                break;
            }
            request.set("from", Api.JSON.createObjectNode().set("offsets", page.get("next")));
            request.set("until", Api.JSON.createObjectNode().set("offsets", until));
        }
        assertThat(pages).as("pages, alternating between the gateways").isGreaterThanOrEqualTo(14);
        assertThat(seen).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(IntStream.range(0, 120).boxed()
                .toList());
    }

    @Test
    void writesThroughOneGatewayAreLookedUpAndQueriedThroughTheOther(Api first, TestNames names) {
        TablePath path = createTable(first, names.table("users"), WriteIT.SIMPLE,
                ", \"primary_key\": [\"id\"], \"buckets\": 2");
        assertThat(first.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"name\": \"one\"}, {\"id\": 2, \"name\": \"two\"}]")
                .status()).isEqualTo(200);
        assertThat(other.get(tableUrl(path) + "/rows/1").json().get("name").asText()).isEqualTo("one");
        assertThat(other.postJson(tableUrl(path) + "/rows", "[{\"id\": 1, \"name\": \"uno\"}]").status()).isEqualTo(200);
        assertThat(first.get(tableUrl(path) + "/rows/1").json().get("name").asText()).isEqualTo("uno");
        String sql = "{\"sql\": \"SELECT name FROM " + path.getDatabaseName() + ".\\\"" + path.getTableName()
                + "\\\" ORDER BY id\"}";
        for (Api gateway : List.of(first, other)) {
            JsonNode rows = gateway.postJson("/v1/sql", sql).json().get("rows");
            assertThat(rows).extracting(row -> row.get("name").asText()).containsExactly("uno", "two");
        }
    }

    @Test
    void aDatalakeTableReadsTheSameFromBothGateways(Api first, LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = createTable(first, names.table("lake"), WriteIT.SIMPLE, ", \"buckets\": 2, \"properties\": "
                + "{\"table.datalake.enabled\": \"true\", \"table.datalake.freshness\": \"1s\"}");
        append(first, path, 0, 40);
        UnionScanIT.tierUntilLakeHas(cluster, connection, path, 40);
        append(other, path, 40, 50); // the log tail past the lake snapshot

        List<List<Integer>> reads = new ArrayList<>();
        for (Api gateway : List.of(first, other)) {
            Api.Response scan = gateway.postJson(tableUrl(path) + "/scan", "{}");
            assertThat(scan.status()).as(scan.text()).isEqualTo(200);
            List<Integer> ids = new ArrayList<>();
            scan.json().get("rows").forEach(row -> ids.add(row.get("id").asInt()));
            reads.add(ids);
        }
        assertThat(reads.get(0)).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, 50).boxed().toList());
        assertThat(reads.get(1)).containsExactlyInAnyOrderElementsOf(reads.get(0));
    }

    private static void append(Api api, TablePath path, int from, int to) {
        StringBuilder rows = new StringBuilder("[");
        for (int id = from; id < to; id++) {
            rows.append(id == from ? "" : ",").append("{\"id\": ").append(id).append(", \"name\": \"n").append(id)
                    .append("\"}");
        }
        Api.Response written = api.postJson(tableUrl(path) + "/rows", rows.append(']').toString());
        assertThat(written.status()).as(written.text()).isEqualTo(200);
    }
}
