package dev.riffle.server;

import static java.util.Objects.requireNonNull;

import dev.riffle.lake.read.PluginLakeReads;
import dev.riffle.server.principal.Auth;
import dev.riffle.server.session.Sessions;
import dev.riffle.server.statement.RunningStatements;
import java.time.Duration;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one server surface runs on: its Fluss connection (owned, or borrowed from whoever gave it),
 * its Arrow allocator, and the sessions its requests run in (one shared, or one per principal).
 * Closed together, sessions first and the allocator last, which fails if Arrow memory leaked.
 *
 * <pre>{@code
 * try (ServerRuntime runtime = builder.openRuntime()) {   // from a ServerBuilder subclass
 *     RequestContext request = ...;  // runs in runtime.sessions()
 * }
 * }</pre>
 */
public final class ServerRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerRuntime.class);
    /** How long stopping a server waits for its Fluss connection to close. */
    static final Duration CONNECTION_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final String serverName;
    private final FlussConnection connection;
    private final boolean ownsConnection;
    private final BufferAllocator allocator;
    private final Sessions sessions;
    /** The statements registry when this runtime made its own (closed with it); empty when it was given. */
    private final Optional<RunningStatements> ownStatements;

    private ServerRuntime(String serverName, FlussConnection connection, boolean ownsConnection,
            BufferAllocator allocator, Sessions sessions, Optional<RunningStatements> ownStatements) {
        this.ownStatements = ownStatements;
        this.serverName = serverName;
        this.connection = connection;
        this.ownsConnection = ownsConnection;
        this.allocator = allocator;
        this.sessions = sessions;
    }

    static ServerRuntime open(String serverName, String surface, Optional<Configuration> clientConfig,
            Optional<Connection> given, Auth auth, ServerLimits limits, int maxPrincipals,
            Optional<RunningStatements> givenStatements, dev.riffle.server.statement.StatementAdmission admission) {
        requireNonNull(serverName, "serverName is null");
        Connection conn = given.orElseGet(() -> ConnectionFactory.createConnection(
                ServerClientDefaults.apply(clientConfig.orElseThrow())));
        boolean owns = given.isEmpty();
        if (!(conn instanceof FlussConnection fluss)) {
            throw new IllegalArgumentException("Riffle's " + serverName.replaceFirst("^the ", "") + " needs the Fluss client's own Connection, got "
                    + conn.getClass().getName());
        }
        BufferAllocator allocator = new RootAllocator();
        Optional<RunningStatements> own = givenStatements.isPresent() ? Optional.empty()
                : Optional.of(new RunningStatements(admission));
        RunningStatements statements = givenStatements.orElseGet(own::orElseThrow);
        try {
            // The lake is found once, over the server's own connection; every session's reads use it.
            PluginLakeReads lake = new PluginLakeReads(fluss);
            Sessions sessions = auth == Auth.BASIC
                    ? Sessions.perPrincipal(fluss.getConfiguration(), allocator, lake, limits, maxPrincipals, statements,
                            surface)
                    : Sessions.shared(fluss, allocator, lake, limits, statements, surface);
            return new ServerRuntime(serverName, fluss, owns, allocator, sessions, own);
        } catch (RuntimeException e) {
            own.ifPresent(RunningStatements::close);
            allocator.close();
            if (owns) {
                closeQuietly(conn, e);
            }
            throw e;
        }
    }

    public FlussConnection connection() {
        return connection;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    public Sessions sessions() {
        return sessions;
    }

    /** The SQL statements running through this server (and, when shared, the process's other surfaces). */
    public RunningStatements statements() {
        return sessions.statements();
    }

    /** The cluster served, as its bootstrap servers (for start-up logs). */
    public String bootstrapServers() {
        return String.valueOf(connection.getConfiguration().toMap().get(ConfigOptions.BOOTSTRAP_SERVERS.key()));
    }

    @Override
    public void close() {
        try {
            sessions.close();
            ownStatements.ifPresent(RunningStatements::close);
        } finally {
            try {
                if (ownsConnection) {
                    closeConnection();
                }
            } finally {
                allocator.close(); // fails if Arrow memory leaked
            }
        }
    }

    /**
     * Closes the connection, waiting at most {@link #CONNECTION_CLOSE_TIMEOUT}: Fluss's own close
     * waits without end for writes and lookups still pending, which, with the cluster gone, never
     * complete (their requests were already answered with an error or a timeout, so nothing a
     * client was told is lost). A server must stop regardless, so past the bound the close is left
     * to finish on its own daemon thread.
     */
    private void closeConnection() {
        Thread closing = new Thread(() -> {
            try {
                connection.close();
            } catch (Exception e) {
                LOG.warn("Closing {}'s Fluss connection failed", serverName, e);
            }
        }, "riffle-close-fluss-connection");
        closing.setDaemon(true);
        closing.start();
        try {
            closing.join(CONNECTION_CLOSE_TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (closing.isAlive()) {
            LOG.warn("{}'s Fluss connection did not close within {}: writes or lookups still pending cannot reach"
                    + " the cluster; stopping without them", serverName, CONNECTION_CLOSE_TIMEOUT);
        }
    }

    private static void closeQuietly(Connection connection, RuntimeException failure) {
        try {
            connection.close();
        } catch (Exception closing) {
            failure.addSuppressed(closing);
        }
    }
}
