package dev.riffle.local;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.cluster.ServerNode;
import org.apache.fluss.cluster.ServerType;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.server.coordinator.CoordinatorServer;
import org.apache.fluss.server.tablet.TabletServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole Fluss cluster in this JVM: ZooKeeper (the copy shaded in {@code fluss-server}), one
 * coordinator and N tablet servers on loopback, plus a filesystem Paimon warehouse as the lake.
 * Everything lives under one data directory, so stopping and starting again on the same
 * directory keeps databases, tables and rows.
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.builder()
 *         .dataDir(Path.of("/tmp/riffle"))
 *         .tabletServers(3)
 *         .start()) {
 *     Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
 *     ...
 * }
 * }</pre>
 *
 * <p>Layout of the data directory: {@code zookeeper/}, {@code tablet-server-<id>/},
 * {@code remote/} (Fluss remote storage: KV snapshots, tiered log segments), {@code lake/} (the
 * Paimon warehouse). A lock file keeps two clusters from sharing one directory.
 */
public final class LocalCluster implements AutoCloseable {
    /** The coordinator's default port, as in Fluss's own quickstart. */
    public static final int DEFAULT_COORDINATOR_PORT = 9123;

    private static final Logger LOG = LoggerFactory.getLogger(LocalCluster.class);
    private static final String LISTENER = "FLUSS";
    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private final Settings settings;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final EmbeddedZooKeeper zooKeeper;
    private final CoordinatorServer coordinator;
    private final String bootstrapServers;
    private final SortedMap<Integer, TabletServer> tabletServers = new TreeMap<>();
    private boolean closed;

    private LocalCluster(Settings settings, FileChannel lockChannel, FileLock lock,
            EmbeddedZooKeeper zooKeeper, CoordinatorServer coordinator, String bootstrapServers) {
        this.settings = settings;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.zooKeeper = zooKeeper;
        this.coordinator = coordinator;
        this.bootstrapServers = bootstrapServers;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The address Fluss clients bootstrap from: the coordinator, {@code 127.0.0.1:PORT}. */
    public String bootstrapServers() {
        return bootstrapServers;
    }

    public Path dataDir() {
        return settings.dataDir();
    }

    /** The Paimon warehouse that datalake-enabled tables tier into. */
    public Path lakeWarehouse() {
        return settings.dataDir().resolve("lake");
    }

    public boolean lakeEnabled() {
        return settings.lakeEnabled();
    }

    /**
     * The options a Paimon catalog needs to open the lake warehouse ({@code metastore},
     * {@code warehouse}), as Fluss passes them to its lake plugin.
     */
    public Map<String, String> lakeCatalogOptions() {
        return Map.of("metastore", "filesystem", "warehouse", warehouseUri(settings));
    }

    /** One spelling of the warehouse URI everywhere (Path.toUri adds a '/' once the directory exists). */
    private static String warehouseUri(Settings settings) {
        return "file://" + settings.dataDir().resolve("lake");
    }

    /** A client configuration that points at this cluster; callers may add client options. */
    public Configuration clientConfig() {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrapServers);
        return conf;
    }

    /** Ids of the tablet servers that are running now. */
    public synchronized List<Integer> runningTabletServers() {
        return List.copyOf(tabletServers.keySet());
    }

    /** Stops one tablet server (a controlled shutdown), e.g. to test failover. */
    public synchronized void stopTabletServer(int id) {
        TabletServer server = tabletServers.remove(id);
        if (server == null) {
            throw new IllegalArgumentException(
                    "Tablet server " + id + " is not running. Running: " + tabletServers.keySet());
        }
        awaitClosed(List.of(server.closeAsync()), "tablet server " + id);
        LOG.info("Stopped tablet server {}", id);
    }

    /** Starts a tablet server that was stopped, or a new one with a fresh id. */
    public synchronized void startTabletServer(int id) {
        if (tabletServers.containsKey(id)) {
            throw new IllegalArgumentException("Tablet server " + id + " is already running");
        }
        tabletServers.put(id, startTabletServer(settings, zooKeeper.address(), id));
        awaitTabletServers(bootstrapServers, tabletServers.size(), settings.readyTimeout());
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        LOG.info("Stopping the local Fluss cluster in {}", settings.dataDir());
        List<CompletableFuture<Void>> stops = new ArrayList<>();
        tabletServers.values().forEach(server -> stops.add(server.closeAsync()));
        tabletServers.clear();
        awaitClosed(stops, "tablet servers");
        awaitClosed(List.of(coordinator.closeAsync()), "coordinator");
        zooKeeper.close();
        releaseLock(lockChannel, lock);
        LOG.info("Stopped the local Fluss cluster");
    }

