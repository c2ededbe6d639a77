package dev.riffle.flight;

import static java.util.Objects.requireNonNull;

import dev.riffle.flight.auth.PrincipalAuthenticator;
import dev.riffle.flight.statement.AcceptedCompression;
import dev.riffle.flight.statement.TicketSigner;
import dev.riffle.server.ServerBuilder;
import dev.riffle.server.ServerRuntime;
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
    private final ServerRuntime runtime;
    private final String host;
    private final boolean tls;

    private FlightSqlServer(FlightServer server, ServerRuntime runtime, String host, boolean tls) {
        this.server = server;
        this.runtime = runtime;
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

    /** The SQL statements running through this server now (and, when shared, the process's other surfaces). */
    public dev.riffle.server.statement.RunningStatements statements() {
        return runtime.statements();
    }

    /** Arrow memory the server holds now (0 when no call is running). */
    public long arrowAllocatedBytes() {
        return runtime.allocator().getAllocatedMemory();
    }

    @Override
    public void close() throws Exception {
        try {
            server.shutdown();
            if (!server.awaitTermination(10, TimeUnit.SECONDS)) {
                server.close();
            }
        } finally {
            runtime.close(); // sessions, the connection if the server opened it, then the allocator
        }
    }

    /** Settings of a Flight SQL server; {@link #start()} opens the connection (unless given one) and the port. */
    public static final class Builder extends ServerBuilder<Builder> {
        private Optional<byte[]> ticketKey = Optional.empty();
        private Optional<File> tlsCertificate = Optional.empty();
        private Optional<File> tlsKey = Optional.empty();
        private final List<Location> advertised = new ArrayList<>();
        private MeterRegistry registry = new SimpleMeterRegistry();
        private int endpointsPerScan = 4;

        private Builder() {
            super("the Flight SQL server", "flight", 31337);
        }

        @Override
        protected Builder self() {
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
            ServerRuntime runtime = openRuntime();
            try {
                Sessions sessions = runtime.sessions();
                BufferAllocator allocator = runtime.allocator();
                Optional<PrincipalAuthenticator> authenticator = auth() == Auth.BASIC
                        ? Optional.of(new PrincipalAuthenticator(sessions, java.time.Duration.ofHours(1), 100_000))
                        : Optional.empty();
                TicketSigner signer = ticketKey.map(TicketSigner::withKey).orElseGet(TicketSigner::random);
                RiffleFlightSqlProducer producer = new RiffleFlightSqlProducer(sessions, authenticator, signer,
                        advertised, endpointsPerScan, allocator, new FlightMetrics(registry));
                boolean tls = tlsCertificate.isPresent();
                Location listen = tls ? Location.forGrpcTls(host(), port()) : Location.forGrpcInsecure(host(), port());
                FlightServer.Builder server = FlightServer.builder(allocator, listen, producer);
                authenticator.ifPresent(server::headerAuthenticator);
                server.middleware(AcceptedCompression.KEY, new AcceptedCompression.Factory());
                if (tls) {
                    server.useTls(tlsCertificate.get(), tlsKey.get());
                }
                FlightServer started = server.build().start();
                FlightSqlServer flight = new FlightSqlServer(started, runtime, host(), tls);
                LOG.info("Flight SQL at {} over Fluss {}", flight.jdbcUrl(), runtime.bootstrapServers());
                return flight;
            } catch (IOException | RuntimeException e) {
                try {
                    runtime.close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw new IllegalStateException("Cannot start the Flight SQL server on " + host() + ":" + port() + ": "
                        + e.getMessage(), e);
            }
        }
    }
}
