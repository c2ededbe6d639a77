package dev.riffle.pgwire;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.auth.PasswordFile;
import dev.riffle.pgwire.auth.ScramUsers;
import dev.riffle.pgwire.protocol.BackendEncoder;
import dev.riffle.pgwire.protocol.FrontendDecoder;
import dev.riffle.pgwire.session.CancelRegistry;
import dev.riffle.pgwire.session.PgConnectionHandler;
import dev.riffle.pgwire.session.PgServerContext;
import dev.riffle.server.ServerBuilder;
import dev.riffle.server.ServerRuntime;
import dev.riffle.server.principal.Auth;
import dev.riffle.server.session.ServerLimits;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL wire protocol (v3) server over a Fluss cluster: psql, pgjdbc and other PostgreSQL
 * drivers connect to it and run Riffle SQL, with results streamed as the reads produce them.
 * Without authentication every connection runs in the server's shared session; with
 * {@link Auth#BASIC} a client's user and password open its own Fluss SASL/PLAIN connection, so
 * Fluss's ACLs decide. The password arrives in cleartext, or, with {@link Builder#scramUsers}, is
 * proven by SCRAM-SHA-256 and taken from the server's password file. With {@link Builder#tls}
 * clients must connect with TLS.
 *
 * <pre>{@code
 * try (PgWireServer pg = PgWireServer.builder().bootstrapServers("127.0.0.1:9123").port(15432).start()) {
 *     System.out.println(pg.psqlCommand()); // psql "host=127.0.0.1 port=15432 dbname=riffle"
 * }
 * }</pre>
 */
public final class PgWireServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PgWireServer.class);
    /** The PostgreSQL protocol's default port in Riffle (PostgreSQL's own 5432 plus 10000). */
    public static final int DEFAULT_PORT = 15432;
    /** The most rows one COPY FROM STDIN writes unless {@link Builder#maxCopyRows} says otherwise. */
    public static final int DEFAULT_MAX_COPY_ROWS = 1_000_000;

    private final Channel listener;
    private final EventLoopGroup boss;
    private final EventLoopGroup events;
    private final ExecutorService workers;
    private final CancelRegistry cancels;
    private final ServerRuntime runtime;
    private final String host;
    private final boolean tls;

    private PgWireServer(Channel listener, EventLoopGroup boss, EventLoopGroup events, ExecutorService workers,
            CancelRegistry cancels, ServerRuntime runtime, String host, boolean tls) {
        this.listener = listener;
        this.boss = boss;
        this.events = events;
        this.workers = workers;
        this.cancels = cancels;
        this.runtime = runtime;
        this.host = host;
        this.tls = tls;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The port the server listens on. */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /** The host clients connect to (127.0.0.1 when the server listens on every interface). */
    public String clientHost() {
        return host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
    }

    /** Whether clients must log in with a Fluss user and password. */
    public boolean authenticates() {
        return runtime.sessions().authenticates();
    }

    /** Whether clients must connect with TLS (the server has a certificate). */
    public boolean encrypts() {
        return tls;
    }

    /** A ready psql command line for this server. */
    public String psqlCommand() {
        return "psql \"host=" + clientHost() + " port=" + port() + " dbname=riffle"
                + (authenticates() ? " user=USER" : "") + (tls ? " sslmode=require" : "") + "\"";
    }

    /**
     * The pgjdbc URL of this server; with TLS {@code sslmode=require}, which encrypts without
     * checking the certificate (give {@code sslmode=verify-full} and {@code sslrootcert} to check it).
     */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + clientHost() + ":" + port() + "/riffle" + (tls ? "?sslmode=require" : "");
    }

    /** Arrow memory the server holds now (0 when no statement is being read). */
    public long arrowAllocatedBytes() {
        return runtime.allocator().getAllocatedMemory();
    }

    /** The SQL statements running through this server now (and its admission of them). */
    public dev.riffle.server.statement.RunningStatements statements() {
        return runtime.statements();
    }

    /** How many clients are connected (and past startup). */
    public int connectedSessions() {
        return cancels.size();
    }

    @Override
    public void close() {
        try {
            listener.close().syncUninterruptibly();
            boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            events.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
            workers.shutdown();
            try {
                if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
                    workers.shutdownNow();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } finally {
            runtime.close(); // sessions, the connection if the server opened it, then the allocator
        }
    }

    /** Settings of a PostgreSQL protocol server; {@link #start()} opens the connection (unless given one) and the port. */
    public static final class Builder extends ServerBuilder<Builder> {
        private int maxConnections = 200;
        private int maxCopyRows = DEFAULT_MAX_COPY_ROWS;
        private Optional<PasswordFile> scramUsers = Optional.empty();
        private Optional<Path> tlsCertificateChain = Optional.empty();
        private Optional<Path> tlsPrivateKey = Optional.empty();

        private Builder() {
            super("the PostgreSQL server", "pgwire", DEFAULT_PORT);
        }

        @Override
        protected Builder self() {
            return this;
        }

        /** How many clients may be connected at once (default 200); more are refused with 53300. */
        public Builder maxConnections(int maxConnections) {
            if (maxConnections < 1) {
                throw new IllegalArgumentException("maxConnections must be at least 1, got " + maxConnections);
            }
            this.maxConnections = maxConnections;
            return this;
        }

        /**
         * The most rows one {@code COPY ... FROM STDIN} writes (default {@value #DEFAULT_MAX_COPY_ROWS});
         * its bytes are bounded by {@link ServerLimits#maxBodyBytes()}. Past either, the COPY fails
         * with 54000 and writes nothing (a COPY is checked whole before it is written, so it is held
         * in memory).
         */
        public Builder maxCopyRows(int maxCopyRows) {
            if (maxCopyRows < 1) {
                throw new IllegalArgumentException("maxCopyRows must be at least 1, got " + maxCopyRows);
            }
            this.maxCopyRows = maxCopyRows;
            return this;
        }

        /**
         * With {@link Auth#BASIC}: clients log in with SCRAM-SHA-256 (and only with it) as these
         * users, so no password crosses the network. A proof is checked against a verifier the
         * server derives from each password when it starts (a random salt, 4096 iterations); the
         * password then opens the user's own Fluss SASL/PLAIN connection, which is why the server
         * must know it. A user not in the file, a wrong password, and a user Fluss refuses are all
         * {@code 28P01 password authentication failed for user "x"}.
         */
        public Builder scramUsers(PasswordFile users) {
            this.scramUsers = Optional.of(requireNonNull(users, "users is null"));
            return this;
        }

        /**
         * Serves TLS with this certificate chain and PKCS#8 private key (PEM files): an SSL request
         * is answered {@code S}, and a client that does not ask for TLS is refused (28000), so
         * passwords never cross in the clear. Without it SSL requests are answered {@code N}.
         */
        public Builder tls(Path certificateChainPem, Path privateKeyPem) {
            this.tlsCertificateChain = Optional.of(requireNonNull(certificateChainPem, "certificateChainPem is null"));
            this.tlsPrivateKey = Optional.of(requireNonNull(privateKeyPem, "privateKeyPem is null"));
            return this;
        }

        /**
         * Opens the connection (unless given one) and listens. The largest message a client may
         * send is {@link ServerLimits#maxBodyBytes()} of the {@link #limits}.
         */
        public PgWireServer start() {
            if (scramUsers.isPresent() && auth() != Auth.BASIC) {
                throw new IllegalStateException("SCRAM users need auth(Auth.BASIC): without authentication nobody logs in");
            }
            Optional<SslContext> tls = sslContext();
            Optional<ScramUsers> scram = scramUsers.map(ScramUsers::derive);
            ServerRuntime runtime = openRuntime();
            EventLoopGroup boss = null;
            EventLoopGroup events = null;
            ExecutorService workers = null;
            try {
                CancelRegistry cancels = new CancelRegistry();
                workers = Executors.newCachedThreadPool(new DefaultThreadFactory("riffle-pgwire-worker", true));
                int maxMessage = (int) Math.min(Integer.MAX_VALUE, limits().maxBodyBytes());
                PgServerContext context = new PgServerContext(runtime.sessions(), cancels, workers, maxConnections,
                        maxCopyRows, scram, tls);
                AtomicInteger connections = new AtomicInteger();
                boss = new NioEventLoopGroup(1, new DefaultThreadFactory("riffle-pgwire-accept", true));
                events = new NioEventLoopGroup(2, new DefaultThreadFactory("riffle-pgwire-io", true));
                BackendEncoder encoder = new BackendEncoder();
                ServerBootstrap bootstrap = new ServerBootstrap().group(boss, events)
                        .channel(NioServerSocketChannel.class)
                        .childOption(ChannelOption.TCP_NODELAY, true)
                        .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 * 1024, 1024 * 1024))
                        .childHandler(new ChannelInitializer<SocketChannel>() {
                            @Override
                            protected void initChannel(SocketChannel channel) {
                                channel.pipeline().addLast(new FrontendDecoder(maxMessage), encoder,
                                        new PgConnectionHandler(context, connections));
                            }
                        });
                Channel listener = bootstrap.bind(host(), port()).syncUninterruptibly().channel();
                PgWireServer server = new PgWireServer(listener, boss, events, workers, cancels, runtime, host(),
                        tls.isPresent());
                LOG.info("PostgreSQL protocol at {}:{}{}{} over Fluss {}", host(), server.port(),
                        tls.isPresent() ? " (TLS only)" : "", scram.map(users -> " (SCRAM-SHA-256 users "
                                + users.users() + ")").orElse(""), runtime.bootstrapServers());
                return server;
            } catch (RuntimeException e) {
                if (boss != null) {
                    boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
                }
                if (events != null) {
                    events.shutdownGracefully(0, 1, TimeUnit.SECONDS);
                }
                if (workers != null) {
                    workers.shutdownNow();
                }
                try {
                    runtime.close();
                } catch (RuntimeException closing) {
                    e.addSuppressed(closing);
                }
                throw new IllegalStateException("Cannot start the PostgreSQL server on " + host() + ":" + port() + ": "
                        + e.getMessage(), e);
            }
        }

        /** The TLS settings, read before anything starts, so a bad file fails alone and says which. */
        private Optional<SslContext> sslContext() {
            if (tlsCertificateChain.isEmpty()) {
                return Optional.empty();
            }
            Path chain = tlsCertificateChain.get();
            Path key = tlsPrivateKey.get();
            try {
                return Optional.of(SslContextBuilder.forServer(chain.toFile(), key.toFile()).build());
            } catch (SSLException | IllegalArgumentException e) {
                throw new IllegalStateException("Cannot use the TLS certificate chain " + chain + " with the private key "
                        + key + " (PEM files; the key in PKCS#8, BEGIN PRIVATE KEY): " + e.getMessage(), e);
            }
        }
    }
}
