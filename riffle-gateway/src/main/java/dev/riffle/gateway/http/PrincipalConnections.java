package dev.riffle.gateway.http;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.exception.AuthenticationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Fluss connection per principal, authenticated with SASL/PLAIN as that user, so Fluss's own
 * ACLs decide what each HTTP user may do. At most {@code maxPrincipals} stay open: the least
 * recently used one is closed once no request holds it. A connection is keyed by the user and a
 * hash of the password, so a wrong password never reaches another login's connection.
 *
 * <p>Credentials Fluss rejects are not cached: every such request opens (and fails) a new
 * connection.
 */
public final class PrincipalConnections implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PrincipalConnections.class);

    private final Function<Configuration, Connection> factory;
    private final Configuration base;
    private final int maxPrincipals;
    /** Guarded by {@code this}; in access order, eldest first. */
    private final LinkedHashMap<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private boolean closed;

    /** A connection some requests are using; {@link #close()} hands it back. */
    public interface Lease extends AutoCloseable {
        FlussConnection connection();

        @Override
        void close();
    }

    private record Key(String user, String passwordHash) {}

    private static final class Entry {
        final CompletableFuture<FlussConnection> connection = new CompletableFuture<>();
        int leases;
        boolean evicted;
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
        if (maxPrincipals < 1) {
            throw new IllegalArgumentException("maxPrincipals must be at least 1, got " + maxPrincipals);
        }
        this.base = new Configuration(requireNonNull(clientConfig, "clientConfig is null"));
        this.base.removeConfig(ConfigOptions.CLIENT_SASL_JAAS_CONFIG);
        this.maxPrincipals = maxPrincipals;
        this.factory = requireNonNull(factory, "factory is null");
    }

    /**
     * The connection of {@code user}, opened (and so authenticated by Fluss) on first use.
     *
     * @throws ApiException 401 {@code unauthenticated} when Fluss rejects the user or password
     */
    public Lease acquire(String user, String password) {
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        Key key = new Key(user, sha256(password));
        Entry entry;
        boolean opener = false;
        List<FlussConnection> toClose = new ArrayList<>();
        synchronized (this) {
            if (closed) {
                throw new ApiException(503, "cluster_unavailable", "The gateway is shutting down");
            }
            entry = entries.get(key);
            if (entry == null) {
                entry = new Entry();
                entries.put(key, entry);
                opener = true;
                evictBeyond(maxPrincipals, key, toClose);
            }
            entry.leases++;
        }
        closeAll(toClose);
        if (opener) {
            open(key, entry, password);
        }
        try {
            FlussConnection connection = entry.connection.join();
            return lease(entry, connection);
        } catch (CompletionException e) {
            release(entry);
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        }
    }

    /** How many principals have an open (or opening) connection. */
    public synchronized int size() {
        return entries.size();
    }

    /** How many requests hold a connection now (0 when idle). */
    public synchronized int leased() {
        return entries.values().stream().mapToInt(entry -> entry.leases).sum();
    }

    /** Closes every connection; later {@link #acquire} calls fail. Call once no request runs. */
    @Override
    public void close() {
        List<FlussConnection> toClose = new ArrayList<>();
        synchronized (this) {
            closed = true;
            evictBeyond(0, null, toClose); // a connection still leased closes when its last lease is returned
        }
        closeAll(toClose);
    }

    private void open(Key key, Entry entry, String password) {
        Configuration conf = new Configuration(base);
        conf.set(ConfigOptions.CLIENT_SECURITY_PROTOCOL, "SASL");
        conf.set(ConfigOptions.CLIENT_SASL_MECHANISM, "PLAIN");
        conf.set(ConfigOptions.CLIENT_SASL_JAAS_USERNAME, key.user());
        conf.set(ConfigOptions.CLIENT_SASL_JAAS_PASSWORD, password);
        try {
            Connection connection = factory.apply(conf);
            if (!(connection instanceof FlussConnection fluss)) {
                closeQuietly(connection);
                throw new IllegalStateException("The gateway needs the Fluss client's own Connection, got "
                        + connection.getClass().getName());
            }
            LOG.info("Opened a Fluss connection for principal {}", key.user());
            entry.connection.complete(fluss);
        } catch (RuntimeException e) {
            synchronized (this) {
                entries.remove(key, entry);
            }
            RuntimeException failure = authenticationFailure(e)
                    .<RuntimeException>map(auth -> new ApiException(401, "unauthenticated",
                            "Fluss did not accept the user '" + key.user() + "' and its password: " + auth.getMessage()))
                    .orElse(e);
            entry.connection.completeExceptionally(failure);
        }
    }

    private Lease lease(Entry entry, FlussConnection connection) {
        return new Lease() {
            private boolean released;

            @Override
            public FlussConnection connection() {
                return connection;
            }

            @Override
            public void close() {
                if (!released) {
                    released = true;
                    release(entry);
                }
            }
        };
    }

    private void release(Entry entry) {
        FlussConnection toClose = null;
        synchronized (this) {
            entry.leases--;
            if (entry.evicted && entry.leases == 0 && entry.connection.isDone()
                    && !entry.connection.isCompletedExceptionally()) {
                toClose = entry.connection.join();
            }
        }
        if (toClose != null) {
            closeQuietly(toClose);
        }
    }

    /** Drops the least recently used entries (never {@code keep}) until at most {@code max} remain. */
    private void evictBeyond(int max, Key keep, List<FlussConnection> toClose) {
        Iterator<Map.Entry<Key, Entry>> it = entries.entrySet().iterator();
        while (entries.size() > max && it.hasNext()) {
            Map.Entry<Key, Entry> eldest = it.next();
            if (eldest.getKey().equals(keep)) {
                continue;
            }
            it.remove();
            Entry entry = eldest.getValue();
            entry.evicted = true;
            if (entry.leases == 0 && entry.connection.isDone() && !entry.connection.isCompletedExceptionally()) {
                toClose.add(entry.connection.join());
            }
        }
    }

    private static Optional<AuthenticationException> authenticationFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AuthenticationException auth) {
                return Optional.of(auth);
            }
        }
        return Optional.empty();
    }

    private static void closeAll(List<FlussConnection> connections) {
        connections.forEach(PrincipalConnections::closeQuietly);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (Exception e) {
            LOG.warn("Could not close a principal's Fluss connection", e);
        }
    }

    private static String sha256(String password) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(password.getBytes(UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
