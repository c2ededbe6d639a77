package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.function.Function;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.AuthenticationException;

/**
 * One Fluss connection per principal, authenticated with SASL/PLAIN as that user, so Fluss's own
 * ACLs decide what each HTTP user may do. At most {@code maxPrincipals} stay open: the least
 * recently used one is closed once no request holds it (see {@link PrincipalPool}). A connection
 * is keyed by the user and a hash of the password, so a wrong password never reaches another
 * login's connection.
 *
 * <p>Credentials Fluss rejects are not cached: every such request opens (and fails) a new
 * connection.
 */
public final class PrincipalConnections implements AutoCloseable {
    private final Function<Configuration, Connection> factory;
    private final Configuration base;
    private final PrincipalPool<FlussConnection> pool;

    /** A connection some requests are using; {@link #close()} hands it back. */
    public interface Lease extends AutoCloseable {
        FlussConnection connection();

        @Override
        void close();
    }

    /**
     * @param clientConfig the gateway's client options (bootstrap servers, lookup batching, ...);
     *     the SASL options are replaced by each principal's
     * @param maxPrincipals how many principals' connections stay open at once
     */
    public PrincipalConnections(Configuration clientConfig, int maxPrincipals) {
        this(clientConfig, maxPrincipals, ConnectionFactory::createConnection);
    }

    PrincipalConnections(Configuration clientConfig, int maxPrincipals, Function<Configuration, Connection> factory) {
        this.base = new Configuration(requireNonNull(clientConfig, "clientConfig is null"));
        this.base.removeConfig(ConfigOptions.CLIENT_SASL_JAAS_CONFIG);
        this.factory = requireNonNull(factory, "factory is null");
        this.pool = new PrincipalPool<>("Fluss connection", maxPrincipals, this::open);
    }

    /**
     * The Fluss client settings of {@code user}: the gateway's own, with SASL/PLAIN as that user.
     * The SQL endpoint's per-principal JDBC connections use the same ones.
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
     * The connection of {@code user}, opened (and so authenticated by Fluss) on first use.
     *
     * @throws ApiException 401 {@code unauthenticated} when Fluss rejects the user or password
     */
    public Lease acquire(String user, String password) {
        PrincipalPool.Lease<FlussConnection> lease = pool.acquire(user, password);
        return new Lease() {
            @Override
            public FlussConnection connection() {
                return lease.resource();
            }

            @Override
            public void close() {
                lease.close();
            }
        };
    }

    /** How many principals have an open (or opening) connection. */
    public int size() {
        return pool.size();
    }

    /** How many requests hold a connection now (0 when idle). */
    public int leased() {
        return pool.leased();
    }

    /** Closes every connection; later {@link #acquire} calls fail. Call once no request runs. */
    @Override
    public void close() {
        pool.close();
    }

    private FlussConnection open(String user, String password) {
        Connection connection;
        try {
            connection = factory.apply(principalConfig(base, user, password));
        } catch (RuntimeException e) {
            throw authenticationFailure(e)
                    .<RuntimeException>map(auth -> new ApiException(401, "unauthenticated",
                            "Fluss did not accept the user '" + user + "' and its password: " + auth.getMessage()))
                    .orElse(e);
        }
        if (!(connection instanceof FlussConnection fluss)) {
            try {
                connection.close();
            } catch (Exception ignored) {
                // refused either way
            }
            throw new IllegalStateException("The gateway needs the Fluss client's own Connection, got "
                    + connection.getClass().getName());
        }
        return fluss;
    }

    private static Optional<AuthenticationException> authenticationFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AuthenticationException auth) {
                return Optional.of(auth);
            }
        }
        return Optional.empty();
    }
}
