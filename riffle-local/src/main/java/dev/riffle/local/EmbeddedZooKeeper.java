package dev.riffle.local;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import org.apache.fluss.shaded.zookeeper3.org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.fluss.shaded.zookeeper3.org.apache.zookeeper.server.ZooKeeperServer;

/**
 * A standalone ZooKeeper server on loopback (or a given address of this machine), using the copy
 * shaded inside {@code fluss-server} so that no second ZooKeeper (or Curator) jar is needed. Its
 * snapshots and transaction logs live in {@code dir}, so cluster metadata survives a restart.
 */
final class EmbeddedZooKeeper implements AutoCloseable {
    private static final int TICK_TIME_MS = 500;
    private static final int MAX_CLIENT_CONNECTIONS = 1000;

    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;
    private final String host;

    private EmbeddedZooKeeper(ZooKeeperServer server, ServerCnxnFactory connections, String host) {
        this.server = server;
        this.connections = connections;
        this.host = host;
    }

    static EmbeddedZooKeeper start(Path dir) throws IOException, InterruptedException {
        return start(dir, "127.0.0.1");
    }

    /** Listens on {@code host} (an address of this machine) instead of loopback, for servers on other hosts. */
    static EmbeddedZooKeeper start(Path dir, String host) throws IOException, InterruptedException {
        requireNonNull(dir, "dir is null");
        requireNonNull(host, "host is null");
        // The connection factory installs a JVM-wide default uncaught-exception handler that
        // logs and swallows; keep whatever the host application had.
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        ZooKeeperServer server = new ZooKeeperServer(dir.toFile(), dir.toFile(), TICK_TIME_MS);
        ServerCnxnFactory connections =
                ServerCnxnFactory.createFactory(new InetSocketAddress(host, 0), MAX_CLIENT_CONNECTIONS);
        try {
            connections.startup(server);
        } catch (IOException | InterruptedException | RuntimeException e) {
            connections.shutdown();
            throw e;
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(previous);
        }
        return new EmbeddedZooKeeper(server, connections, host);
    }

    String address() {
        return host + ":" + connections.getLocalPort();
    }

    @Override
    public void close() {
        connections.shutdown();
        if (server.isRunning()) {
            server.shutdown();
        }
    }
}
