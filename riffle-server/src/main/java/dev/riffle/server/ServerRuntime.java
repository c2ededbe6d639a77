package dev.riffle.server;

import static java.util.Objects.requireNonNull;

import dev.riffle.lake.read.PluginLakeReads;
import dev.riffle.server.principal.Auth;
import dev.riffle.server.session.FlussConnections;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.session.Sessions;
import dev.riffle.server.statement.RunningStatements;
import dev.riffle.server.statement.StatementAdmission;
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
 * What server surfaces run on: a Fluss connection (owned, or borrowed from whoever gave it), an
 * Arrow allocator, and the sessions requests run in (one shared, or one per principal). One
 * runtime can serve every surface of a process ({@link #forSurface}), so that a principal has one
 * session, one Fluss connection and one cache of tables whether it comes in over HTTP, Flight SQL
 * or PostgreSQL. The runtime that {@link Builder#open} returns owns all of it and closes it,
 * sessions first and the allocator last, which fails if Arrow memory leaked; a surface's view
 * closes nothing.
 *
 * <pre>{@code
 * try (ServerRuntime runtime = ServerRuntime.builder("riffle serve").clientConfig(conf).auth(Auth.BASIC).open();
 *         Gateway gateway = Gateway.builder().sharing(runtime).port(8080).start();
 *         PgWireServer pg = PgWireServer.builder().sharing(runtime).start()) {
 *     // alice over HTTP and over PostgreSQL: one session, one Fluss connection
 * }
 * }</pre>
 */
public final class ServerRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServerRuntime.class);
    /** How long stopping a server waits for its Fluss connection to close. */
    static final Duration CONNECTION_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final String serverName;
    private final FlussConnection connection;
    /** Whether this is the runtime itself (closing it closes what it holds), not a surface's view of it. */
    private final boolean owner;
    private final boolean ownsConnection;
    private final BufferAllocator allocator;
    private final Sessions sessions;
    private final Auth auth;
    private final FlussConnections connections;
    /** The server's own connection, counted while it is open (owner only). */
    private final Optional<FlussConnections.Held> serverConnection;
    /** The statements registry when this runtime made its own (closed with it); empty when it was given. */
    private final Optional<RunningStatements> ownStatements;

    private ServerRuntime(String serverName, FlussConnection connection, boolean owner, boolean ownsConnection,
            BufferAllocator allocator, Sessions sessions, Auth auth, FlussConnections connections,
            Optional<FlussConnections.Held> serverConnection, Optional<RunningStatements> ownStatements) {
        this.serverName = serverName;
        this.connection = connection;
        this.owner = owner;
        this.ownsConnection = ownsConnection;
        this.allocator = allocator;
        this.sessions = sessions;
        this.auth = auth;
        this.connections = connections;
        this.serverConnection = serverConnection;
        this.ownStatements = ownStatements;
    }

    /**
     * A runtime for a process to share among its surfaces (each takes it with
     * {@link ServerBuilder#sharing}); the process closes it after the last of them.
     *
     * @param serverName what it is called in errors and logs ({@code "riffle serve"})
     */
    public static Builder builder(String serverName) {
        return new Builder(serverName);
    }

    /**
     * The settings of a runtime: the Fluss cluster (client options, or a connection to borrow),
     * how clients authenticate, how many principals' sessions stay open, what a request may cost,
     * and where statements are registered. {@link ServerBuilder} takes the same settings for a
     * surface that runs on its own.
     */
    public static final class Builder {
        private final String serverName;
        private Optional<Configuration> clientConfig = Optional.empty();
        private Optional<Connection> connection = Optional.empty();
        private Auth auth = Auth.NONE;
        private int maxPrincipals = 100;
        private ServerLimits limits = ServerLimits.DEFAULT;
        private Optional<RunningStatements> statements = Optional.empty();
        private StatementAdmission admission = StatementAdmission.DEFAULT;

        private Builder(String serverName) {
            this.serverName = requireNonNull(serverName, "serverName is null");
        }

        /** The cluster to serve, by its bootstrap servers (the other client options Fluss's defaults). */
        public Builder bootstrapServers(String bootstrapServers) {
            Configuration conf = new Configuration();
            conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(),
                    requireNonNull(bootstrapServers, "bootstrapServers is null"));
            return clientConfig(conf);
        }

        /**
         * A full Fluss client configuration; the runtime opens its own connection from it, with
         * {@link ServerClientDefaults} where it sets nothing itself.
         */
        public Builder clientConfig(Configuration conf) {
            this.clientConfig = Optional.of(new Configuration(requireNonNull(conf, "conf is null")));
            this.connection = Optional.empty();
            return this;
        }

        /** An existing connection to borrow (closed by its owner, not the runtime); its own batch timeouts apply. */
        public Builder connection(Connection connection) {
            this.connection = Optional.of(requireNonNull(connection, "connection is null"));
            this.clientConfig = Optional.empty();
            return this;
        }

        /** How clients authenticate (see {@link ServerBuilder#auth}). */
        public Builder auth(Auth auth) {
            this.auth = requireNonNull(auth, "auth is null");
            return this;
        }

        /** With {@link Auth#BASIC}: how many principals' sessions stay open (default 100). */
        public Builder maxPrincipals(int maxPrincipals) {
            if (maxPrincipals < 1) {
                throw new IllegalArgumentException("maxPrincipals must be at least 1, got " + maxPrincipals);
            }
            this.maxPrincipals = maxPrincipals;
            return this;
        }

        /** What one request may cost; default {@link ServerLimits#DEFAULT}. */
        public Builder limits(ServerLimits limits) {
            this.limits = requireNonNull(limits, "limits is null");
            return this;
        }

        /** Where statements are registered and admitted (the caller closes it after the runtime). */
        public Builder statements(RunningStatements statements) {
            this.statements = Optional.of(requireNonNull(statements, "statements is null"));
            return this;
        }

        /** How many statements run at once when the runtime registers its own. */
        public Builder admission(StatementAdmission admission) {
            this.admission = requireNonNull(admission, "admission is null");
            return this;
        }

        Auth auth() {
            return auth;
        }

        ServerLimits limits() {
            return limits;
        }

        boolean hasCluster() {
            return clientConfig.isPresent() || connection.isPresent();
        }

        boolean hasStatements() {
            return statements.isPresent();
        }

        /**
         * Opens the connection (or borrows the given one), the allocator and the sessions; the
         * caller closes the result after every surface that shares it.
         *
         * @throws IllegalStateException when neither a cluster nor a connection was given
         */
        public ServerRuntime open() {
            return open("server");
        }

        /** As {@link #open()}, its requests' statements said to come from {@code surface}. */
        ServerRuntime open(String surface) {
            requireNonNull(surface, "surface is null");
            if (!hasCluster()) {
                throw new IllegalStateException("Give " + serverName + " bootstrapServers, a clientConfig or a connection");
            }
            Connection conn = connection.orElseGet(() -> ConnectionFactory.createConnection(
                    ServerClientDefaults.apply(clientConfig.orElseThrow())));
            boolean owns = connection.isEmpty();
            if (!(conn instanceof FlussConnection fluss)) {
                throw new IllegalArgumentException("Riffle's " + serverName.replaceFirst("^the ", "")
                        + " needs the Fluss client's own Connection, got " + conn.getClass().getName());
            }
            BufferAllocator allocator = new RootAllocator();
            Optional<RunningStatements> own = statements.isPresent() ? Optional.empty()
                    : Optional.of(new RunningStatements(admission));
            RunningStatements running = statements.orElseGet(own::orElseThrow);
            FlussConnections connections = new FlussConnections();
            FlussConnections.Held server = connections.opened(FlussConnections.SERVER);
            try {
                // The lake is found once, over the server's own connection; every session's reads use it.
                PluginLakeReads lake = new PluginLakeReads(fluss);
                Sessions sessions = auth == Auth.BASIC
                        ? Sessions.perPrincipal(fluss.getConfiguration(), allocator, lake, limits, maxPrincipals,
                                running, surface, connections)
                        : Sessions.shared(fluss, allocator, lake, limits, running, surface);
                return new ServerRuntime(serverName, fluss, true, owns, allocator, sessions, auth, connections,
                        Optional.of(server), own);
            } catch (RuntimeException e) {
                server.close();
                own.ifPresent(RunningStatements::close);
                allocator.close();
                if (owns) {
                    closeQuietly(conn, e);
                }
                throw e;
            }
        }
    }

    /**
     * This runtime as {@code surface} serves it: the same connection, allocator and sessions, its
     * requests' statements said to come from {@code surface}. Closing the view closes nothing.
     *
     * @param serverName what the surface is called in errors ({@code "the gateway"})
     * @param surface what its statements are said to come from ({@code "http"})
     */
    public ServerRuntime forSurface(String serverName, String surface) {
        return new ServerRuntime(requireNonNull(serverName, "serverName is null"), connection, false, false,
                allocator, sessions.forSurface(surface), auth, connections, Optional.empty(), Optional.empty());
    }

    /** How clients of this runtime authenticate. */
    public Auth auth() {
        return auth;
    }

    /** What one request may cost. */
    public ServerLimits limits() {
        return sessions.limits();
    }

    /** The Fluss connections the process holds open through this runtime, by owner. */
    public FlussConnections connections() {
        return connections;
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
        if (!owner) {
            return; // a surface's view: the runtime's owner closes it after every surface
        }
        try {
            sessions.close();
            ownStatements.ifPresent(RunningStatements::close);
        } finally {
            try {
                if (ownsConnection) {
                    closeConnection();
                }
                serverConnection.ifPresent(FlussConnections.Held::close);
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
