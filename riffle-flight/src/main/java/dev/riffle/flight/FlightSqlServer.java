package dev.riffle.flight;

import static java.util.Objects.requireNonNull;

import dev.riffle.flight.auth.PrincipalAuthenticator;
import dev.riffle.flight.statement.TicketSigner;
import dev.riffle.lake.read.PluginLakeReads;
import dev.riffle.server.ServerClientDefaults;
import dev.riffle.server.ServerLimits;
import dev.riffle.server.principal.Auth;
import dev.riffle.server.session.Sessions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
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
 * An Arrow Flight SQL server over a Fluss cluster: what DBeaver (through the Flight SQL JDBC
 * driver), ADBC and every Arrow library connect to. Queries, prepared statements with parameters,
 * updates and DDL, catalog metadata and bulk ingest, with results streamed as Arrow.
 *
 * <pre>{@code
 * try (FlightSqlServer flight = FlightSqlServer.builder().bootstrapServers("127.0.0.1:9123").port(31337).start()) {
 *     System.out.println(flight.jdbcUrl()); // jdbc:arrow-flight-sql://127.0.0.1:31337?useEncryption=false
 * }
 * }</pre>
 */
public final class FlightSqlServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(FlightSqlServer.class);

    private final FlightServer server;
    private final Sessions sessions;
    private final boolean ownsSessions;
    private final Connection connection;
    private final boolean ownsConnection;
    private final BufferAllocator allocator;
    private final String host;
    private final boolean tls;

    private FlightSqlServer(FlightServer server, Sessions sessions, boolean ownsSessions, Connection connection,
            boolean ownsConnection, BufferAllocator allocator, String host, boolean tls) {
        this.server = server;
        this.sessions = sessions;
        this.ownsSessions = ownsSessions;
        this.connection = connection;
        this.ownsConnection = ownsConnection;
        this.allocator = allocator;
        this.host = host;
        this.tls = tls;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The port the server listens on. */
    public int port() {
        return server.getPort();
    }

    /** The URL of the Flight SQL JDBC driver for this server. */
    public String jdbcUrl() {
        String shown = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        return "jdbc:arrow-flight-sql://" + shown + ":" + port() + "?useEncryption=" + tls;
    }

    /** The Flight location clients connect to. */
    public Location location() {
        String shown = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        return tls ? Location.forGrpcTls(shown, port()) : Location.forGrpcInsecure(shown, port());
    }

    /** Arrow memory the server holds now (0 when no call is running). */
    public long arrowAllocatedBytes() {
        return allocator.getAllocatedMemory();
    }

    @Override
    public void close() throws Exception {
        try {
            server.shutdown();
            if (!server.awaitTermination(10, TimeUnit.SECONDS)) {
                server.close();
            }
        } finally {
            try {
                if (ownsSessions) {
                    sessions.close();
                }
            } finally {
                try {
                    if (ownsConnection) {
                        connection.close();
                    }
                } finally {
                    allocator.close();
                }
            }
        }
    }

    /** Settings of a Flight SQL server; {@link #start()} opens the connection (unless given one) and the port. */
    public static final class Builder {
        private Configuration clientConfig;
        private Connection connection;
        private String host = "0.0.0.0";
        private int port = 31337;
        private Auth auth = Auth.NONE;
        private int maxPrincipals = 100;
        private ServerLimits limits = ServerLimits.DEFAULT;
        private Optional<byte[]> ticketKey = Optional.empty();
        private Optional<File> tlsCertificate = Optional.empty();
        private Optional<File> tlsKey = Optional.empty();
        private final List<Location> advertised = new ArrayList<>();
        private MeterRegistry registry = new SimpleMeterRegistry();
        private int endpointsPerScan = 4;

        private Builder() {}

        public Builder bootstrapServers(String bootstrapServers) {
            Configuration conf = new Configuration();
            conf.setString(ConfigOptions.BOOTSTRAP_SERVERS.key(), requireNonNull(bootstrapServers, "bootstrapServers is null"));
            return clientConfig(conf);
        }

        /**
         * A full Fluss client configuration (the server opens its own connection from it), with
         * {@link ServerClientDefaults} where it sets nothing itself.
         */
        public Builder clientConfig(Configuration conf) {
            this.clientConfig = new Configuration(requireNonNull(conf, "conf is null"));
            this.connection = null;
            return this;
        }

        /** An existing connection (closed by its owner, not the server). */
        public Builder connection(Connection connection) {
            this.connection = requireNonNull(connection, "connection is null");
            this.clientConfig = null;
            return this;
        }

        /** The interface to listen on (default all: {@code 0.0.0.0}). */
        public Builder host(String host) {
            this.host = requireNonNull(host, "host is null");
            return this;
        }

        /** The port (default 31337; 0 picks a free one). */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port must be 0..65535, got " + port);
            }
            this.port = port;
            return this;
        }

        /**
         * How clients authenticate (default {@link Auth#NONE}). With {@link Auth#BASIC} a client's user
         * and password open that principal's own SASL/PLAIN connection (built from this server's
         * client options) and it gets a bearer token; Fluss's ACLs then decide each call.
         */
        public Builder auth(Auth auth) {
            this.auth = requireNonNull(auth, "auth is null");
            return this;
        }

        /** With {@link Auth#BASIC}: how many principals' connections stay open (default 100). */
        public Builder maxPrincipals(int maxPrincipals) {
            if (maxPrincipals < 1) {
                throw new IllegalArgumentException("maxPrincipals must be at least 1, got " + maxPrincipals);
            }
            this.maxPrincipals = maxPrincipals;
            return this;
        }

        /** What one call may cost (SQL length, scan time, ...); default {@link ServerLimits#DEFAULT}. */
        public Builder limits(ServerLimits limits) {
            this.limits = requireNonNull(limits, "limits is null");
            return this;
        }

        /**
         * The key tickets are signed with, shared by every instance that may serve another's tickets
         * (default: a random key of this process, so its tickets are good here alone).
         */
        public Builder ticketKey(byte[] key) {
            TicketSigner.withKey(key);
            this.ticketKey = Optional.of(key.clone());
            return this;
        }

        /** TLS with this certificate chain and private key (PEM files); without them the server speaks plain gRPC. */
        public Builder tls(File certificateChain, File privateKey) {
            this.tlsCertificate = Optional.of(requireNonNull(certificateChain, "certificateChain is null"));
            this.tlsKey = Optional.of(requireNonNull(privateKey, "privateKey is null"));
            return this;
        }

        /**
         * Locations an endpoint names as able to serve it (other instances sharing the ticket key);
         * default none, which tells clients to fetch from the server they asked.
         */
        public Builder advertise(Location location) {
            advertised.add(requireNonNull(location, "location is null"));
            return this;
        }

        /**
         * How many endpoints a bare log scan of several buckets is cut into (default 4; 1 never cuts):
         * a client may fetch them at once, from this server or any sharing the ticket key.
         */
        public Builder endpointsPerScan(int endpoints) {
            if (endpoints < 1) {
                throw new IllegalArgumentException("endpointsPerScan must be at least 1, got " + endpoints);
            }
            this.endpointsPerScan = endpoints;
            return this;
        }

        /** Where per-command metrics go (the gateway's registry, to show them in its {@code /metrics}). */
        public Builder meterRegistry(MeterRegistry registry) {
            this.registry = requireNonNull(registry, "registry is null");
            return this;
        }

        public FlightSqlServer start() {
            boolean owns = connection == null;
            if (owns && clientConfig == null) {
                throw new IllegalStateException("Give the Flight SQL server bootstrapServers, a clientConfig or a connection");
            }
            Connection conn = owns ? ConnectionFactory.createConnection(ServerClientDefaults.apply(clientConfig)) : connection;
            if (!(conn instanceof FlussConnection fluss)) {
                throw new IllegalArgumentException("The Flight SQL server needs the Fluss client's own Connection, got "
                        + conn.getClass().getName());
            }
            BufferAllocator allocator = new RootAllocator();
            Sessions sessions = null;
            try {
                PluginLakeReads lake = new PluginLakeReads(fluss);
                sessions = auth == Auth.BASIC
                        ? Sessions.perPrincipal(fluss.getConfiguration(), allocator, lake, limits, maxPrincipals)
                        : Sessions.shared(fluss, allocator, lake, limits);
                Optional<PrincipalAuthenticator> authenticator = auth == Auth.BASIC
                        ? Optional.of(new PrincipalAuthenticator(sessions, java.time.Duration.ofHours(1), 100_000))
                        : Optional.empty();
                TicketSigner signer = ticketKey.map(TicketSigner::withKey).orElseGet(TicketSigner::random);
                RiffleFlightSqlProducer producer = new RiffleFlightSqlProducer(sessions, authenticator, signer,
                        advertised, endpointsPerScan, allocator, new FlightMetrics(registry));
                boolean tls = tlsCertificate.isPresent();
                Location listen = tls ? Location.forGrpcTls(host, port) : Location.forGrpcInsecure(host, port);
                FlightServer.Builder server = FlightServer.builder(allocator, listen, producer);
                authenticator.ifPresent(server::headerAuthenticator);
                if (tls) {
                    server.useTls(tlsCertificate.get(), tlsKey.get());
                }
                FlightServer started = server.build().start();
                FlightSqlServer flight = new FlightSqlServer(started, sessions, true, conn, owns, allocator, host, tls);
                LOG.info("Flight SQL at {} over Fluss {}", flight.jdbcUrl(),
                        fluss.getConfiguration().toMap().get(ConfigOptions.BOOTSTRAP_SERVERS.key()));
                return flight;
            } catch (IOException | RuntimeException e) {
                if (sessions != null) {
                    sessions.close();
                }
                allocator.close();
                if (owns) {
                    try {
                        conn.close();
                    } catch (Exception closing) {
                        e.addSuppressed(closing);
                    }
                }
                throw new IllegalStateException("Cannot start the Flight SQL server on " + host + ":" + port + ": "
                        + e.getMessage(), e);
            }
        }
    }
}
