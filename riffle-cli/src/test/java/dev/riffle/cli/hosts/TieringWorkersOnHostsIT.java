package dev.riffle.cli.hosts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.cli.tier.TableIds;
import dev.riffle.core.Riffle;
import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.rpc.RetryingAdmin;
import dev.riffle.local.NetworkHosts;
import dev.riffle.local.ProcessCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two {@code riffle tier} workers on two hosts share the tiering of six datalake tables of a
 * cluster on four other hosts while rows keep arriving. One is killed with {@code kill -9} inside
 * a round; the other's host then drops off the network for 20 s and comes back, and it tiers on.
 * It takes over the dead worker's table once the coordinator gives up on that worker (Fluss 0.9.1
 * waits two minutes for its heartbeat), and in the end every table's lake holds exactly its Fluss
 * log: every acknowledged row once, nothing twice, no gap.
 */
class TieringWorkersOnHostsIT {
    private static final Logger LOG = LoggerFactory.getLogger(TieringWorkersOnHostsIT.class);
    private static final int TABLES = 6;
    private static final int BATCH = 50;

    private final Map<TablePath, Set<Integer>> acknowledged = new ConcurrentHashMap<>();
    private final AtomicBoolean writing = new AtomicBoolean(true);

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void theSurvivingWorkerFinishesTheDeadOnesTablesExactlyOnce(@TempDir Path dataDir) throws Exception {
        List<TablePath> tables = IntStream.range(0, TABLES).mapToObj(i -> TablePath.of("tiering", "events_" + i))
                .toList();
        try (NetworkHosts hosts = NetworkHosts.create("coordinator", "tablet-server-0", "tablet-server-1",
                "tablet-server-2", "tier-a", "tier-b");
                ProcessCluster cluster = ProcessCluster.builder().dataDir(dataDir).hosts(hosts).tabletServers(3)
                        .lakeEnabled(true).start()) {
            try (FlussConnection setup = (FlussConnection) ConnectionFactory.createConnection(cluster.clientConfig())) {
                var admin = RetryingAdmin.of(setup);
                admin.createDatabase("tiering", DatabaseDescriptor.EMPTY, false).get();
                Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).build();
                for (TablePath path : tables) {
                    admin.createTable(path, TableDescriptor.builder().schema(schema).distributedBy(2)
                            .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s")
                            .build(), false).get(60, TimeUnit.SECONDS);
                    acknowledged.put(path, ConcurrentHashMap.newKeySet());
                }
            }
            Thread writer = new Thread(() -> writeLoop(cluster, tables), "load-writer");
            writer.start();
            String held;
            try (RiffleProcess a = RiffleProcess.tier(hosts, "tier-a", cluster.bootstrapServers(), dataDir);
                    RiffleProcess b = RiffleProcess.tier(hosts, "tier-b", cluster.bootstrapServers(), dataDir)) {
                try {
                    // Killed inside a round: as soon as tier-a says which table it tiers (a fresh JVM's
                    // first round takes seconds: Paimon's classes load, the lake table is created).
                    held = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(20))
                            .until(() -> roundBegun(a), Optional::isPresent).get();
                    a.kill();
                    LOG.info("Killed tier-a inside its round of {}", held);
                    assertThat(a.output()).as("tier-a was killed before it finished its round of %s", held)
                            .doesNotContain("Tiered ");
                    // tier-b tiers on; then its host drops off the network for 20 s and comes back.
                    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                            .until(() -> tieredBy(b, tables) > 0);
                    hosts.cut("tier-b");
                    Thread.sleep(Duration.ofSeconds(20).toMillis()); // the length of the cut; writes go on
                    hosts.restore("tier-b");
                    long before = tieredBy(b, tables);
                    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                            .until(() -> tieredBy(b, tables) > before);
                } finally {
                    writing.set(false);
                    writer.join(Duration.ofMinutes(2).toMillis());
                }
                assertThat(b.isAlive()).as("tier-b kept running; its output:%n%s", b.output()).isTrue();

                try (Riffle riffle = Riffle.connect(cluster.bootstrapServers())) {
                    long waiting = System.nanoTime();
                    for (TablePath path : tables) {
                        List<Integer> log = TableIds.read(riffle, path, ReadBuilder::log);
                        assertThat(log).as("ids in the Fluss log of %s", path).doesNotHaveDuplicates()
                                .containsAll(acknowledged.get(path));
                        // Up to the coordinator's two minutes for the dead worker's heartbeat, then tier-b's rounds.
                        // A table no round has finished yet has no lake snapshot to read.
                        await().atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
                                .ignoreExceptionsInstanceOf(InvalidReadException.class)
                                .untilAsserted(() -> assertThat(TableIds.read(riffle, path, ReadBuilder::lake))
                                        .as("ids in the lake of %s", path).containsExactlyInAnyOrderElementsOf(log));
                    }
                    assertThat(b.output()).as("tier-b took over %s, the dead worker's table", held)
                            .containsPattern("Tiered \\d+ rows of " + Pattern.quote(held) + " into");
                    LOG.info("Every table's lake held its log {} s after the writes stopped; tier-b's output:\n{}",
                            TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - waiting), b.output());
                }
            }
        }
    }

    /** The table of the first round a worker began, once it has begun one. */
    private static Optional<String> roundBegun(RiffleProcess worker) throws Exception {
        return worker.output().lines().filter(line -> line.contains("Tiering round of ")).findFirst()
                .map(line -> line.substring(line.indexOf("Tiering round of ") + "Tiering round of ".length())
                        .split(" ")[0]);
    }

    /** How many rounds a worker reported finishing, over all tables. */
    private static long tieredBy(RiffleProcess worker, List<TablePath> tables) throws Exception {
        String output = worker.output();
        return output.lines().filter(line -> tables.stream().anyMatch(t -> line.contains(" " + t + " "))).count();
    }

    /** Appends batches of 50 rows to each table in turn, one flush per batch; a batch counts once flushed. */
    private void writeLoop(ProcessCluster cluster, List<TablePath> tables) {
        List<Table> open = new ArrayList<>();
        try (FlussConnection connection = (FlussConnection) ConnectionFactory.createConnection(cluster.clientConfig())) {
            List<AppendWriter> writers = new ArrayList<>();
            for (TablePath path : tables) {
                Table table = connection.getTable(path);
                open.add(table);
                writers.add(table.newAppend().createWriter());
            }
            for (int batch = 0; writing.get(); batch++) {
                int t = batch % tables.size();
                int first = batch / tables.size() * BATCH;
                for (int id = first; id < first + BATCH; id++) {
                    writers.get(t).append(GenericRow.of(id));
                }
                writers.get(t).flush();
                for (int id = first; id < first + BATCH; id++) {
                    acknowledged.get(tables.get(t)).add(id);
                }
            }
        } catch (Exception e) {
            throw new AssertionError("The writer failed", e);
        } finally {
            for (Table table : open) {
                try {
                    table.close();
                } catch (Exception e) {
                    LOG.debug("Closing a table failed", e);
                }
            }
        }
    }
}