    private static void awaitClosed(List<CompletableFuture<Void>> stops, String what) {
        try {
            CompletableFuture.allOf(stops.toArray(CompletableFuture[]::new))
                    .get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("Interrupted while stopping the {}", what);
        } catch (Exception e) {
            LOG.warn("The {} did not stop cleanly", what, e);
        }
    }

    private static TabletServer startTabletServer(Settings settings, String zooKeeperAddress, int id) {
        Configuration conf = serverConfiguration(settings, zooKeeperAddress);
        conf.setString("tablet-server.id", Integer.toString(id));
        conf.setString("bind.listeners", LISTENER + "://" + LOOPBACK + ":0");
        conf.setString("data.dir", settings.dataDir().resolve("tablet-server-" + id).toString());
        TabletServer server = new TabletServer(conf);
        try {
            server.start();
        } catch (Exception e) {
            throw new LocalClusterException("Tablet server " + id + " failed to start: " + rootMessage(e), e);
        }
        return server;
    }

    private static Configuration serverConfiguration(Settings settings, String zooKeeperAddress) {
        Configuration conf = new Configuration();
        conf.setString("zookeeper.address", zooKeeperAddress);
        conf.setString("remote.data.dir", settings.dataDir().resolve("remote").toString());
        conf.setString("default.replication.factor", Integer.toString(Math.min(3, settings.tabletServers())));
        if (settings.lakeEnabled()) {
            conf.setString("datalake.format", "paimon");
            conf.setString("datalake.paimon.metastore", "filesystem");
            conf.setString("datalake.paimon.warehouse", warehouseUri(settings));
        }
        settings.serverConfig().forEach(conf::setString);
        return conf;
    }

    private static void awaitTabletServers(String bootstrapServers, int expected, Duration timeout) {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrapServers);
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Integer> seen = List.of();
        try (Connection connection = ConnectionFactory.createConnection(conf);
                Admin admin = connection.getAdmin()) {
            while (System.nanoTime() < deadline) {
                try {
                    seen = admin.getServerNodes().get(5, TimeUnit.SECONDS).stream()
                            .filter(node -> node.serverType() == ServerType.TABLET_SERVER)
                            .map(ServerNode::id)
                            .sorted()
                            .collect(Collectors.toList());
                    if (seen.size() >= expected) {
                        return;
                    }
                } catch (Exception e) {
                    LOG.debug("Cluster not ready yet", e);
                }
                Thread.sleep(50); // polling the coordinator's metadata; there is no event to wait on
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("Interrupted while waiting for the cluster to become ready");
        } catch (Exception e) {
            throw new LocalClusterException("Cannot reach the coordinator at " + bootstrapServers + ": " + rootMessage(e), e);
        }
        throw new LocalClusterException("The cluster did not become ready within " + timeout.toSeconds()
                + " s: " + seen.size() + " of " + expected + " tablet servers registered " + seen);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static boolean causedByBind(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }

    private static void releaseLock(FileChannel channel, FileLock lock) {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            LOG.warn("Could not release the data directory lock", e);
        }
    }

    /** The cluster's shape, fixed at {@link Builder#start()}. */
    private record Settings(Path dataDir, int tabletServers, int coordinatorPort, boolean lakeEnabled,
            Map<String, String> serverConfig, Duration readyTimeout) {}

    /** Builds and starts a {@link LocalCluster}. */
    public static final class Builder {
        private Path dataDir;
        private int tabletServers = 1;
        private int coordinatorPort = DEFAULT_COORDINATOR_PORT;
        private boolean lakeEnabled = true;
        private Duration readyTimeout = Duration.ofSeconds(60);
        private final Map<String, String> serverConfig = new LinkedHashMap<>();

        private Builder() {}

        /** Where metadata, log and KV data, remote storage and the lake live. Required. */
        public Builder dataDir(Path dataDir) {
            this.dataDir = requireNonNull(dataDir, "dataDir is null");
            return this;
        }

        /** How many tablet servers (default 1). The default replication factor is min(3, n). */
        public Builder tabletServers(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("tablet servers must be at least 1, got " + count);
            }
            this.tabletServers = count;
            return this;
        }

