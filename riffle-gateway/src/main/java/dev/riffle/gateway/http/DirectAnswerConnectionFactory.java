package dev.riffle.gateway.http;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.HostPort;
import org.eclipse.jetty.util.thread.Invocable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Connections that answer the requests of {@link DirectRoute}s themselves: read on the selector
 * thread that saw them arrive, answered from the server's threads; the first request no
 * route takes turns the connection into Jetty's own HTTP/1.1 connection ({@code next}), with
 * every byte read and not answered, for good.
 *
 * <p>Why: the gateway's point lookups are its hottest small requests, and Jetty's request
 * machinery (its channel, the handler chain and servlet scopes, the asynchronous response and
 * its completion) cost the gateway more CPU per lookup than the lookup itself; with 32 clients on
 * two shared cores that, not the lookup, bounded HTTP lookups (HttpBenchmark's P3). A request the
 * route reads from its line and headers, whose answer is one JSON document, needs none of it.
 *
 * <p>What keeps it HTTP: only the plainest requests are read here ({@link RequestHead}: HTTP/1.1,
 * no body, no {@code Expect}, no {@code Connection: close}, no {@code Upgrade} but to an h2c the
 * connector does not speak, a well-formed {@code Host}; see {@link #plain}); the
 * rest go to Jetty as they came, so every answer that is not a route's plain success or error
 * envelope (400 for malformed requests, 431 for a head over {@code HttpConfiguration}'s
 * request-header size, 404, 405) is Jetty's and Javalin's. One request is answered at a time, in
 * order (pipelined requests wait in the buffer); the answer carries the headers Jetty sends for the
 * same answer ({@code Date}, {@code Server} and {@code X-Powered-By} as its configuration says,
 * {@code Content-Type}, {@code Content-Length}).
 *
 * <pre>{@code
 * HttpConnectionFactory http = new HttpConnectionFactory(configuration);
 * ServerConnector connector = new ServerConnector(server,
 *         new DirectAnswerConnectionFactory(http, List.of(rowLookups), metrics::directRequest), http);
 * }</pre>
 */
public final class DirectAnswerConnectionFactory extends AbstractConnectionFactory {
    private static final Logger LOG = LoggerFactory.getLogger(DirectAnswerConnectionFactory.class);

    private final HttpConnectionFactory next;
    private final List<DirectRoute> routes;
    private final Runnable taken;

    /**
     * @param next what a connection becomes for a request no route takes (it must also be one of
     *     the connector's factories)
     * @param routes the routes answered directly, tried in order
     * @param taken called for each request a route takes (a metric)
     */
    public DirectAnswerConnectionFactory(HttpConnectionFactory next, List<DirectRoute> routes, Runnable taken) {
        super("riffle-direct");
        this.next = requireNonNull(next, "next is null");
        this.routes = List.copyOf(routes);
        this.taken = requireNonNull(taken, "taken is null");
    }

    @Override
    public Connection newConnection(Connector connector, EndPoint endPoint) {
        return configure(new DirectAnswerConnection(connector, endPoint), connector, endPoint);
    }

    /**
     * The plainest request a connection answers itself: HTTP/1.1 to a server that keeps
     * connections, a well-formed {@code Host}, no body, nothing to negotiate. An {@code Upgrade}
     * to {@code h2c} (Java's {@code HttpClient} asks for one by default) is plain when the
     * connector does not speak h2c: Jetty would answer it over HTTP/1.1 too.
     */
    static boolean plain(RequestHead head, HttpConfiguration configuration, boolean speaksH2c) {
        return head.version().equals("HTTP/1.1")
                && configuration.isPersistentConnectionsEnabled()
                && head.header("host").filter(DirectAnswerConnectionFactory::wellFormedHost).isPresent()
                && head.header("content-length").map(length -> length.equals("0")).orElse(true)
                && head.header("transfer-encoding").isEmpty()
                && head.header("expect").isEmpty()
                && head.header("upgrade").map(protocol -> !speaksH2c && protocol.equalsIgnoreCase("h2c"))
                        .orElse(true)
                && head.header("connection").map(DirectAnswerConnectionFactory::keepsAlive).orElse(true);
    }

    private static boolean wellFormedHost(String host) {
        try {
            new HostPort(host);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** A {@code Connection} header that leaves the connection open (its options, with a plain h2c upgrade's). */
    private static boolean keepsAlive(String connection) {
        for (String option : connection.split(",")) {
            String name = option.strip().toLowerCase(Locale.ROOT);
            if (!name.equals("keep-alive") && !name.equals("upgrade") && !name.equals("http2-settings")) {
                return false;
            }
        }
        return true;
    }

    /**
     * One connection. Its state (the buffer, whether read interest is set) is touched only inside
     * {@link #serve}'s loop, which one thread runs at a time: the selector when bytes arrive, the
     * server thread that wrote an answer once it is written, the thread that closes the connection.
     */
    private final class DirectAnswerConnection extends AbstractConnection implements Connection.UpgradeFrom {
        private final Connector connector;
        private final HttpConfiguration configuration;
        private final boolean speaksH2c;
        private final ByteBufferPool buffers;
        /** Never more than Jetty's connection takes over (it appends what is left into its own buffer). */
        private final int bufferSize;
        /**
         * What was read and not yet answered, between position and limit (Jetty's flush mode);
         * taken from the pool when bytes arrive, given back when all is answered, so an idle
         * connection holds none (as Jetty's own).
         */
        private ByteBuffer buffer;
        /** Read interest that the selector serves itself: nothing here waits. */
        private final Callback readable = Callback.from(Invocable.InvocationType.NON_BLOCKING, this::onFillable,
                this::onFillInterestedFailed);
        /** Calls of {@link #serve} not yet served; the thread that raised it from 0 serves them. */
        private final AtomicInteger serveCalls = new AtomicInteger();
        /** Set by the read interest when bytes (or the end) arrived, taken by {@link #serveNext}. */
        private final AtomicBoolean arrived = new AtomicBoolean();
        /**
         * Set while an answer is being made (the lookup under way, which has a timeout of its own),
         * not while it is written (a client that does not read times out as idle); read by the
         * idle timeout's thread.
         */
        private volatile boolean making;
        /** Set from a request taken until its answer is written (cleared by the write's callback, then {@link #serve}). */
        private volatile boolean answering;
        /** Read interest is set (and has not fired yet). */
        private boolean interested;
        /** The client shut its side: close once what it sent is answered. */
        private boolean ended;
        /** Jetty's connection has taken over, or this one closed: nothing more is served. */
        private boolean done;
        /**
         * The connection closed or was handed to Jetty's (on any thread): the next {@link #serveNext}
         * gives the buffer back, if it still holds one.
         */
        private volatile boolean closed;

        DirectAnswerConnection(Connector connector, EndPoint endPoint) {
            super(endPoint, connector.getExecutor());
            this.connector = connector;
            this.configuration = next.getHttpConfiguration();
            this.speaksH2c = connector.getConnectionFactory("h2c") != null;
            this.buffers = connector.getByteBufferPool();
            this.bufferSize = Math.min(configuration.getRequestHeaderSize(), next.getInputBufferSize());
        }

        @Override
        public void onOpen() {
            super.onOpen();
            serve();
        }

        @Override
        public void fillInterested() {
            getEndPoint().fillInterested(readable);
        }

        @Override
        public void onFillable() {
            arrived.set(true);
            serve();
        }

        @Override
        public void onClose(Throwable cause) {
            super.onClose(cause);
            // The buffer is given back by the thread that serves (serve() lets one at a time), never
            // while another thread may still be filling it.
            closed = true;
            serve();
        }

        @Override
        protected void onFillInterestedFailed(Throwable cause) {
            // An idle keep-alive connection timed out, or reading failed: it ends here.
            LOG.debug("Closing {}: {}", getEndPoint(), cause.toString());
            close();
        }

        /**
         * Reads what arrived, answers the next request in the buffer, or hands the connection to
         * Jetty. Called when bytes arrived and when an answer was written, possibly from inside
         * {@link #serveNext} itself (an answer made and written at once): then the thread already
         * serving goes on, so pipelined requests answered at once loop instead of nesting calls.
         */
        private void serve() {
            if (serveCalls.getAndIncrement() != 0) {
                return;
            }
            do {
                try {
                    serveNext();
                } catch (IOException | RuntimeException e) {
                    LOG.debug("Closing {}: {}", getEndPoint(), e.toString());
                    end();
                }
            } while (serveCalls.decrementAndGet() != 0);
        }

        private void serveNext() throws IOException {
            if (closed) {
                done = true;
                if (buffer != null) {
                    buffers.release(buffer);
                    buffer = null;
                }
                return;
            }
            if (done) {
                return;
            }
            if (arrived.getAndSet(false)) {
                interested = false;
                if (buffer == null) {
                    buffer = buffers.acquire(bufferSize, false);
                }
                BufferUtil.compact(buffer);
                if (getEndPoint().fill(buffer) < 0) {
                    ended = true;
                }
            }
            if (answering) {
                // Read interest stays set while the answer is made: the next request is noticed
                // without waking the selector from the thread that writes this answer.
                readOnIfWanted();
                return;
            }
            int end = buffer == null ? -1 : RequestHead.end(buffer);
            if (end < 0) {
                if (buffer != null && !RequestHead.mayBePlain(buffer)) {
                    upgrade(); // not the plainest HTTP (a bare LF, binary): Jetty's to answer
                } else if (ended) {
                    end();
                } else if (buffer != null && buffer.remaining() >= bufferSize) {
                    upgrade(); // a head longer than Jetty takes: Jetty's 431
                } else {
                    readOnIfWanted();
                }
                return;
            }
            Optional<RequestHead> head = RequestHead.parse(buffer, end)
                    .filter(parsed -> plain(parsed, configuration, speaksH2c));
            if (head.isEmpty()) {
                upgrade();
                return;
            }
            long started = System.nanoTime();
            Executor threads = connector.getExecutor();
            for (DirectRoute route : routes) {
                Optional<CompletableFuture<JsonAnswer>> answer = route.start(head.get(), threads);
                if (answer.isPresent()) {
                    taken.run();
                    buffer.position(end);
                    if (!buffer.hasRemaining()) {
                        buffers.release(buffer);
                        buffer = null;
                    }
                    answering = true;
                    making = true;
                    readOnIfWanted();
                    AnswerWriting.whenMade(answer.get(), threads, made -> send(route, head.get(), made, started));
                    return;
                }
            }
            upgrade();
        }

        /**
         * Sets read interest unless it is set, the client ended, the buffer is full, a whole
         * request waits in it already, or what waits is no plain head (a bare LF, binary): so it
         * is never set when the connection may be handed to Jetty's, whose own read interest would
         * clash with it (Jetty cannot take back a read interest).
         */
        private void readOnIfWanted() {
            boolean room = buffer == null || (buffer.remaining() < bufferSize && RequestHead.end(buffer) < 0
                    && RequestHead.mayBePlain(buffer));
            if (!interested && !ended && room) {
                interested = true;
                fillInterested();
            }
        }

        private void send(DirectRoute route, RequestHead head, JsonAnswer answer, long started) {
            Callback written = Callback.from(Invocable.InvocationType.NON_BLOCKING, () -> {
                answered(route, head, answer, started);
                answering = false;
                serve();
            }, failure -> {
                LOG.debug("{} {} was not answered: {}", head.method(), head.target(), failure.toString());
                answered(route, head, answer, started);
                close();
            });
            try {
                making = false;
                getEndPoint().write(written, response(answer));
            } catch (RuntimeException e) {
                // Never left answering: a connection that cannot be answered is closed.
                LOG.warn("{} {} could not be answered", head.method(), head.target(), e);
                close();
            }
        }

        private void answered(DirectRoute route, RequestHead head, JsonAnswer answer, long started) {
            try {
                route.answered(answer, started);
            } catch (RuntimeException e) {
                LOG.warn("Recording {} {} failed", head.method(), head.target(), e);
            }
        }

        private ByteBuffer response(JsonAnswer answer) {
            StringBuilder head = new StringBuilder(160).append("HTTP/1.1 ").append(answer.status()).append(' ')
                    .append(HttpStatus.getMessage(answer.status())).append("\r\n");
            if (configuration.getSendServerVersion()) {
                head.append("Server: ").append(HttpConfiguration.SERVER_VERSION).append("\r\n");
            }
            if (configuration.getSendXPoweredBy()) {
                head.append("X-Powered-By: ").append(HttpConfiguration.SERVER_VERSION).append("\r\n");
            }
            if (configuration.getSendDateHeader()) {
                head.append("Date: ").append(connector.getServer().getDateField().getValue()).append("\r\n");
            }
            head.append("Content-Type: ").append(MediaTypes.JSON).append("\r\nContent-Length: ")
                    .append(answer.json().length).append("\r\n\r\n");
            ByteBuffer out = ByteBuffer.allocate(head.length() + answer.json().length);
            out.put(head.toString().getBytes(US_ASCII)).put(answer.json()).flip();
            return out;
        }

        /** Jetty's HTTP/1.1 connection takes this one over, with what was read and not answered. */
        private void upgrade() {
            done = true;
            getEndPoint().upgrade(next.newConnection(connector, getEndPoint()));
        }

        /** Closes the connection: the client ended, or it failed. */
        private void end() {
            done = true;
            close();
        }

        @Override
        public ByteBuffer onUpgradeFrom() {
            if (buffer == null) {
                return null;
            }
            ByteBuffer rest = null;
            if (buffer.hasRemaining()) {
                rest = ByteBuffer.allocate(buffer.remaining());
                rest.put(buffer).flip();
            }
            buffers.release(buffer);
            buffer = null;
            return rest;
        }

        @Override
        public boolean onIdleExpired() {
            // A lookup under way has its own timeout; the connection is not idle meanwhile.
            return !making && super.onIdleExpired();
        }
    }
}
