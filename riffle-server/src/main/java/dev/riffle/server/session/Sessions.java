package dev.riffle.server.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.read.LakeReads;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.principal.PrincipalPool;
import dev.riffle.server.statement.RunningStatements;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.AuthenticationException;

/**
 * Which session a request runs in, for every surface. Without authentication: the server's one
 * shared session. With it: the caller's own session, opened on first use with the caller's
 * credentials as a Fluss SASL/PLAIN connection (so Fluss's ACLs decide what each caller may do),
 * at most {@code maxPrincipals} open, the least recently used closed once no request holds it.
 * Each request gets a {@link RequestContext}: its session, its own Arrow allocator, the limits.
 *
 * <pre>{@code
 * try (RequestContext request = sessions.open(credentials, "scan shop.orders")) {
 *     TableReader rows = request.riffle().table("shop.orders").read().createReader();
 * }
 * }</pre>
 */
public final class Sessions implements AutoCloseable {
    /**
     * SQL connections of the shared session: how many requests' statements run at once. They
     * share one Fluss session, so one more costs a Calcite connection; 32 keep two cores busy with
     * point queries that each wait a millisecond for their lookup batch.
     */
    public static final int SHARED_SQL_CONNECTIONS = 32;
    /**
     * SQL connections per principal: a few, so that a principal's key lookups find one while its
     * analytics run (how many of those run at once is the server's {@code StatementAdmission}).
     */
    public static final int PRINCIPAL_SQL_CONNECTIONS = 4;

    private final BufferAllocator allocator;
    private final ServerLimits limits;
    private final Optional<Session> shared;
    private final Optional<PrincipalPool<Session>> principals;
    private final SessionLedger ledger;
    private final RunningStatements statements;
    private final String surface;
    /** Whether closing this closes the sessions (false for a surface's view of another's). */
    private final boolean owner;