        /** The coordinator's port (default 9123); 0 picks a free one. */
        public Builder coordinatorPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be between 0 and 65535, got " + port);
            }
            this.coordinatorPort = port;
            return this;
        }

        /** Whether the cluster has a Paimon lake (default true). */
        public Builder lakeEnabled(boolean enabled) {
            this.lakeEnabled = enabled;
            return this;
        }

        /** Any Fluss server option, applied to the coordinator and every tablet server. */
        public Builder serverConfig(String key, String value) {
            serverConfig.put(requireNonNull(key, "key is null"), requireNonNull(value, "value is null"));
            return this;
        }

        public Builder readyTimeout(Duration timeout) {
            this.readyTimeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        /**
         * Starts ZooKeeper, the coordinator and the tablet servers, and returns once every tablet
         * server has registered with the coordinator.
         *
         * @throws LocalClusterException with a one-line message when the data directory cannot be
         *     used, the port is taken, or the cluster does not come up
         */
        public LocalCluster start() {
            if (dataDir == null) {
                throw new IllegalStateException("dataDir is required");
            }
            Settings settings = new Settings(dataDir.toAbsolutePath().normalize(), tabletServers,
                    coordinatorPort, lakeEnabled, Collections.unmodifiableMap(new LinkedHashMap<>(serverConfig)),
                    readyTimeout);
            prepareDataDir(settings.dataDir());
            FileChannel lockChannel;
            FileLock lock;
            try {
                lockChannel = FileChannel.open(settings.dataDir().resolve(".riffle.lock"),
                        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                lock = lockChannel.tryLock();
            } catch (IOException | OverlappingFileLockException e) {
                throw new LocalClusterException("Data directory " + settings.dataDir()
                        + " is in use by another Riffle cluster", e);
            }
            if (lock == null) {
                closeQuietly(lockChannel);
                throw new LocalClusterException("Data directory " + settings.dataDir()
                        + " is in use by another Riffle cluster (its lock file is held)");
            }
            checkPortFree(settings.coordinatorPort());

            long started = System.nanoTime();
            EmbeddedZooKeeper zooKeeper = null;
            CoordinatorServer coordinator = null;
            SortedMap<Integer, TabletServer> servers = new TreeMap<>();
            try {
                zooKeeper = EmbeddedZooKeeper.start(settings.dataDir().resolve("zookeeper"));
                Configuration conf = serverConfiguration(settings, zooKeeper.address());
                conf.setString("bind.listeners", LISTENER + "://" + LOOPBACK + ":" + settings.coordinatorPort());
                coordinator = new CoordinatorServer(conf);
                try {
                    coordinator.start();
                } catch (Exception e) {
                    if (causedByBind(e)) {
                        throw new LocalClusterException("Port " + settings.coordinatorPort()
                                + " is already in use; choose another port (0 picks a free one)", e);
                    }
                    throw new LocalClusterException("The coordinator failed to start: " + rootMessage(e), e);
                }
                int port = coordinator.getRpcServer().getBindEndpoints().get(0).getPort();
                String bootstrap = LOOPBACK + ":" + port;
                for (int id = 0; id < settings.tabletServers(); id++) {
                    servers.put(id, startTabletServer(settings, zooKeeper.address(), id));
                }
                awaitTabletServers(bootstrap, settings.tabletServers(), settings.readyTimeout());
                LocalCluster cluster = new LocalCluster(settings, lockChannel, lock, zooKeeper, coordinator, bootstrap);
                cluster.tabletServers.putAll(servers);
                LOG.info("Local Fluss cluster ready at {} with {} tablet server(s) in {} ms (data: {})", bootstrap,
                        settings.tabletServers(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                        settings.dataDir());
                return cluster;
            } catch (RuntimeException | IOException | InterruptedException e) {
                List<CompletableFuture<Void>> stops = new ArrayList<>();
                servers.values().forEach(server -> stops.add(server.closeAsync()));
                awaitClosed(stops, "tablet servers");
                if (coordinator != null) {
                    awaitClosed(List.of(coordinator.closeAsync()), "coordinator");
                }
                if (zooKeeper != null) {
                    zooKeeper.close();
                }
                releaseLock(lockChannel, lock);
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                if (e instanceof LocalClusterException lce) {
                    throw lce;
                }
                throw new LocalClusterException("The local cluster failed to start: " + rootMessage(e), e);
            }
        }

        private static void prepareDataDir(Path dir) {
            try {
                Files.createDirectories(dir);
                Path probe = Files.createTempFile(dir, ".write-probe", ".tmp");
                Files.delete(probe);
            } catch (IOException | SecurityException e) {
                throw new LocalClusterException("Data directory " + dir + " is not writable (" + rootMessage(e) + ")", e);
            }
        }

        private static void checkPortFree(int port) {
            if (port == 0) {
                return;
            }
            try (ServerSocket socket = new ServerSocket()) {
                socket.setReuseAddress(true);
                socket.bind(new java.net.InetSocketAddress(InetAddress.getByName(LOOPBACK), port));
            } catch (IOException e) {
                throw new LocalClusterException("Port " + port
                        + " is already in use; choose another port (0 picks a free one)", e);
            }
        }

        private static void closeQuietly(FileChannel channel) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // nothing to release
            }
        }
    }
}
