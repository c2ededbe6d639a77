package dev.riffle.pgwire;


import dev.riffle.pgwire.protocol.BackendEncoder;
import dev.riffle.pgwire.protocol.FrontendDecoder;
import dev.riffle.pgwire.session.CancelRegistry;
import dev.riffle.pgwire.session.PgConnectionHandler;
import dev.riffle.pgwire.session.PgServerContext;
import dev.riffle.server.ServerBuilder;
import dev.riffle.server.ServerLimits;
import dev.riffle.server.principal.Auth;
import dev.riffle.server.ServerRuntime;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL wire protocol (v3) server over a Fluss cluster: psql, pgjdbc and other PostgreSQL
 * drivers connect to it and run Riffle SQL, with results streamed as the reads produce them.
 * Without authentication every connection runs in the server's shared session; with
 * {@link Auth#BASIC} a client's user and cleartext password open its own Fluss SASL/PLAIN
 * connection, so Fluss's ACLs decide.
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

    private PgWireServer(Channel listener, EventLoopGroup boss, EventLoopGroup events, ExecutorService workers,
            CancelRegistry cancels, ServerRuntime runtime, String host) {
        this.listener = listener;
        this.boss = boss;
        this.events = events;
        this.workers = workers;
        this.cancels = cancels;
        this.runtime = runtime;
        this.host = host;
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

    /** A ready psql command line for this server. */
    public String psqlCommand() {
        return "psql \"host=" + clientHost() + " port=" + port() + " dbname=riffle"
                + (authenticates() ? " user=USER" : "") + "\"";
    }

    /** The pgjdbc URL of this server. */
    public String jdbcUrl() {
        return "jdbc:postgresql://" + clientHost() + ":" + port() + "/riffle";
    }

    /** Arrow memory the server holds now (0 when no statement is being read). */
    public long arrowAllocatedBytes() {
        return runtime.allocator().getAllocatedMemory();
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

        private Builder() {
            super("the PostgreSQL server", DEFAULT_PORT);
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
         * Opens the connection (unless given one) and listens. The largest message a client may
         * send is {@link ServerLimits#maxBodyBytes()} of the {@link #limits}.
         */
        public PgWireServer start() {
            ServerRuntime runtime = openRuntime();
            EventLoopGroup boss = null;
            EventLoopGroup events = null;
            ExecutorService workers = null;
            try {
                CancelRegistry cancels = new CancelRegistry();
                workers = Executors.newCachedThreadPool(new DefaultThreadFactory("riffle-pgwire-worker", true));
                int maxMessage = (int) Math.min(Integer.MAX_VALUE, limits().maxBodyBytes());
                PgServerContext context = new PgServerContext(runtime.sessions(), cancels, workers, maxConnections,
                        maxCopyRows);
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
                PgWireServer server = new PgWireServer(listener, boss, events, workers, cancels, runtime, host());
                LOG.info("PostgreSQL protocol at {}:{} over Fluss {}", host(), server.port(), runtime.bootstrapServers());
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
    }
}
