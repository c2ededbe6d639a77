package dev.riffle.cli.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.core.rpc.RetryingAdmin;
import dev.riffle.local.NetworkHosts;
import dev.riffle.local.ProcessCluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Object storage on a host of its own: S3Proxy on {@code object-store} holds both Fluss's remote
 * storage ({@code remote.data.dir}) and the Paimon lake of a cluster on two other hosts, given
 * only Fluss's and Paimon's own S3 options. A {@code riffle serve} on a fourth host, given the same
 * options as {@code --client-option client.fs.*}, reads log segments that only the object store
 * still holds; a {@code riffle tier} on a fifth tiers the table into the lake there. Then the
 * object store's link is cut while rows keep arriving and a scan from the start runs: the scan
 * completes or fails with a retriable error, no write is lost, and after the link is back the
 * log and the lake both hold every row once.
 */
class ObjectStorageOnHostsIT {
    private static final Logger LOG = LoggerFactory.getLogger(ObjectStorageOnHostsIT.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TablePath EVENTS = TablePath.of("objects", "events");
    private static final String TABLE = "/v1/databases/objects/tables/events";
    /** Makes each row ~100 bytes, so 30,000 rows fill some twenty 128 KiB segments. */
    private static final String NOTE = "n".repeat(100);
    private static final int ROWS = 30_000;
    private static final Duration CUT = Duration.ofSeconds(20);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void remoteLogAndLakeOnAnObjectStoreHostServeAGatewayAndATieringWorkerOnOthers(@TempDir Path dataDir)
            throws Exception {
        try (NetworkHosts hosts = NetworkHosts.create("object-store", "coordinator", "tablet-server-0", "gateway",
                "tier");
                ObjectStoreHost store = ObjectStoreHost.start(hosts, "object-store", dataDir)) {
            ProcessCluster.Builder builder = ProcessCluster.builder().dataDir(dataDir).hosts(hosts).tabletServers(1)
                    .lakeEnabled(true)
                    .serverConfig("remote.data.dir", ObjectStoreHost.uri("remote"))
                    .serverConfig("log.segment.file-size", "128kb")
                    .serverConfig("remote.log.task-interval-duration", "1s")
                    .serverConfig("datalake.paimon.warehouse", ObjectStoreHost.uri("lake"));
            store.options().forEach((key, value) -> {
                builder.serverConfig(key, value);
                builder.serverConfig("datalake.paimon." + key, value);
            });
            List<String> clientOptions = new ArrayList<>();
            store.options().forEach((key, value) -> clientOptions.addAll(List.of("--client-option",
                    "client.fs." + key + "=" + value)));
            try (ProcessCluster cluster = builder.start();
                    RiffleProcess gateway = RiffleProcess.serve(hosts, "gateway", cluster.bootstrapServers(), dataDir,
                            clientOptions);
                    RiffleProcess tier = RiffleProcess.tier(hosts, "tier", cluster.bootstrapServers(), dataDir,
                            clientOptions);
                    FlussConnection connection = (FlussConnection) ConnectionFactory.createConnection(
                            cluster.clientConfig())) {
                var admin = RetryingAdmin.of(connection);
                admin.createDatabase(EVENTS.getDatabaseName(), DatabaseDescriptor.EMPTY, false).get();
                admin.createTable(EVENTS, TableDescriptor.builder()
                        .schema(Schema.newBuilder().column("id", DataTypes.INT()).column("note", DataTypes.STRING())
                                .build())
                        .distributedBy(1)
                        .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s")
                        .property("table.log.tiered.local-segments", "1")
                        .property("table.log.arrow.compression.type", "NONE").build(), false)
                        .get(60, TimeUnit.SECONDS);
                append(connection, 0, ROWS);

                // The oldest rows now live only on the object store: their local segment is gone.
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                        .until(() -> !localFirstSegmentExists(dataDir));
                assertThat(dataDir.resolve("remote")).as("no local remote storage").doesNotExist();
                assertThat(logScan(gateway.url())).as("the log through the gateway, from the object store on")
                        .containsExactlyElementsOf(IntStream.range(0, ROWS).boxed().toList());

                // The tiering worker writes the lake onto the object store too.
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> lakeIds(gateway.url()).size() == ROWS);
                assertThat(lakeIds(gateway.url())).doesNotHaveDuplicates();
                assertThat(dataDir.resolve("lake")).as("no local lake").doesNotExist();

                // The object store's link is cut while rows keep arriving and a scan from the start runs.
                hosts.cut("object-store");
                long cutAt = System.nanoTime();
                Thread scan = new Thread(() -> scanDuringTheCut(gateway.url()), "scan-during-cut");
                scan.start();
                append(connection, ROWS, ROWS + 5_000);
                Thread.sleep(Math.max(0, CUT.toMillis() - (System.nanoTime() - cutAt) / 1_000_000));
                hosts.restore("object-store");
                LOG.info("Object store back after {} ms", (System.nanoTime() - cutAt) / 1_000_000);
                scan.join(Duration.ofMinutes(3).toMillis());
                assertThat(scan.isAlive()).as("the scan during the cut ended").isFalse();
                assertThat(scanOutcome).as("the scan during the cut").isNotNull();
                assertThat(scanOutcome).matches("200 complete|50[34] .*");

                List<Integer> all = IntStream.range(0, ROWS + 5_000).boxed().toList();
                assertThat(logScan(gateway.url())).as("the log after the cut").containsExactlyElementsOf(all);
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1))
                        .until(() -> lakeIds(gateway.url()).size() == all.size());
                assertThat(lakeIds(gateway.url())).as("the lake after the cut")
                        .containsExactlyInAnyOrderElementsOf(all);
                assertThat(tier.isAlive()).as("riffle tier kept running; its output:%n%s", tier.output()).isTrue();
            }
        }
    }

    private volatile String scanOutcome;

    private void scanDuringTheCut(String gateway) {
        try {
            HttpResponse<String> response = post(gateway, TABLE + "/scan",
                    "{\"source\": \"log\", \"columns\": [\"id\"], \"limit\": 100000}");
            if (response.statusCode() == 200) {
                JsonNode answer = JSON.readTree(response.body());
                Set<Integer> ids = new java.util.HashSet<>();
                answer.get("rows").forEach(row -> ids.add(row.get("id").asInt()));
                boolean complete = ids.containsAll(IntStream.range(0, ROWS).boxed().toList());
                scanOutcome = "200 " + (complete ? "complete" : "short: " + ids.size() + " rows");
            } else {
                scanOutcome = response.statusCode() + " " + response.body();
            }
        } catch (IOException e) {
            scanOutcome = "no answer: " + e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("Scan during the cut: {}", scanOutcome);
    }

    private static void append(FlussConnection connection, int from, int to) throws Exception {
        try (Table table = connection.getTable(EVENTS)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = from; id < to; id++) {
                writer.append(GenericRow.of(id, BinaryString.fromString(NOTE)));
            }
            writer.flush();
        }
    }

    /** Every id of the log, paged through the gateway from the earliest offset. */
    private List<Integer> logScan(String gateway) throws Exception {
        List<Integer> ids = new ArrayList<>();
        ObjectNode request = JSON.createObjectNode().put("source", "log").put("limit", 10_000);
        request.putArray("columns").add("id");
        JsonNode until = null;
        while (true) {
            HttpResponse<String> response = post(gateway, TABLE + "/scan", request.toString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            JsonNode answer = JSON.readTree(response.body());
            answer.get("rows").forEach(row -> ids.add(row.get("id").asInt()));
            if (until == null) {
                until = answer.get("until");
            }
            if (answer.get("done").asBoolean()) {
                return ids;
            }
            request.set("from", JSON.createObjectNode().set("offsets", answer.get("next")));
            request.set("until", JSON.createObjectNode().set("offsets", until));
        }
    }

    /** The ids of the lake snapshot alone; none before the first one exists. */
    private List<Integer> lakeIds(String gateway) throws Exception {
        HttpResponse<String> response = post(gateway, TABLE + "/scan",
                "{\"source\": \"lake\", \"columns\": [\"id\"], \"limit\": 1000000}");
        if (response.statusCode() == 400) {
            return List.of(); // nothing tiered yet
        }
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        List<Integer> ids = new ArrayList<>();
        JSON.readTree(response.body()).get("rows").forEach(row -> ids.add(row.get("id").asInt()));
        return ids;
    }

    private static boolean localFirstSegmentExists(Path dataDir) throws IOException {
        try (Stream<Path> files = Files.walk(dataDir.resolve("tablet-server-0"))) {
            return files.anyMatch(p -> p.toString().contains(EVENTS.getTableName())
                    && p.getFileName().toString().equals("00000000000000000000.log"));
        }
    }

    private HttpResponse<String> post(String gateway, String path, String body)
            throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(gateway + path)).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(150)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
