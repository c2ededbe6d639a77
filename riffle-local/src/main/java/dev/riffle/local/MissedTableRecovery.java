package dev.riffle.local;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.SchemaInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.server.coordinator.CoordinatorContext;
import org.apache.fluss.server.coordinator.CoordinatorServer;
import org.apache.fluss.server.coordinator.event.AccessContextEvent;
import org.apache.fluss.server.coordinator.event.CoordinatorEventManager;
import org.apache.fluss.server.coordinator.event.CreatePartitionEvent;
import org.apache.fluss.server.coordinator.event.CreateTableEvent;
import org.apache.fluss.server.zk.ZooKeeperClient;
import org.apache.fluss.server.zk.ZooKeeperUtils;
import org.apache.fluss.server.zk.data.PartitionAssignment;
import org.apache.fluss.server.zk.data.TableAssignment;
import org.apache.fluss.server.zk.data.TableRegistration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the embedded coordinator the tables and partitions that its ZooKeeper watch missed.
 *
 * <p>Fluss 0.9.1's coordinator learns of a new table only from the change of its ZooKeeper node
 * (empty when made, then written); when its cache first sees the node already written, the
 * creation is never handled (apache/fluss#2710): the table's buckets never get leaders, writes to it
 * wait forever, and its partitions fail to be created. Every {@link #PERIOD}, this compares what
 * ZooKeeper holds with what the coordinator knows (read on the coordinator's own event thread) and,
 * for a table or partition unknown for longer than {@link #GRACE} (the watch takes milliseconds),
 * puts the creation event the watch would have put. The coordinator skips an event for a table
 * or partition it already has, so a late watch event does no harm.
 *
 * <p>Not repaired: a partition whose creation event reached the coordinator while it had missed
 * the partition's table. The coordinator fails half-way through that event, leaving the partition
 * half-made, a request batch that refuses every later state change, and bucket nodes in ZooKeeper;
 * only a restart of the coordinator recovers from it (tried: taking the partition out of the
 * context and sending the stuck batch still left the coordinator refusing the buckets' nodes).
 * It reaches into the coordinator's event processor, which only the embedded cluster can, and is
 * tied to Fluss 0.9.1's events and context. A table dropped in the instant between this check and
 * its event would be handed to the coordinator again (a table still listed after three seconds of
 * being unknown is a missed one, so this is a race of milliseconds after a miss).
 */
final class MissedTableRecovery implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MissedTableRecovery.class);
    private static final Duration PERIOD = Duration.ofSeconds(1);
    private static final Duration GRACE = Duration.ofSeconds(3);
    private static final Duration ACCESS_TIMEOUT = Duration.ofSeconds(10);

    private final CoordinatorServer coordinator;
    private final ZooKeeperClient zooKeeper;
    private final ScheduledExecutorService timer;
    /** Registrations read so far, by path; read again only when the coordinator does not know the id. */
    private final Map<TablePath, TableRegistration> registrations = new HashMap<>();
    /** Partition ids read so far, by table id and partition name. */
    private final Map<Long, Map<String, Long>> partitionIds = new HashMap<>();
    /** When a table ("t" + id) or partition ("p" + id) was first seen unknown, in nanoTime. */
    private final Map<String, Long> unknownSince = new HashMap<>();
    private final AtomicLong recovered = new AtomicLong();

    private MissedTableRecovery(CoordinatorServer coordinator, ZooKeeperClient zooKeeper) {
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.zooKeeper = requireNonNull(zooKeeper, "zooKeeper is null");
        this.timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "riffle-missed-table-recovery");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts checking every {@link #PERIOD}, with its own ZooKeeper client on {@code serverConf}'s quorum. */
    static MissedTableRecovery start(CoordinatorServer coordinator, Configuration serverConf) {
        ZooKeeperClient client = ZooKeeperUtils.startZookeeperClient(serverConf,
                error -> LOG.warn("ZooKeeper client of the missed-table recovery failed: {}", error.toString()));
        MissedTableRecovery recovery = new MissedTableRecovery(coordinator, client);
        recovery.timer.scheduleWithFixedDelay(recovery::checkQuietly, PERIOD.toMillis(), PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
        return recovery;
    }

    /** How many creation events this has put so far. */
    long recovered() {
        return recovered.get();
    }

    private void checkQuietly() {
        try {
            check();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // The next pass tries again; a cluster shutting down ends up here too.
            LOG.debug("Checking for tables the coordinator missed failed: {}", e.toString());
        }
    }

    /** One comparison of ZooKeeper with the coordinator, and the events for what it missed. */
    void check() throws Exception {
        Set<Long> coordinatorTables = access(context -> new HashSet<>(context.allTables().keySet()));
        Map<TablePath, TableRegistration> tables = new HashMap<>();
        for (String database : zooKeeper.listDatabases()) {
            for (String table : zooKeeper.listTables(database)) {
                TablePath path = TablePath.of(database, table);
                TableRegistration known = registrations.get(path);
                if (known == null || !coordinatorTables.contains(known.tableId)) {
                    Optional<TableRegistration> read = zooKeeper.getTable(path);
                    if (read.isEmpty()) {
                        continue; // dropped meanwhile
                    }
                    known = read.get();
                }
                tables.put(path, known);
            }
        }
        registrations.keySet().retainAll(tables.keySet());
        registrations.putAll(tables);

        Map<Long, PartitionOf> partitions = new HashMap<>();
        for (Map.Entry<TablePath, TableRegistration> table : tables.entrySet()) {
            TableRegistration registration = table.getValue();
            if (registration.partitionKeys.isEmpty() || !coordinatorTables.contains(registration.tableId)) {
                continue; // a table the coordinator missed gets its partitions once it has it
            }
            Map<String, Long> ids = partitionIds.computeIfAbsent(registration.tableId, id -> new HashMap<>());
            Set<String> names = zooKeeper.getPartitions(table.getKey());
            ids.keySet().retainAll(names);
            for (String name : names) {
                if (!ids.containsKey(name)) {
                    zooKeeper.getPartition(table.getKey(), name)
                            .ifPresent(partition -> ids.put(name, partition.getPartitionId()));
                }
                Long id = ids.get(name);
                if (id != null) {
                    partitions.put(id, new PartitionOf(table.getKey(), registration.tableId, name));
                }
            }
        }
        Set<Long> tableIds = new HashSet<>();
        tables.values().forEach(registration -> tableIds.add(registration.tableId));
        partitionIds.keySet().retainAll(tableIds);

        Set<Long> partitionIdSet = partitions.keySet();
        Unknown unknown = access(context -> new Unknown(
                tableIds.stream().filter(id -> !context.containsTableId(id)).collect(Collectors.toSet()),
                partitionIdSet.stream().filter(id -> !context.containsPartitionId(id)).collect(Collectors.toSet())));

        long now = System.nanoTime();
        Set<String> stillUnknown = new HashSet<>();
        for (Map.Entry<TablePath, TableRegistration> table : tables.entrySet()) {
            if (unknown.tables().contains(table.getValue().tableId)) {
                String key = "t" + table.getValue().tableId;
                stillUnknown.add(key);
                if (overdue(key, now)) {
                    createTable(table.getKey(), table.getValue());
                }
            }
        }
        for (long id : unknown.partitions()) {
            String key = "p" + id;
            stillUnknown.add(key);
            if (overdue(key, now)) {
                createPartition(id, partitions.get(id));
            }
        }
        unknownSince.keySet().retainAll(stillUnknown);
    }

    /** Whether {@code key} has been unknown for longer than the grace period (and restarts its clock if so). */
    private boolean overdue(String key, long now) {
        long since = unknownSince.computeIfAbsent(key, k -> now);
        if (now - since < GRACE.toNanos()) {
            return false;
        }
        unknownSince.put(key, now); // another grace period before the next event, should this one be lost too
        return true;
    }

    private void createTable(TablePath path, TableRegistration registration) throws Exception {
        TableAssignment assignment;
        if (registration.partitionKeys.isEmpty()) {
            Optional<TableAssignment> stored = zooKeeper.getTableAssignment(registration.tableId);
            if (stored.isEmpty()) {
                return; // the creation is still being written
            }
            assignment = stored.get();
        } else {
            assignment = TableAssignment.builder().build();
        }
        Optional<SchemaInfo> schema = zooKeeper.getSchemaById(path, zooKeeper.getCurrentSchemaId(path));
        if (schema.isEmpty()) {
            return;
        }
        LOG.warn("Fluss's coordinator missed the creation of table {} (id {}; apache/fluss#2710); handing it the"
                + " creation event its ZooKeeper watch would have", path, registration.tableId);
        events().put(new CreateTableEvent(registration.toTableInfo(path, schema.get()), assignment));
        recovered.incrementAndGet();
    }

    private void createPartition(long partitionId, PartitionOf partition) throws Exception {
        Optional<PartitionAssignment> assignment = zooKeeper.getPartitionAssignment(partitionId);
        if (assignment.isEmpty()) {
            return;
        }
        LOG.warn("Fluss's coordinator missed the creation of partition {} of table {} (id {}; apache/fluss#2710);"
                + " handing it the creation event", partition.name(), partition.table(), partitionId);
        events().put(new CreatePartitionEvent(partition.table(), partition.tableId(), partitionId, partition.name(),
                assignment.get()));
        recovered.incrementAndGet();
    }

    private CoordinatorEventManager events() {
        return coordinator.getCoordinatorEventProcessor().getCoordinatorEventManager();
    }

    /** Reads the coordinator's context on its event thread, where alone it may be read. */
    private <T> T access(Function<CoordinatorContext, T> read) throws Exception {
        AccessContextEvent<T> event = new AccessContextEvent<>(read);
        events().put(event);
        return event.getResultFuture().get(ACCESS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(ACCESS_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        zooKeeper.close();
    }

    private record PartitionOf(TablePath table, long tableId, String name) {}

    /** What the coordinator lacks: the ids of tables and partitions it does not know. */
    private record Unknown(Set<Long> tables, Set<Long> partitions) {}
}
