package dev.riffle.gateway;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.LocalCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.cluster.ServerType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One gateway, never restarted, while one of three tablet servers stops: its metadata calls,
 * SQL statements and scans keep answering on the connections it opened before the stop. (Fluss
 * 0.9.1's client sends metadata calls to a random tablet server of the cluster it cached, the
 * stopped one included; without Riffle's retries about one call in three failed.)
 */
class GatewayFailoverIT {

    @Test
    void metadataSqlAndScansKeepAnsweringAfterATabletServerStops(@TempDir Path dataDir) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).tabletServers(3)
                .lakeEnabled(false).start();
                Gateway gateway = Gateway.builder().clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0)
                        .start()) {
            Api api = new Api(gateway);
            assertThat(api.postJson("/v1/databases", "{\"name\": \"ha\"}").status()).isEqualTo(201);
            Api.Response created = api.postJson("/v1/databases/ha/tables", "{\"name\": \"events\", \"columns\": "
                    + "[{\"name\": \"id\", \"type\": \"INT\"}], \"buckets\": 3}");
            assertThat(created.status()).as(created.text()).isEqualTo(201);
            StringBuilder rows = new StringBuilder("[");
            for (int i = 0; i < 300; i++) {
                rows.append(i == 0 ? "" : ",").append("{\"id\": ").append(i).append('}');
            }
            assertThat(api.postJson("/v1/databases/ha/tables/events/rows", rows + "]").status()).isEqualTo(200);
            String count = "{\"sql\": \"SELECT count(*) AS n FROM ha.events\"}";
            assertThat(api.postJson("/v1/sql", count).json().get("rows").get(0).get("n").asLong()).isEqualTo(300);

            cluster.stopTabletServer(1);
            // Wait, on a connection of the test's own, until the coordinator hands out a cluster
            // without the stopped server; the gateway's connections are left as they were.
            try (Connection probe = ConnectionFactory.createConnection(cluster.clientConfig());
                    Admin admin = probe.getAdmin()) {
                await().atMost(Duration.ofSeconds(60)).ignoreExceptions()
                        .until(() -> admin.getServerNodes().get().stream()
                                .noneMatch(node -> node.serverType() == ServerType.TABLET_SERVER && node.id() == 1));
            }

            List<String> failures = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                check(failures, "list tables", api.get("/v1/databases/ha/tables"));
                check(failures, "describe database", api.get("/v1/databases/ha"));
                check(failures, "offsets", api.get("/v1/databases/ha/tables/events/offsets"));
            }
            for (int i = 0; i < 10; i++) {
                Api.Response sql = api.postJson("/v1/sql", count);
                check(failures, "SQL count", sql);
                if (sql.status() == 200) {
                    assertThat(sql.json().get("rows").get(0).get("n").asLong()).isEqualTo(300);
                }
                Api.Response scan = api.postJson("/v1/databases/ha/tables/events/scan", "{}");
                check(failures, "scan", scan);
                if (scan.status() == 200) {
                    assertThat(scan.json().get("rows")).hasSize(300);
                }
            }
            assertThat(failures).as("requests that failed after the stop").isEmpty();
        }
    }

    private static void check(List<String> failures, String what, Api.Response response) {
        if (response.status() != 200) {
            failures.add(what + ": " + response.status() + " " + new String(response.body(), UTF_8));
        }
    }
}
