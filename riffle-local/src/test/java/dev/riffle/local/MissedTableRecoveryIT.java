package dev.riffle.local;

import static dev.riffle.local.FlussRows.append;
import static dev.riffle.local.FlussRows.readLog;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.PartitionSpec;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.server.coordinator.CoordinatorEventProcessor;
import org.apache.fluss.server.coordinator.event.CoordinatorEventManager;
import org.apache.fluss.server.coordinator.event.CreateTableEvent;
import org.apache.fluss.server.coordinator.event.watcher.TableChangeWatcher;
import org.apache.fluss.server.zk.ZooKeeperClient;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tables and partitions Fluss 0.9.1's coordinator misses (apache/fluss#2710) get their leaders
 * anyway. The miss is made certain, not raced for: the coordinator's ZooKeeper watch is stopped (it
 * hears of no creation at all) or swapped for one that drops tables' creations the way 0.9.1's
 * watch does when it loses the race.
 */
class MissedTableRecoveryIT {
    private static final Schema LOG = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();
    private static final Schema BY_DAY = Schema.newBuilder().column("id", DataTypes.INT())
            .column("name", DataTypes.STRING()).column("day", DataTypes.STRING()).build();

    @Test
    void tablesAndPartitionsTheCoordinatorMissedAreWrittenAndRead(@TempDir Path dataDir) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase("missed", DatabaseDescriptor.EMPTY, false).get();
            stopTableWatch(cluster);
            long before = cluster.missedTablesRecovered();

            TablePath events = TablePath.of("missed", "events");
            admin.createTable(events, TableDescriptor.builder().schema(LOG).distributedBy(2).build(), false).get();
            TablePath daily = TablePath.of("missed", "daily");
            admin.createTable(daily, TableDescriptor.builder().schema(BY_DAY).distributedBy(2).partitionedBy("day")
                    .build(), false).get();
            admin.createPartition(daily, new PartitionSpec(java.util.Map.of("day", "2026-12-01")), false).get();
            admin.createPartition(daily, new PartitionSpec(java.util.Map.of("day", "2026-12-02")), false).get();
            // Each write completes only once its buckets have leaders; the coordinator never heard of them.
            append(connection, events, 0, 300);
            assertThat(readLog(connection, events, 2, 300)).hasSize(300)
                    .containsAll(IntStream.range(0, 300).mapToObj(i -> i + ":name-" + i).toList());
            for (String day : List.of("2026-12-01", "2026-12-02")) {
                appendDay(connection, daily, day, 100);
            }
            assertThat(readDays(connection, daily, 200)).hasSize(200)
                    .filteredOn(row -> row.endsWith("@2026-12-02")).hasSize(100);
            // The tables came through the recovery's own watch; the partitions, which only the
            // coordinator's watch follows, through the periodic check.
            assertThat(cluster.missedTablesRecovered() - before).as("partitions found missed and handed over")
                    .isEqualTo(2);
        }
    }

    /**
     * The miss as Fluss 0.9.1 makes it (the watch drops a table's creation but hears of its
     * partitions): handled in that order, the partition's creation leaves the coordinator refusing
     * every later state change, which a later creation event for the table cannot undo.
     */
    @Test
    void aPartitionHeardOfAfterItsTableWasMissedLeavesTheCoordinatorWorking(@TempDir Path dataDir)
            throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).start();
                Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase("raced", DatabaseDescriptor.EMPTY, false).get();
            TableChangeWatcher dropsTables = watchDroppingTableCreations(cluster);
            try {
                TablePath daily = TablePath.of("raced", "daily");
                admin.createTable(daily, TableDescriptor.builder().schema(BY_DAY).distributedBy(2)
                        .partitionedBy("day").build(), false).get();
                admin.createPartition(daily, new PartitionSpec(java.util.Map.of("day", "2026-12-07")), false).get();
                TablePath events = TablePath.of("raced", "events");
                admin.createTable(events, TableDescriptor.builder().schema(LOG).distributedBy(2).build(), false).get();

                CompletableFuture.runAsync(() -> {
                    try {
                        appendDay(connection, daily, "2026-12-07", 100);
                        append(connection, events, 0, 50);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                }).get(90, TimeUnit.SECONDS);
                assertThat(readDays(connection, daily, 100)).hasSize(100);
                assertThat(readLog(connection, events, 2, 50)).hasSize(50);
            } finally {
                dropsTables.stop();
            }
        }
    }

    /** Swaps the coordinator's table watch for one that drops every table creation it hears of. */
    private static TableChangeWatcher watchDroppingTableCreations(LocalCluster cluster) throws Exception {
        stopTableWatch(cluster);
        CoordinatorEventProcessor processor = cluster.coordinator().getCoordinatorEventProcessor();
        Field client = CoordinatorEventProcessor.class.getDeclaredField("zooKeeperClient");
        client.setAccessible(true);
        CoordinatorEventManager events = processor.getCoordinatorEventManager();
        TableChangeWatcher watcher = new TableChangeWatcher((ZooKeeperClient) client.get(processor), event -> {
            if (!(event instanceof CreateTableEvent)) {
                events.put(event);
            }
        });
        watcher.start();
        return watcher;
    }

    private static void stopTableWatch(LocalCluster cluster) throws Exception {
        CoordinatorEventProcessor processor = cluster.coordinator().getCoordinatorEventProcessor();
        Field watch = CoordinatorEventProcessor.class.getDeclaredField("tableChangeWatcher");
        watch.setAccessible(true);
        ((TableChangeWatcher) watch.get(processor)).stop();
    }

    private static void appendDay(Connection connection, TablePath path, String day, int rows) throws Exception {
        try (Table table = connection.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < rows; i++) {
                writer.append(GenericRow.of(i, BinaryString.fromString("name-" + i), BinaryString.fromString(day)));
            }
            writer.flush();
        }
    }

    private static List<String> readDays(Connection connection, TablePath path, int expected) throws Exception {
        List<String> rows = new ArrayList<>();
        try (Admin admin = connection.getAdmin(); Table table = connection.getTable(path);
                LogScanner scanner = table.newScan().createLogScanner()) {
            for (PartitionInfo partition : admin.listPartitionInfos(path).get()) {
                for (int bucket = 0; bucket < 2; bucket++) {
                    scanner.subscribeFromBeginning(partition.getPartitionId(), bucket);
                }
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (rows.size() < expected && System.nanoTime() < deadline) {
                for (ScanRecord record : scanner.poll(Duration.ofMillis(500))) {
                    rows.add(record.getRow().getInt(0) + "@" + record.getRow().getString(2));
                }
            }
        }
        return rows;
    }
}
