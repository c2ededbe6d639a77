package dev.riffle.server;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.principal.Auth;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.statement.RunningStatements;
import dev.riffle.server.statement.StatementAdmission;
import java.util.Optional;
import org.apache.fluss.client.Connection;
import org.apache.fluss.config.Configuration;

/**
 * The settings every Riffle server surface (HTTP gateway, Flight SQL, PostgreSQL protocol) takes
 * alike: the Fluss cluster (client options, a connection to borrow, or a runtime shared with the
 * process's other surfaces), where to listen, how clients
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
    private final ServerRuntime.Builder runtime;
    private Optional<ServerRuntime> sharing = Optional.empty();
    /** The settings given to this builder that a shared runtime already fixes, by name: refused with one. */
    private final java.util.Set<String> ownSettings = new java.util.LinkedHashSet<>();
    private String host = "0.0.0.0";
    private int port;

    /**
     * @param serverName what the surface is called in errors ({@code "the gateway"})
     * @param surface what its statements are said to come from, in lists and metrics ({@code "http"})
     * @param defaultPort the surface's port unless {@link #port} says otherwise
     */
    protected ServerBuilder(String serverName, String surface, int defaultPort) {
        this.serverName = requireNonNull(serverName, "serverName is null");
        this.surface = requireNonNull(surface, "surface is null");
        this.runtime = ServerRuntime.builder(serverName);
        this.port = defaultPort;
    }

    /** This builder, as the surface's type. */
    protected abstract B self();

    /** The cluster to serve, by its bootstrap servers (the other client options Fluss's defaults). */
    public B bootstrapServers(String bootstrapServers) {
        runtime.bootstrapServers(bootstrapServers);
        ownSettings.add("a cluster");
        return self();
    }

    /**
     * A full Fluss client configuration; the server opens its own connection from it, with
     * {@link ServerClientDefaults} where it sets nothing itself (lookups and writes wait 1 ms and
     * 5 ms for others to batch with, not Fluss's 100 ms).
     */
    public B clientConfig(Configuration conf) {
        runtime.clientConfig(conf);
        ownSettings.add("a cluster");
        return self();
    }

    /** An existing connection to borrow (closed by its owner, not the server); its own batch timeouts apply. */
    public B connection(Connection connection) {
        runtime.connection(connection);
        ownSettings.add("a cluster");
        return self();
    }

    /**
     * Serves from {@code shared}: its Fluss connection, allocator, sessions and statements, with
     * the process's other surfaces, so that a principal has one session and one Fluss connection
     * whichever surface it comes through. The cluster, authentication, principals, limits and
     * statements are then the runtime's, and giving this builder any of them is refused. The
     * runtime's owner closes it after this server.
     */
    public B sharing(ServerRuntime shared) {
        this.sharing = Optional.of(requireNonNull(shared, "shared is null"));
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
        runtime.auth(auth);
        ownSettings.add("auth");
        return self();
    }

    /** With {@link Auth#BASIC}: how many principals' connections stay open (default 100, least recently used closed). */
    public B maxPrincipals(int maxPrincipals) {
        runtime.maxPrincipals(maxPrincipals);
        ownSettings.add("maxPrincipals");
        return self();
    }

    /** What one request may cost (body size, timeouts, keys, SQL length); default {@link ServerLimits#DEFAULT}. */
    public B limits(ServerLimits limits) {
        runtime.limits(limits);
        ownSettings.add("limits");
        return self();
    }

    /**
     * Where the server's SQL statements are registered and admitted, shared with other surfaces of
     * the same process so that the bound on statements at once is the machine's (default: one of its
     * own under {@link #admission}). The caller closes it after the servers.
     */
    public B statements(RunningStatements statements) {
        runtime.statements(statements);
        ownSettings.add("statements");
        return self();
    }

    /** How many statements run at once when the server registers its own ({@link StatementAdmission#DEFAULT}). */
    public B admission(StatementAdmission admission) {
        runtime.admission(admission);
        ownSettings.add("admission");
        return self();
    }

    protected final String host() {
        return host;
    }

    protected final int port() {
        return port;
    }

    protected final Auth auth() {
        return sharing.map(ServerRuntime::auth).orElseGet(runtime::auth);
    }

    protected final ServerLimits limits() {
        return sharing.map(ServerRuntime::limits).orElseGet(runtime::limits);
    }

    /**
     * Opens the connection (or borrows the given one), the server's Arrow allocator and the
     * sessions its requests run in, or takes the shared runtime's; the caller closes the result
     * when the server stops, or at once if starting fails (a shared runtime's view closes nothing).
     *
     * @throws IllegalStateException when neither a cluster, a connection nor a runtime to share
     *     was given, or a runtime to share and settings it fixes
     */
    protected final ServerRuntime openRuntime() {
        if (sharing.isPresent()) {
            if (!ownSettings.isEmpty()) {
                throw new IllegalStateException(serverName + " shares a runtime, which fixes " + String.join(", ",
                        ownSettings) + ": give those to the runtime, not the server");
            }
            return sharing.get().forSurface(serverName, surface);
        }
        if (!runtime.hasCluster()) {
            throw new IllegalStateException("Give " + serverName + " bootstrapServers, a clientConfig, a connection "
                    + "or a runtime to share");
        }
        return runtime.open(surface);
    }
}
