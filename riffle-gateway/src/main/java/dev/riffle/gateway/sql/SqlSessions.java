package dev.riffle.gateway.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.gateway.http.BasicAuth;
import dev.riffle.gateway.http.PrincipalConnections;
import dev.riffle.gateway.http.PrincipalPool;
import io.javalin.http.Context;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import org.apache.fluss.config.Configuration;

/**
 * Which JDBC connections a {@code POST /v1/sql} request runs on. Without authentication: the
 * gateway's shared pool. With {@code --auth basic}: the caller's own {@code jdbc:riffle}
 * connection, opened with the caller's SASL/PLAIN credentials (the same client settings as the
 * caller's Fluss connection), so Fluss ACLs decide what the statement may read; one connection
 * per principal, at most {@code maxPrincipals} open, least recently used closed first.
 */
public final class SqlSessions implements AutoCloseable {
    /** Connections per principal: one, so that a principal's statements cannot crowd out others'. */
    static final int PER_PRINCIPAL = 1;

    private final SqlConnections shared;
    private final Optional<PrincipalPool<SqlConnections>> principals;

    private SqlSessions(SqlConnections shared, Optional<PrincipalPool<SqlConnections>> principals) {
        this.shared = requireNonNull(shared, "shared is null");
        this.principals = requireNonNull(principals, "principals is null");
    }

    /** Every request runs on {@code pool} (the gateway's own principal). */
    public static SqlSessions shared(SqlConnections pool) {
        return new SqlSessions(pool, Optional.empty());
    }

    /**
     * Every request runs on its caller's own connection.
     *
     * @param gatewayPool the gateway's own pool: only for {@link #url()}, never for a request
     * @param clientConfig the gateway's Fluss client settings; each principal's replace the credentials
     * @param waitTimeout how long a request waits for its principal's connection (busy with another statement)
     */
    public static SqlSessions perPrincipal(SqlConnections gatewayPool, Configuration clientConfig, int maxPrincipals,
            Duration waitTimeout) {
        Configuration base = new Configuration(requireNonNull(clientConfig, "clientConfig is null"));
        requireNonNull(waitTimeout, "waitTimeout is null");
        PrincipalPool<SqlConnections> pool = new PrincipalPool<>("JDBC connection pool", maxPrincipals,
                (user, password) -> SqlConnections.over(PrincipalConnections.principalConfig(base, user, password),
                        PER_PRINCIPAL, waitTimeout));
        return new SqlSessions(gatewayPool, Optional.of(pool));
    }

    /** The JDBC URL the connections use ({@code jdbc:riffle://HOST:PORT}). */
    public String url() {
        return shared.url();
    }

    /** A connection for this request, as its caller; close the lease to give it back. */
    public SqlConnections.Lease borrow(Context ctx) throws SQLException {
        if (principals.isEmpty()) {
            return shared.borrow();
        }
        BasicAuth.Credentials credentials = BasicAuth.credentials(ctx).orElseThrow(() -> new IllegalStateException(
                "No caller's credentials are bound to this SQL request"));
        PrincipalPool.Lease<SqlConnections> principal = principals.get().acquire(credentials.user(),
                credentials.password());
        try {
            return principal.resource().borrow().onClose(principal::close);
        } catch (SQLException | RuntimeException e) {
            principal.close();
            throw e;
        }
    }

    /** Closes the shared pool and every principal's connection (once no request runs). */
    @Override
    public void close() throws Exception {
        try {
            principals.ifPresent(PrincipalPool::close);
        } finally {
            shared.close();
        }
    }
}
