package dev.riffle.server;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.principal.Auth;
import dev.riffle.server.statement.RunningStatements;
import dev.riffle.server.statement.StatementAdmission;
import java.util.Optional;
import org.apache.fluss.client.Connection;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;

/**
 * The settings every Riffle server surface (HTTP gateway, Flight SQL, PostgreSQL protocol) takes
 * alike: the Fluss cluster (client options, or a connection to borrow), where to listen, how clients
 * authenticate, how many principals' connections stay open, and what one request may cost. Each
 * surface's builder extends it with its own options and opens what it runs on with
 * {@link #openRuntime}.
 *
 * <pre>{@code
 * PgWireServer pg = PgWireServer.builder().bootstrapServers("127.0.0.1:9123").host("127.0.0.1").port(0)
 *         .auth(Auth.BASIC).start();
 * }</pre>
 *
 * @param <B> the surface's own builder, returned by every setter
 */
public abstract class ServerBuilder<B extends ServerBuilder<B>> {
    private final String serverName;
    private final String surface;
    private Optional<RunningStatements> statements = Optional.empty();
    private StatementAdmission admission = StatementAdmission.DEFAULT;
    private Optional<Configuration> clientConfig = Optional.empty();
    private Optional<Connection> connection = Optional.empty();
    private String host = "0.0.0.0";
    private int port;
    private Auth auth = Auth.NONE;
    private int maxPrincipals = 100;
    private ServerLimits limits = ServerLimits.DEFAULT;

    /**
     * @param serverName what the surface is called in errors ({@code "the gateway"})
     * @param surface what its statements are said to come from, in lists and metrics ({@code "http"})
     * @param defaultPort the surface's port unless {@link #port} says otherwise
     */
    protected ServerBuilder(String serverName, String surface, int defaultPort) {
        this.serverName = requireNonNull(serverName, "serverName is null");
        this.surface = requireNonNull(surface, "surface is null");
        this.port = defaultPort;
    }

    /** This builder, as the surface's type. */
    protected abstract B self();

    /** The cluster to serve, by its bootstrap servers (the other client options Fluss's defaults). */
    public B bootstrapServers(String bootstrapServers) {
        Configuration conf = new Configuration();
        conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), requireNonNull(bootstrapServers, "bootstrapServers is null"));
        return clientConfig(conf);
    }

    /**
     * A full Fluss client configuration; the server opens its own connection from it, with
     * {@link ServerClientDefaults} where it sets nothing itself (lookups and writes wait 1 ms and
     * 5 ms for others to batch with, not Fluss's 100 ms).
     */
    public B clientConfig(Configuration conf) {
        this.clientConfig = Optional.of(new Configuration(requireNonNull(conf, "conf is null")));
        this.connection = Optional.empty();
        return self();
    }

    /** An existing connection to borrow (closed by its owner, not the server); its own batch timeouts apply. */
    public B connection(Connection connection) {
        this.connection = Optional.of(requireNonNull(connection, "connection is null"));
        this.clientConfig = Optional.empty();
        return self();
    }

    /** The interface to listen on (default all: {@code 0.0.0.0}). */
    public B host(String host) {
        this.host = requireNonNull(host, "host is null");
        return self();
    }

    /** The port (0 picks a free one). */
    public B port(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0..65535, got " + port);
        }
        this.port = port;
        return self();
    }

    /**
     * How clients authenticate (default {@link Auth#NONE}: every request on the server's own
     * connection). With {@link Auth#BASIC} a client's user and password open that principal's own
     * Fluss SASL/PLAIN connection (built from this server's client options), so Fluss's ACLs decide.
     */
    public B auth(Auth auth) {
        this.auth = requireNonNull(auth, "auth is null");
        return self();
    }

    /** With {@link Auth#BASIC}: how many principals' connections stay open (default 100, least recently used closed). */
    public B maxPrincipals(int maxPrincipals) {
        if (maxPrincipals < 1) {
            throw new IllegalArgumentException("maxPrincipals must be at least 1, got " + maxPrincipals);
        }
        this.maxPrincipals = maxPrincipals;
        return self();
    }

    /** What one request may cost (body size, timeouts, keys, SQL length); default {@link ServerLimits#DEFAULT}. */
    public B limits(ServerLimits limits) {
        this.limits = requireNonNull(limits, "limits is null");
        return self();
    }

    /**
     * Where the server's SQL statements are registered and admitted, shared with other surfaces of
     * the same process so that the bound on statements at once is the machine's (default: one of its
     * own under {@link #admission}). The caller closes it after the servers.
     */
    public B statements(RunningStatements statements) {
        this.statements = Optional.of(requireNonNull(statements, "statements is null"));
        return self();
    }

    /** How many statements run at once when the server registers its own ({@link StatementAdmission#DEFAULT}). */
    public B admission(StatementAdmission admission) {
        this.admission = requireNonNull(admission, "admission is null");
        return self();
    }

    protected final String host() {
        return host;
    }

    protected final int port() {
        return port;
    }

    protected final Auth auth() {
        return auth;
    }

    protected final ServerLimits limits() {
        return limits;
    }

    /**
     * Opens the connection (or borrows the given one), the server's Arrow allocator and the
     * sessions its requests run in; the caller closes the result when the server stops, or at once
     * if starting fails.
     *
     * @throws IllegalStateException when neither a cluster nor a connection was given
     */
    protected final ServerRuntime openRuntime() {
        if (connection.isEmpty() && clientConfig.isEmpty()) {
            throw new IllegalStateException("Give " + serverName + " bootstrapServers, a clientConfig or a connection");
        }
        return ServerRuntime.open(serverName, surface, clientConfig, connection, auth, limits, maxPrincipals, statements,
                admission);
    }
}
