package dev.riffle.local;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.cluster.ServerNode;
import org.apache.fluss.cluster.ServerType;
import org.apache.fluss.config.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Fluss cluster run the way a user runs one: the coordinator and every tablet server are
 * separate JVMs started from the {@code fluss-server} jar's own entry points
 * ({@code CoordinatorServer.main}, {@code TabletServer.main} with {@code --configDir} and
 * {@code -D} options), so they can be killed with {@code SIGKILL} and started again on the same
 * data. ZooKeeper stays in this JVM: it is what survives in a real deployment too.
 *
 * <pre>{@code
 * try (ProcessCluster cluster = ProcessCluster.builder().dataDir(dir).tabletServers(3).start()) {
 *     cluster.killTabletServer(1);          // kill -9
 *     cluster.startTabletServer(1);         // same id, same data directory
 *     cluster.killCoordinator();
 *     cluster.startCoordinator();           // same port: clients find it again
 * }
 * }</pre>
 *
 * <p>The servers log to {@code logs/<server>.log} in the data directory (appended across
 * restarts). Each server watches its stdin, whose other end this JVM holds, and halts when this
 * JVM goes away, so no server outlives the test that started it. For tests and benchmarks; the
 * in-process {@link LocalCluster} stays the default for everything else.
 */
public final class ProcessCluster implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessCluster.class);
    private static final String LOOPBACK = "127.0.0.1";
    private static final String COORDINATOR = "coordinator";
    private static final Duration KILL_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

    private static final String LOGBACK = """
            <configuration>
              <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{36} - %msg%n</pattern></encoder>
              </appender>
              <logger name="org.apache.fluss.shaded.zookeeper3" level="WARN"/>
              <root level="INFO"><appender-ref ref="OUT"/></root>
            </configuration>
            """;

    private final Builder settings;
    private final Path dataDir;
    private final EmbeddedZooKeeper zooKeeper;
    private final int coordinatorPort;
    private Optional<Process> coordinator = Optional.empty();
    private final SortedMap<Integer, Process> tabletServers = new TreeMap<>();
    private final Thread shutdownHook = new Thread(this::killAll, "process-cluster-shutdown");
    private boolean closed;

    private ProcessCluster(Builder settings, Path dataDir, EmbeddedZooKeeper zooKeeper, int coordinatorPort) {
        this.settings = settings;
        this.dataDir = dataDir;
        this.zooKeeper = zooKeeper;
        this.coordinatorPort = coordinatorPort;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The coordinator's address; it keeps its port across restarts. */
    public String bootstrapServers() {
        return address(COORDINATOR) + ":" + coordinatorPort;
    }

    /** A client configuration that points at this cluster. */
    public Configuration clientConfig() {
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", bootstrapServers());
        return LocalCluster.withFileSystemOptions(conf, settings.serverConfig);
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The options a Paimon catalog needs to open the lake warehouse. */
    public Map<String, String> lakeCatalogOptions() {
        return Map.of("metastore", "filesystem", "warehouse", "file://" + dataDir.resolve("lake"));
    }

    /** Ids of the tablet servers whose processes are alive. */
    public synchronized List<Integer> runningTabletServers() {
        return tabletServers.entrySet().stream().filter(e -> e.getValue().isAlive()).map(Map.Entry::getKey).toList();
    }

    /** The operating-system process id of a tablet server, e.g. for a transcript. */
    public synchronized long tabletServerPid(int id) {
        return running(id).pid();
    }

    /**
     * Kills a tablet server with {@code SIGKILL} (no shutdown hook runs), waits until the process
     * is gone and, when the coordinator runs, until it no longer lists the server (leaders have
     * moved by then).
     */
    public synchronized void killTabletServer(int id) {
        Process process = running(id);
        kill(process, "tablet server " + id);
        tabletServers.remove(id);
        if (coordinator.filter(Process::isAlive).isPresent()) {
            awaitTabletServers();
        }
    }

    /** Starts a tablet server (again) with this id and its data directory, and waits until it registered. */
    public synchronized void startTabletServer(int id) {
        Process existing = tabletServers.get(id);
        if (existing != null && existing.isAlive()) {
            throw new IllegalArgumentException("Tablet server " + id + " is already running");
        }
        tabletServers.put(id, fork("tablet-server-" + id, "tablet-server", tabletServerOptions(id)));
        awaitTabletServers();
    }

    /** Kills the coordinator with {@code SIGKILL} and waits until it is gone. */
    public synchronized void killCoordinator() {
        Process process = coordinator.filter(Process::isAlive)
                .orElseThrow(() -> new IllegalStateException("The coordinator is not running"));
        kill(process, COORDINATOR);
        coordinator = Optional.empty();
    }

    /** Starts the coordinator (again) on its port, and waits until it answers with every running tablet server. */
    public synchronized void startCoordinator() {
        if (coordinator.filter(Process::isAlive).isPresent()) {
            throw new IllegalStateException("The coordinator is already running");
        }
        coordinator = Optional.of(fork(COORDINATOR, COORDINATOR, coordinatorOptions()));
        awaitTabletServers();
    }

    /** Stops every server with {@code SIGTERM} (their shutdown hooks run), then ZooKeeper. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<Process> all = new ArrayList<>(tabletServers.values());
        tabletServers.clear();
        all.forEach(Process::destroy);
        awaitExit(all, "tablet servers");
        coordinator.ifPresent(process -> {
            process.destroy();
            awaitExit(List.of(process), COORDINATOR);
        });
        coordinator = Optional.empty();
        zooKeeper.close();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // The JVM is shutting down already; the hook does the same.
        }
        LOG.info("Stopped the process cluster in {}", dataDir);
    }

    private Process running(int id) {
        Process process = tabletServers.get(id);
        if (process == null || !process.isAlive()) {
            throw new IllegalArgumentException("Tablet server " + id + " is not running. Running: "
                    + runningTabletServers());
        }
        return process;
    }

    /**
     * Waits until the coordinator lists exactly the tablet servers whose processes are alive: a
     * killed one disappears once its ZooKeeper session expires (at most 10 s with this
     * ZooKeeper's tick), a started one appears once it registered.
     */
    private void awaitTabletServers() {
        List<Integer> expected = runningTabletServers();
        long deadline = System.nanoTime() + settings.readyTimeout.toNanos();
        List<Integer> seen = List.of();
        Exception last = null;
        try {
            while (System.nanoTime() < deadline) {
                if (coordinator.filter(Process::isAlive).isEmpty()) {
                    throw new LocalClusterException("The coordinator exited; see " + dataDir.resolve("logs"));
                }
                if (!coordinatorListens()) {
                    Thread.sleep(100); // the coordinator process is still starting; nothing to wait on but its port
                    continue;
                }
                // A connection made before the coordinator listens fails for good, so each try makes its own.
                try (Connection connection = ConnectionFactory.createConnection(clientConfig());
                        Admin admin = connection.getAdmin()) {
                    while (System.nanoTime() < deadline) {
                        seen = admin.getServerNodes().get(5, TimeUnit.SECONDS).stream()
                                .filter(node -> node.serverType() == ServerType.TABLET_SERVER)
                                .map(ServerNode::id).sorted().toList();
                        if (seen.equals(expected)) {
                            return;
                        }
                        Thread.sleep(100); // polling the coordinator's metadata; there is no event to wait on
                    }
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    last = e;
                    LOG.debug("The cluster is not there yet", e);
                }
                Thread.sleep(200);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("Interrupted while waiting for the tablet servers " + expected);
        }
        throw new LocalClusterException("The coordinator at " + bootstrapServers() + " did not list tablet servers "
                + expected + " within " + settings.readyTimeout.toSeconds() + " s (it lists " + seen + ")"
                + (last == null ? "" : "; last error: " + LocalCluster.rootMessage(last))
                + "; logs: " + dataDir.resolve("logs"));
    }

    private boolean coordinatorListens() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address(COORDINATOR), coordinatorPort), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private Map<String, String> coordinatorOptions() {
        Map<String, String> options = commonOptions();
        options.put("bind.listeners", "FLUSS://" + address(COORDINATOR) + ":" + coordinatorPort);
        return options;
    }

    private Map<String, String> tabletServerOptions(int id) {
        Map<String, String> options = commonOptions();
        options.put("tablet-server.id", Integer.toString(id));
        options.put("bind.listeners", "FLUSS://" + address("tablet-server-" + id) + ":0");
        options.put("data.dir", dataDir.resolve("tablet-server-" + id).toString());
        return options;
    }

    private Map<String, String> commonOptions() {
        Map<String, String> options = new LinkedHashMap<>(LocalCluster.serverOptions(dataDir, zooKeeper.address(),
                settings.tabletServers, settings.lakeEnabled, Map.of()));
        options.putAll(settings.serverConfig);
        return options;
    }

    private Process fork(String name, String role, Map<String, String> options) {
        try {
            Path configDir = Files.createDirectories(dataDir.resolve("conf").resolve(name));
            // The entry point requires a directory with a server.yaml; every option goes as -D, so it stays empty.
            Files.writeString(configDir.resolve("server.yaml"), "# options are given as -D arguments\n");
            // The servers log at INFO to their own file, whatever the class path's test logging says.
            Path logging = configDir.resolve("logback.xml");
            Files.writeString(logging, LOGBACK);
            Path log = Files.createDirectories(dataDir.resolve("logs")).resolve(name + ".log");
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(settings.javaOptions);
            command.add("-Dlogback.configurationFile=" + logging);
            // Fluss's file system plugins (s3:// remote storage), for riffle-core's IsolatedFileSystemPlugin
            // when the servers' class path holds it, as this JVM's does.
            String plugins = System.getProperty("riffle.plugins.dir");
            if (plugins != null) {
                command.add("-Driffle.plugins.dir=" + plugins);
            }
            command.addAll(List.of("-cp", settings.classpath, ForkedServerMain.class.getName(), role,
                    "--configDir", configDir.toString()));
            options.forEach((key, value) -> {
                command.add("-D");
                command.add(key + "=" + value);
            });
            List<String> launched = settings.hosts.map(hosts -> hosts.command(name, command)).orElse(command);
            Process process = new ProcessBuilder(launched)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            LOG.info("Started {} as process {} (log: {})", name, process.pid(), log);
            return process;
        } catch (IOException e) {
            throw new LocalClusterException("Cannot start the " + name + ": " + e.getMessage(), e);
        }
    }

    /** Where a server listens: its host's address, or loopback when the cluster runs on this host alone. */
    private String address(String server) {
        return settings.hosts.map(hosts -> hosts.address(server)).orElse(LOOPBACK);
    }

    private static void kill(Process process, String what) {
        process.destroyForcibly();
        try {
            if (!process.waitFor(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new LocalClusterException("The " + what + " (process " + process.pid()
                        + ") did not exit within " + KILL_TIMEOUT.toSeconds() + " s of SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LocalClusterException("Interrupted while killing the " + what);
        }
        LOG.info("Killed the {} (process {}) with SIGKILL", what, process.pid());
    }

    private static void awaitExit(List<Process> processes, String what) {
        long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
        for (Process process : processes) {
            try {
                long left = Math.max(0, deadline - System.nanoTime());
                if (!process.waitFor(left, TimeUnit.NANOSECONDS)) {
                    LOG.warn("The {} did not stop within {} s; killing process {}", what, STOP_TIMEOUT.toSeconds(),
                            process.pid());
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    private void killAll() {
        tabletServers.values().forEach(Process::destroyForcibly);
        coordinator.ifPresent(Process::destroyForcibly);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK))) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new LocalClusterException("Cannot find a free port on loopback: " + e.getMessage(), e);
        }
    }

    /** Builds and starts a {@link ProcessCluster}. */
    public static final class Builder {
        private Path dataDir;
        private int tabletServers = 3;
        private boolean lakeEnabled = false;
        private Duration readyTimeout = Duration.ofSeconds(90);
        private final Map<String, String> serverConfig = new LinkedHashMap<>();
        private List<String> javaOptions = List.of("-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
                "--add-opens=java.base/java.util=ALL-UNNAMED");
        private String classpath = System.getProperty("java.class.path");
        private Optional<NetworkHosts> hosts = Optional.empty();

        private Builder() {}

        /**
         * Runs each server on its own host of {@code hosts}, which must include hosts named
         * {@code coordinator} and {@code tablet-server-0} ... {@code tablet-server-<n-1>}; ZooKeeper
         * listens on this JVM's address on their network. The caller keeps and closes {@code hosts}.
         */
        public Builder hosts(NetworkHosts hosts) {
            this.hosts = Optional.of(requireNonNull(hosts, "hosts is null"));
            return this;
        }

        /** Where ZooKeeper, the servers' data, remote storage, the lake, configs and logs live. Required. */
        public Builder dataDir(Path dataDir) {
            this.dataDir = requireNonNull(dataDir, "dataDir is null");
            return this;
        }

        /** How many tablet servers (default 3; tables get min(3, n) replicas). */
        public Builder tabletServers(int count) {
            if (count < 1) {
                throw new IllegalArgumentException("A cluster needs at least one tablet server, got " + count);
            }
            this.tabletServers = count;
            return this;
        }

        /** Whether servers tier datalake-enabled tables into the Paimon warehouse {@code lake/} (default off). */
        public Builder lakeEnabled(boolean enabled) {
            this.lakeEnabled = enabled;
            return this;
        }

        /** Any Fluss server option, given to every server as {@code -D key=value}. */
        public Builder serverConfig(String key, String value) {
            serverConfig.put(requireNonNull(key, "key is null"), requireNonNull(value, "value is null"));
            return this;
        }

        /** The servers' JVM options (default: 384 MiB heap, serial GC, the opens Arrow needs). */
        public Builder javaOptions(List<String> options) {
            this.javaOptions = List.copyOf(options);
            return this;
        }

        /** The servers' class path (default: this JVM's, which must hold fluss-server and riffle-local). */
        public Builder classpath(String classpath) {
            this.classpath = requireNonNull(classpath, "classpath is null");
            return this;
        }

        /** How long to wait for the servers to register (default 90 s). */
        public Builder readyTimeout(Duration timeout) {
            this.readyTimeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        /** Starts ZooKeeper here, then the coordinator and the tablet servers as processes; returns once all registered. */
        public ProcessCluster start() {
            if (dataDir == null) {
                throw new IllegalStateException("dataDir is required");
            }
            hosts.ifPresent(network -> {
                List<String> needed = new ArrayList<>(List.of(COORDINATOR));
                for (int id = 0; id < tabletServers; id++) {
                    needed.add("tablet-server-" + id);
                }
                if (!network.names().containsAll(needed)) {
                    throw new IllegalArgumentException("The cluster runs on hosts " + needed + "; the network has "
                            + network.names());
                }
            });
            Path dir = dataDir.toAbsolutePath().normalize();
            EmbeddedZooKeeper zooKeeper;
            try {
                Files.createDirectories(dir);
                zooKeeper = hosts.isPresent()
                        ? EmbeddedZooKeeper.start(dir.resolve("zookeeper"), hosts.get().localAddress())
                        : EmbeddedZooKeeper.start(dir.resolve("zookeeper"));
            } catch (IOException e) {
                throw new LocalClusterException("Cannot start ZooKeeper in " + dir + ": " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new LocalClusterException("Interrupted while starting ZooKeeper");
            }
            ProcessCluster cluster = new ProcessCluster(this, dir, zooKeeper, freePort());
            Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
            long started = System.nanoTime();
            try {
                synchronized (cluster) {
                    cluster.coordinator = Optional.of(cluster.fork(COORDINATOR, COORDINATOR,
                            cluster.coordinatorOptions()));
                    for (int id = 0; id < tabletServers; id++) {
                        cluster.tabletServers.put(id, cluster.fork("tablet-server-" + id, "tablet-server",
                                cluster.tabletServerOptions(id)));
                    }
                    cluster.awaitTabletServers();
                }
            } catch (RuntimeException e) {
                cluster.close();
                throw e;
            }
            LOG.info("Process cluster ready at {} with {} tablet server(s) in {} ms (data: {})",
                    cluster.bootstrapServers(), tabletServers,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started), dir);
            return cluster;
        }
    }
}
