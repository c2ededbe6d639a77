package dev.riffle.cli.tier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.cli.RiffleCli;
import dev.riffle.core.Riffle;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.local.ProcessCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code riffle tier}, run as its own process the way a user runs it, tiers a log table into the
 * Paimon lake while rows keep arriving and the leader of one of its buckets is killed with
 * {@code kill -9} and started again: in the end the lake holds exactly the rows of the Fluss log,
 * every acknowledged row once, and the tiering process never stopped.
 */
class TierServerKillIT {
    private static final Logger LOG = LoggerFactory.getLogger(TierServerKillIT.class);
    private static final int BATCH = 100;

    private final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    private final AtomicInteger failedBatches = new AtomicInteger();
    private final AtomicBoolean writing = new AtomicBoolean(true);

    @Test
    void theLakeEndsExactWhenALeaderIsKilledUnderLoad(@TempDir Path dataDir) throws Exception {
        TablePath path = TablePath.of("tier_kill", "events");
        try (ProcessCluster cluster = ProcessCluster.builder().dataDir(dataDir).tabletServers(3).lakeEnabled(true)
                .start()) {
            try (Connection setup = ConnectionFactory.createConnection(cluster.clientConfig());
                    Admin admin = setup.getAdmin()) {
                admin.createDatabase("tier_kill", DatabaseDescriptor.EMPTY, false).get();
                Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("batch", DataTypes.INT())
                        .build();
                admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(3)
                        .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s")
                        .build(), false).get();
            }

            Path tierOut = dataDir.resolve("riffle-tier.out");
            Process tier = startTier(cluster, tierOut);
            Thread writer = new Thread(() -> writeLoop(cluster, path), "load-writer");
            writer.start();
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.size() >= 10 * BATCH);
                await().atMost(Duration.ofSeconds(90)).until(() -> Files.readString(tierOut).contains(path.toString()));

                int leader = leaderOfBucketZero(cluster, path);
                LOG.info("Killing tablet server {}, the leader of bucket 0, while riffle tier runs", leader);
                cluster.killTabletServer(leader);
                Thread.sleep(Duration.ofSeconds(15).toMillis()); // rows keep arriving and tiering goes on meanwhile
                cluster.startTabletServer(leader);
                Thread.sleep(Duration.ofSeconds(10).toMillis());
            } finally {
                writing.set(false);
                writer.join(Duration.ofMinutes(2).toMillis());
            }
            assertThat(tier.isAlive()).as("riffle tier kept running; its output:%n%s", Files.readString(tierOut))
                    .isTrue();
            LOG.info("{} rows acknowledged, {} batches failed", acknowledged.size(), failedBatches.get());

            try (Riffle riffle = Riffle.connect(cluster.bootstrapServers())) {
                List<Integer> log = TableIds.read(riffle, path, ReadBuilder::log);
                assertThat(log).as("ids in the Fluss log").doesNotHaveDuplicates().containsAll(acknowledged);
                long waiting = System.nanoTime();
                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(1))
                        .untilAsserted(() -> assertThat(TableIds.read(riffle, path, ReadBuilder::lake))
                                .as("ids in the lake").containsExactlyInAnyOrderElementsOf(log));
                LOG.info("The lake held the log's {} rows {} s after the writes stopped", log.size(),
                        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - waiting));
            }
            tier.destroy(); // SIGTERM: riffle tier stops cleanly
            assertThat(tier.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(tier.exitValue()).as(Files.readString(tierOut)).isZero();
            assertThat(Files.readString(tierOut)).contains("Stopped.");
        }
    }

    private static Process startTier(ProcessCluster cluster, Path out) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx512m", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), RiffleCli.class.getName(),
                "tier", "--bootstrap-servers", cluster.bootstrapServers()));
        return new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(out.toFile())).start();
    }

    /** Appends batches of 100 rows, one flush each; a batch counts once its flush returned. */
    private void writeLoop(ProcessCluster cluster, TablePath path) {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int batch = 0; writing.get(); batch++) {
                try {
                    for (int i = 0; i < BATCH; i++) {
                        writer.append(GenericRow.of(batch * BATCH + i, batch));
                    }
                    writer.flush();
                    for (int i = 0; i < BATCH; i++) {
                        acknowledged.add(batch * BATCH + i);
                    }
                } catch (RuntimeException e) {
                    failedBatches.incrementAndGet();
                    LOG.warn("Batch {} failed", batch, e);
                }
            }
        } catch (Exception e) {
            throw new AssertionError("The writer could not run", e);
        }
    }


    private static int leaderOfBucketZero(ProcessCluster cluster, TablePath path) throws Exception {
        try (FlussConnection connection = (FlussConnection) ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            long tableId = admin.getTableInfo(path).get().getTableId();
            connection.getMetadataUpdater().updateTableOrPartitionMetadata(path, null);
            return connection.getMetadataUpdater().getBucketLocation(new TableBucket(tableId, 0))
                    .orElseThrow(() -> new AssertionError("no location for bucket 0 of " + path)).getLeader();
        }
    }
}
