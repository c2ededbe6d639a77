package dev.riffle.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.riffle.gateway.http.Paths;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith({LocalClusterExtension.class, GatewayExtension.class})
class OperationsIT {
    private Api api;

    @AfterEach
    void noArrowMemoryHeld() {
        if (api != null) {
            api.assertNoArrowMemoryHeld();
        }
    }

    @Test
    void healthAndReadiness(Api api) {
        this.api = api;
        Api.Response health = api.get("/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().get("status").asText()).isEqualTo("ok");

        Api.Response ready = api.get("/ready");
        assertThat(ready.status()).as(ready.text()).isEqualTo(200);
        assertThat(ready.json().get("tablet_servers").asInt()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void openApiDocumentListsEveryRegisteredRoute(Api api) {
        this.api = api;
        Api.Response response = api.get("/openapi.json");
        assertThat(response.status()).isEqualTo(200);
        JsonNode paths = response.json().get("paths");
        assertThat(response.json().get("info").get("title").asText()).isEqualTo("Riffle HTTP gateway");
        List<String> routes = api.gateway().routes();
        assertThat(routes).contains("GET /openapi.json", "POST " + Paths.SCAN, "GET " + Paths.ROW);
        List<String> missing = new ArrayList<>();
        for (String route : routes) {
            String[] methodAndPath = route.split(" ", 2);
            JsonNode path = paths.get(methodAndPath[1]);
            if (path == null || path.get(methodAndPath[0].toLowerCase()) == null) {
                missing.add(route);
            }
        }
        assertThat(missing).as("routes missing from /openapi.json").isEmpty();
        // ... and the document describes nothing that is not served.
        List<String> documented = new ArrayList<>();
        paths.fields().forEachRemaining(p -> p.getValue().fieldNames()
                .forEachRemaining(m -> documented.add(m.toUpperCase() + " " + p.getKey())));
        assertThat(routes).containsExactlyInAnyOrderElementsOf(documented);
    }

    @Test
    void unknownRouteIsA404Envelope(Api api) {
        this.api = api;
        Api.Response response = api.get("/v1/nothing/here");
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.header("Content-Type")).startsWith("application/json");
        assertThat(response.errorCode()).isEqualTo("route_not_found");
        assertThat(response.errorMessage()).contains("/v1/nothing/here");
    }

    @Test
    void wrongMethodIsA405Envelope(Api api) {
        this.api = api;
        Api.Response response = api.send("PUT", "/v1/databases", "{}");
        assertThat(response.status()).isEqualTo(405);
        assertThat(response.errorCode()).isEqualTo("method_not_allowed");
    }

    @Test
    void unsupportedAcceptIsA406(Api api) {
        this.api = api;
        Api.Response response = api.postJson("/v1/databases/riffle_it/tables/x/scan", "{}", "Accept", "text/csv");
        assertThat(response.status()).isEqualTo(406);
        assertThat(response.errorCode()).isEqualTo("not_acceptable");

        // Routes that answer only JSON say so too, before doing anything.
        for (String path : new String[] {"/v1/databases", "/v1/databases/riffle_it/tables"}) {
            for (String accept : new String[] {"image/png", Api.ARROW}) {
                Api.Response refused = api.get(path, "Accept", accept);
                assertThat(refused.status()).as(path + " " + accept + ": " + refused.text()).isEqualTo(406);
                assertThat(refused.errorCode()).isEqualTo("not_acceptable");
                assertThat(refused.errorMessage()).contains("application/json");
            }
        }
        assertThat(api.get("/v1/databases", "Accept", "application/json, */*;q=0.1").status()).isEqualTo(200);
        Api.Response noSuchDatabase = api.postJson("/v1/databases/no_such_db_406/tables", "{\"name\": \"t\"}",
                "Accept", "text/html");
        assertThat(noSuchDatabase.status()).isEqualTo(406);
    }

    @Test
    void errorsNeverCarryAStackTrace(Api api) {
        this.api = api;
        Api.Response response = api.postJson("/v1/databases/riffle_it/tables", "{\"name\": 5}");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.text()).doesNotContain("at dev.riffle", "at org.apache", "Exception:");
    }

    @Test
    void metricsCountRequestsLatencyAndErrorsPerRoute(Api api) {
        this.api = api;
        api.get("/v1/databases");
        api.get("/v1/databases/no_such_database_for_metrics/tables");
        Api.Response metrics = api.get("/metrics");
        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.header("Content-Type")).startsWith("text/plain");
        assertThat(metrics.text())
                .contains("riffle_gateway_requests_seconds_count{method=\"GET\",route=\"/v1/databases\",status=\"200\"}")
                .contains("riffle_gateway_requests_seconds_sum{method=\"GET\",route=\"/v1/databases\"")
                .contains("riffle_gateway_errors_total{code=\"database_not_found\",method=\"GET\","
                        + "route=\"/v1/databases/{db}/tables\"}")
                .contains("riffle_gateway_arrow_allocated_bytes");
    }

    @Test
    void aScanThatCannotFinishInTimeIsA504(LocalCluster cluster, dev.riffle.local.junit.TestNames names)
            throws Exception {
        try (Gateway impatient = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                .scanTimeout(java.time.Duration.ofMillis(1500)).start()) {
            Api slow = new Api(impatient);
            org.apache.fluss.metadata.TablePath path = WriteIT.createTable(slow, names.table("slow"), WriteIT.SIMPLE, "");
            slow.postJson(MetadataIT.tableUrl(path) + "/rows", "[{\"id\": 1}]");
            // A stop offset beyond the end waits for rows that never come.
            String body = "{\"until\": {\"offsets\": {\"0\": 1000}}}";
            for (String accept : List.of("application/json", Api.ARROW)) {
                Api.Response response = slow.postJson(MetadataIT.tableUrl(path) + "/scan", body, "Accept", accept);
                assertThat(response.status()).as(response.text()).isEqualTo(504);
                assertThat(response.errorCode()).isEqualTo("timeout");
                assertThat(response.errorMessage()).contains("did not finish within");
            }

            // Once rows have streamed out, a failure can no longer become an error envelope: the
            // connection is cut, so the client sees a broken response, never a complete-looking one.
            StringBuilder rows = new StringBuilder("[");
            for (int i = 0; i < 3000; i++) {
                rows.append(i == 0 ? "" : ",").append("{\"id\": ").append(i).append(", \"name\": \"")
                        .append("n".repeat(40)).append("\"}");
            }
            assertThat(slow.postJson(MetadataIT.tableUrl(path) + "/rows", rows.append(']').toString()).status())
                    .isEqualTo(200);
            String beyondTheEnd = "{\"until\": {\"offsets\": {\"0\": 1000000}}}";
            for (String accept : List.of("application/json", Api.ARROW)) {
                org.assertj.core.api.Assertions.assertThatThrownBy(
                                () -> slow.postJson(MetadataIT.tableUrl(path) + "/scan", beyondTheEnd, "Accept", accept))
                        .as(accept).isInstanceOf(java.io.UncheckedIOException.class);
            }
            slow.assertNoArrowMemoryHeld();
        }
    }
}