    private Sessions(BufferAllocator allocator, ServerLimits limits, Optional<Session> shared,
            Optional<PrincipalPool<Session>> principals, SessionLedger ledger, RunningStatements statements,
            String surface, boolean owner) {
        this.owner = owner;
        this.ledger = requireNonNull(ledger, "ledger is null");
        this.statements = requireNonNull(statements, "statements is null");
        this.surface = requireNonNull(surface, "surface is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.shared = shared;
        this.principals = principals;
    }

    /**
     * Every request runs in one session over {@code connection} (which the caller closes).
     *
     * @param statements where the SQL statements of the requests are registered and admitted
     * @param surface what the requests' statements are said to come from ({@code http}, ...)
     */
    public static Sessions shared(FlussConnection connection, BufferAllocator allocator, LakeReads lake,
            ServerLimits limits, RunningStatements statements, String surface) {
        Riffle riffle = Riffle.using(connection, allocator).withLake(lake);
        SessionLedger ledger = new SessionLedger();
        Session session = new Session(Optional.empty(), riffle, Optional.empty(),
                handles -> SqlConnections.over(riffle, SHARED_SQL_CONNECTIONS, limits.requestTimeout(),
                        limits.statements(), handles), ledger);
        return new Sessions(allocator, limits, Optional.of(session), Optional.empty(), ledger, statements, surface,
                true);
    }

    /**
     * Every request runs in its caller's session.
     *
     * @param clientConfig the server's Fluss client settings; each principal's replace the credentials
     * @param connections where each principal's connection is counted while it is open
     */
    public static Sessions perPrincipal(Configuration clientConfig, BufferAllocator allocator, LakeReads lake,
            ServerLimits limits, int maxPrincipals, RunningStatements statements, String surface,
            FlussConnections connections) {
        requireNonNull(connections, "connections is null");
        Configuration base = new Configuration(requireNonNull(clientConfig, "clientConfig is null"));
        base.removeConfig(ConfigOptions.CLIENT_SASL_JAAS_CONFIG);
        SessionLedger ledger = new SessionLedger();
        PrincipalPool<Session> pool = new PrincipalPool<>("session", maxPrincipals, (user, password) -> {
            Configuration own = principalConfig(base, user, password);
            FlussConnection connection = open(own, user);
            FlussConnections.Held held = connections.opened(user);
            Riffle riffle = Riffle.using(connection, allocator).withLake(lake);
            return new Session(Optional.of(user), riffle, Optional.of(held),
                    handles -> SqlConnections.over(riffle, PRINCIPAL_SQL_CONNECTIONS, limits.requestTimeout(),
                            limits.statements(), handles), ledger);
        });
        return new Sessions(allocator, limits, Optional.empty(), Optional.of(pool), ledger, statements, surface,
                true);
    }

    /**
     * The Fluss client settings of {@code user}: {@code clientConfig} with SASL/PLAIN as that user.
     */
    public static Configuration principalConfig(Configuration clientConfig, String user, String password) {
        Configuration conf = new Configuration(requireNonNull(clientConfig, "clientConfig is null"));
        conf.removeConfig(ConfigOptions.CLIENT_SASL_JAAS_CONFIG);
        conf.set(ConfigOptions.CLIENT_SECURITY_PROTOCOL, "SASL");
        conf.set(ConfigOptions.CLIENT_SASL_MECHANISM, "PLAIN");
        conf.set(ConfigOptions.CLIENT_SASL_JAAS_USERNAME, requireNonNull(user, "user is null"));
        conf.set(ConfigOptions.CLIENT_SASL_JAAS_PASSWORD, requireNonNull(password, "password is null"));
        return conf;
    }

    /**
     * These sessions as another surface of the same process serves them: the same sessions (a
     * principal's one Fluss connection, its tables, its SQL), its requests' statements said to
     * come from {@code surface}. Closing the view closes nothing; closing these closes them.
     */
    public Sessions forSurface(String surface) {
        return new Sessions(allocator, limits, shared, principals, ledger, statements, surface, false);
    }

    /** Whether requests must bring credentials. */
    public boolean authenticates() {
        return principals.isPresent();
    }

    public ServerLimits limits() {
        return limits;
    }

    /** Where the SQL statements of these sessions' requests run (shared by the surfaces of one process). */
    public RunningStatements statements() {
        return statements;
    }

    /** A session some request is using; closing the lease hands it back. */
    public interface Lease extends AutoCloseable {
        Session session();

        @Override
        void close();
    }

    /**
     * The session a request with {@code credentials} runs in.
     *
     * @throws ServiceException {@link FailureKind#UNAUTHENTICATED} when credentials are needed and
     *     missing, or Fluss rejects them
     */
    public Lease acquire(Optional<Credentials> credentials) {
        requireNonNull(credentials, "credentials is null");
        if (shared.isPresent()) {
            Session session = shared.get();
            return new Lease() {
                @Override
                public Session session() {
                    return session;
                }

                @Override
                public void close() {}
            };
        }
        Credentials given = credentials.orElseThrow(() -> new ServiceException(FailureKind.UNAUTHENTICATED,
                "unauthenticated", "This server requires authentication with a Fluss SASL/PLAIN user and password"));
        PrincipalPool.Lease<Session> lease = principals.orElseThrow().acquire(given.user(), given.password());
        return new Lease() {
            @Override
            public Session session() {
                return lease.resource();
            }

            @Override
            public void close() {
                lease.close();
            }
        };
    }

    /** A request's context: its session (held until the context closes) and its own allocator. */
    public RequestContext open(Optional<Credentials> credentials, String purpose) {
        Lease lease = acquire(credentials);
        try {
            return new RequestContext(lease, allocator, purpose, limits, statements, surface);
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    /**
     * What the sessions hold and have let go of.
     *
     * @param live sessions open now
     * @param opened sessions ever opened
     * @param closed sessions closed
     * @param tablesOpened table handles ever opened, by every session
     * @param tablesClosed table handles closed
     * @param connectionsClosed Fluss connections that sessions owned and closed
     */
    public record Counts(int live, long opened, long closed, long tablesOpened, long tablesClosed,
            long connectionsClosed) {}

    public Counts counts() {
        return ledger.counts();
    }

    /** How many principals have a session open (0 without authentication). */
    public int principals() {
        return principals.map(PrincipalPool::size).orElse(0);
    }

    /** How many requests hold a principal's session now (0 when idle). */
    public int leased() {
        return principals.map(PrincipalPool::leased).orElse(0);
    }

    /** Closes every session (one still leased when its last lease is returned). */
    @Override
    public void close() {
        if (!owner) {
            return;
        }
        shared.ifPresent(Session::close);
        principals.ifPresent(PrincipalPool::close);
    }

    private static FlussConnection open(Configuration conf, String user) {
        Connection connection;
        try {
            connection = ConnectionFactory.createConnection(conf);
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
                if (t instanceof AuthenticationException auth) {
                    throw new ServiceException(FailureKind.UNAUTHENTICATED, "unauthenticated",
                            "Fluss did not accept the user '" + user + "' and its password: " + auth.getMessage(),
                            java.util.Map.of(), e);
                }
            }
            throw e;
        }
        if (!(connection instanceof FlussConnection fluss)) {
            try {
                connection.close();
            } catch (Exception ignored) {
                // refused either way
            }
            throw new IllegalStateException("The server needs the Fluss client's own Connection, got "
                    + connection.getClass().getName());
        }
        return fluss;
    }
}
