package dev.riffle.local;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.Field;
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
import org.apache.fluss.server.zk.data.ZkData.DatabasesZNode;
import org.apache.fluss.server.zk.data.ZkData.TableZNode;
import org.apache.fluss.shaded.curator5.org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.fluss.shaded.curator5.org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.fluss.shaded.curator5.org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the embedded coordinator the tables and partitions that its ZooKeeper watch missed.
 *
 * <p>Fluss 0.9.1's coordinator learns of a new table only from the change of its ZooKeeper node
 * (empty when made, then written); when its cache first sees the node already written, the
 * creation is never handled (apache/fluss#2710): the table's buckets never get leaders, writes to it
 * wait forever. Worse, the watch still hears of the table's partitions, and a partition's creation
 * handled while its table is unknown fails half-way, leaving the coordinator refusing every later
 * state change (its request batch is never sent); only a restart recovers it.
 *
 * <p>So this keeps a second watch of the tables, on the coordinator's own ZooKeeper session, that
 * puts a table's creation event as soon as the node is written, in whichever form the change
 * arrives. One session delivers its notifications in order, and a partition is made only after its
 * table's node is written, so the table's event is queued before any of its partitions' events.
 * The coordinator skips an event for a table it already has, so when its own watch hears of the
 * table too, the second event does no harm.
 *
 * <p>Behind that, every {@link #PERIOD}, this compares what ZooKeeper holds with what the
 * coordinator knows (read on the coordinator's own event thread) and, for a table or partition
 * unknown for longer than {@link #GRACE}, puts the creation event the watch would have put (a
 * watch lost with its session, say).
 *
 * <p>It reaches into the coordinator (its ZooKeeper client and its event processor), which only the
 * embedded cluster can, and is tied to Fluss 0.9.1's events and context. A table dropped in the
 * instant between a check and its event would be handed to the coordinator again (a race of
 * milliseconds after a miss).
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
    private final CuratorCache tableWatch;

    private MissedTableRecovery(CoordinatorServer coordinator, ZooKeeperClient zooKeeper,
            ZooKeeperClient coordinatorZooKeeper) {
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.zooKeeper = requireNonNull(zooKeeper, "zooKeeper is null");
        this.tableWatch = CuratorCache.build(coordinatorZooKeeper.getCuratorClient(), DatabasesZNode.path());
        tableWatch.listenable().addListener(this::tableNodeChanged);
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
        MissedTableRecovery recovery = new MissedTableRecovery(coordinator, client, zooKeeperOf(coordinator));
        recovery.tableWatch.start();
        recovery.timer.scheduleWithFixedDelay(recovery::checkQuietly, PERIOD.toMillis(), PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
        return recovery;
    }

    /** The coordinator's own ZooKeeper client, whose session orders the notifications its watch gets. */
    private static ZooKeeperClient zooKeeperOf(CoordinatorServer coordinator) {
        try {
            Field field = CoordinatorServer.class.getDeclaredField("zkClient");
            field.setAccessible(true);
            return requireNonNull((ZooKeeperClient) field.get(coordinator), "the coordinator has no ZooKeeper client");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("This Fluss version's coordinator keeps no zkClient field; the"
                    + " missed-table recovery is written for Fluss 0.9.1", e);
        }
    }

    /**
     * A table node written: the creation the coordinator's watch may have dropped. Runs on the
     * ZooKeeper client's event thread, ahead of the notifications of the table's partitions.
     */
    private void tableNodeChanged(CuratorCacheListener.Type type, ChildData before, ChildData after) {
        if (after == null || after.getData() == null || after.getData().length == 0) {
            return;
        }
        boolean created = type == CuratorCacheListener.Type.NODE_CREATED
                || (type == CuratorCacheListener.Type.NODE_CHANGED
                        && (before == null || before.getData() == null || before.getData().length == 0));
        TablePath path = created ? TableZNode.parsePath(after.getPath()) : null;
        if (path == null) {
            return;
        }
        try {
            handOver(path, TableZNode.decode(after.getData()), false);
        } catch (Exception e) {
            // The periodic check hands it over instead.
            LOG.debug("Handing the coordinator the creation of table {} failed: {}", path, e.toString());
        }
    }

    /** How many creation events the periodic check has put so far (tables and partitions it found missed). */
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
                    handOver(table.getKey(), table.getValue(), true);
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

    /** Puts {@code path}'s creation event; {@code missed} when the coordinator is known to lack the table. */
    private void handOver(TablePath path, TableRegistration registration, boolean missed) throws Exception {
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
        if (missed) {
            LOG.warn("Fluss's coordinator missed the creation of table {} (id {}; apache/fluss#2710); handing it"
                    + " the creation event its ZooKeeper watch would have", path, registration.tableId);
        }
        events().put(new CreateTableEvent(registration.toTableInfo(path, schema.get()), assignment));
        if (missed) {
            recovered.incrementAndGet();
        }
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
        tableWatch.close();
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
