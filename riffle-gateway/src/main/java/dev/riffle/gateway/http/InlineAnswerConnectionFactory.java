package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Predicate;
import org.eclipse.jetty.http.BadMessageException;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpChannelOverHttp;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnection;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * HTTP/1.1 connections whose requests that never block (the gateway's point lookups, which hand
 * their answer to Jetty from the thread that completes the lookup) are taken on the selector thread
 * that saw them arrive; every other request is handed to the server's thread pool before any
 * handler runs, as Jetty hands over all of them.
 *
 * <p>Why: Jetty treats every read as possibly blocking and hands each readable connection from its
 * selector to a pool thread (through a reserved thread, under a lock). With 32 clients each
 * sending small requests on two cores that hand-over, not the work, bounded the gateway's point
 * lookups (a lock profile showed thousands of parks on the execution strategy's lock;
 * HttpBenchmark's P3). A request that only parses its path, queues a lookup and returns needs no
 * thread of its own.
 *
 * <p>The rule that keeps this safe: only requests {@code inline} accepts run on the selector, and
 * their handlers must not wait (no blocking read of a body, no blocking write, no call to the
 * cluster); a handler that finds it would wait calls {@link #handOver}. Anything else would stall
 * every connection of that selector, or deadlock one waiting for its own selector. {@code inline}
 * sees the request's line and headers only.
 *
 * <pre>{@code
 * ServerConnector connector = new ServerConnector(server, new InlineAnswerConnectionFactory(
 *         httpConfiguration, RowLookupHandler::answersInline, metrics::selectorRequest));
 * }</pre>
 */
public final class InlineAnswerConnectionFactory extends HttpConnectionFactory {
    /** Set while a selector thread reads a connection of this factory's. */
    private static final ThreadLocal<Boolean> ON_SELECTOR = ThreadLocal.withInitial(() -> false);
    /**
     * How long Jetty may wait, on the selector, to write an answer to a malformed request (it
     * writes that one blocking): a client that does not read holds the selector no longer.
     */
    private static final long BAD_MESSAGE_WRITE_MILLIS = 200;

    private final Predicate<HttpServletRequest> inline;
    private final Runnable taken;

    /**
     * @param inline the requests whose handlers answer them without waiting
     * @param taken called for each request taken on the selector (a metric)
     */
    public InlineAnswerConnectionFactory(HttpConfiguration configuration, Predicate<HttpServletRequest> inline,
            Runnable taken) {
        super(configuration);
        this.inline = requireNonNull(inline, "inline is null");
        this.taken = requireNonNull(taken, "taken is null");
    }

    /**
     * Whether the current thread is a selector reading one of these connections: a handler's
     * check before anything that could wait.
     *
     * <pre>{@code
     * if (InlineAnswerConnectionFactory.onSelector() && metadataIsOld) {
     *     InlineAnswerConnectionFactory.handOver(base);
     *     return;
     * }
     * }</pre>
     */
    public static boolean onSelector() {
        return ON_SELECTOR.get();
    }

    /**
     * Hands a request a handler began on the selector thread, but cannot answer without waiting,
     * to a pool thread: the request goes asynchronous here, and once the selector has left it, it
     * is dispatched again (a {@code DispatcherType.ASYNC} dispatch, on a pool thread), where the
     * handler sees it again and must recognize it (a request attribute of its own, set before).
     * The handler returns at once after this call.
     *
     * @throws IllegalStateException when not called on the selector thread, for a request of one
     *     of these connections
     */
    public static void handOver(Request base) {
        if (!onSelector() || !(base.getHttpChannel() instanceof InlineAnswerChannel channel)) {
            throw new IllegalStateException("Only a request taken on the selector thread is handed over");
        }
        AsyncContext async = base.startAsync();
        async.setTimeout(0);
        base.setHandled(true);
        channel.handOver = async;
    }

    @Override
    public org.eclipse.jetty.io.Connection newConnection(Connector connector, EndPoint endPoint) {
        InlineAnswerConnection connection = new InlineAnswerConnection(this, getHttpConfiguration(), connector,
                endPoint, isRecordHttpComplianceViolations());
        connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
        connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
        return configure(connection, connector, endPoint);
    }

    private static final class InlineAnswerConnection extends HttpConnection {
        private final InlineAnswerConnectionFactory factory;
        /** Read interest that the selector may serve itself (Jetty's own callback says it may block). */
        private final Callback readable = new Callback() {
            @Override
            public void succeeded() {
                boolean was = ON_SELECTOR.get();
                ON_SELECTOR.set(true);
                try {
                    onFillable();
                } finally {
                    ON_SELECTOR.set(was);
                }
            }

            @Override
            public void failed(Throwable failure) {
                onFillInterestedFailed(failure);
            }

            @Override
            public InvocationType getInvocationType() {
                return InvocationType.NON_BLOCKING;
            }
        };

        InlineAnswerConnection(InlineAnswerConnectionFactory factory, HttpConfiguration configuration,
                Connector connector, EndPoint endPoint, boolean recordComplianceViolations) {
            super(configuration, connector, endPoint, recordComplianceViolations);
            this.factory = factory;
        }

        @Override
        public void fillInterested() {
            getEndPoint().fillInterested(readable);
        }

        @Override
        protected HttpChannelOverHttp newHttpChannel() {
            // Called by HttpConnection's constructor, before this class's fields exist.
            return new InlineAnswerChannel(this, getConnector(), getHttpConfiguration(), getEndPoint());
        }
    }

    private static final class InlineAnswerChannel extends HttpChannelOverHttp {
        /** Its connection (still being made when this channel is: its factory is read at handle()). */
        private final InlineAnswerConnection connection;
        /** Set by {@link #handOver} while this channel's request is handled on the selector. */
        private AsyncContext handOver;

        InlineAnswerChannel(InlineAnswerConnection connection, Connector connector, HttpConfiguration configuration,
                EndPoint endPoint) {
            super(connection, connector, configuration, endPoint, connection);
            this.connection = connection;
        }

        @Override
        public boolean handle() {
            if (!ON_SELECTOR.get()) {
                return super.handle();
            }
            InlineAnswerConnectionFactory factory = connection.factory;
            if (!factory.inline.test(getRequest())) {
                // As Jetty would have: the request runs on a pool thread; the connection is
                // suspended until it completes (HttpConnection.onCompleted reads on).
                execute(this);
                return false;
            }
            factory.taken.run();
            boolean handled = super.handle();
            AsyncContext pending = handOver;
            handOver = null;
            if (pending != null) {
                // The selector has left the request (it waits now): Jetty runs the dispatch on a
                // pool thread. Asked for while the selector still handled it, it would run here.
                pending.dispatch();
            }
            return handled;
        }

        @Override
        public void onBadMessage(BadMessageException failure) {
            if (!ON_SELECTOR.get()) {
                super.onBadMessage(failure);
                return;
            }
            // Jetty writes the 400 blocking; the idle timeout is what fails a write that cannot
            // proceed, so shorten it meanwhile (the connection closes after this answer anyway).
            EndPoint endPoint = getEndPoint();
            long idleTimeout = endPoint.getIdleTimeout();
            endPoint.setIdleTimeout(BAD_MESSAGE_WRITE_MILLIS);
            try {
                super.onBadMessage(failure);
            } finally {
                endPoint.setIdleTimeout(idleTimeout);
            }
        }
    }
}
