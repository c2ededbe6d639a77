package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServletRequest;
import java.util.function.Predicate;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpChannelOverHttp;
import org.eclipse.jetty.server.HttpChannelState;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnection;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP/1.1 connections whose requests that never block (the gateway's point lookups, which hand
 * their answer to Jetty from the thread that completes the lookup) are taken on the selector thread
 * that saw them arrive; every other request is handed to the server's thread pool before any
 * handler runs, exactly as Jetty hands over all of them.
 *
 * <p>Why: Jetty treats every read as possibly blocking and hands each readable connection from its
 * selector to a pool thread (through a reserved thread, under a lock). With 32 clients each
 * sending small requests on two cores that hand-over, not the work, bounded the gateway's point
 * lookups (a lock profile showed thousands of parks on the execution strategy's lock;
 * HttpBenchmark's P3). A request that only parses its path, queues a lookup and returns needs no
 * thread of its own.
 *
 * <p>The rule that keeps this safe: only requests {@code inline} accepts run on the selector, and
 * they must not block (no blocking read of a body, no blocking write, no waiting on a future);
 * anything else would stall every connection of that selector, or deadlock one waiting for its own
 * selector. {@code inline} sees the request's line and headers only.
 *
 * <pre>{@code
 * ServerConnector connector = new ServerConnector(server,
 *         new InlineAnswerConnectionFactory(httpConfiguration, RowLookupHandler::answersInline));
 * }</pre>
 */
public final class InlineAnswerConnectionFactory extends HttpConnectionFactory {
    private static final Logger LOG = LoggerFactory.getLogger(InlineAnswerConnectionFactory.class);
    /** Set while a selector thread reads a connection of this factory's. */
    private static final ThreadLocal<Boolean> ON_SELECTOR = ThreadLocal.withInitial(() -> false);

    private final Predicate<HttpServletRequest> inline;

    public InlineAnswerConnectionFactory(HttpConfiguration configuration, Predicate<HttpServletRequest> inline) {
        super(configuration);
        this.inline = requireNonNull(inline, "inline is null");
    }

    /** Whether the current thread is a selector reading one of these connections (the handler's check). */
    public static boolean onSelector() {
        return ON_SELECTOR.get();
    }

    /**
     * Hands a request a handler began on the selector thread, but cannot answer without blocking,
     * to a pool thread: an asynchronous dispatch, sent once the selector has left the request (a
     * dispatch asked for while it is still handling would run on the selector itself). The
     * handler sees the request again there, as a {@code DispatcherType.ASYNC} dispatch, and must
     * recognize it (a request attribute of its own) to pass it on at once.
     */
    public static void handOver(Request base) {
        AsyncContext async = base.startAsync();
        async.setTimeout(0);
        base.setHandled(true);
        HttpChannelState state = base.getHttpChannelState();
        base.getHttpChannel().getConnector().getExecutor().execute(() -> {
            while (state.getState() == HttpChannelState.State.HANDLING) {
                Thread.yield(); // the selector returns from the handler in microseconds
            }
            try {
                async.dispatch();
            } catch (IllegalStateException e) {
                // The request ended meanwhile (its client went away): nothing is left to answer.
                LOG.debug("{} {} was not handed over: {}", base.getMethod(), base.getRequestURI(), e.toString());
            }
        });
    }

    @Override
    public org.eclipse.jetty.io.Connection newConnection(Connector connector, EndPoint endPoint) {
        InlineAnswerConnection connection = new InlineAnswerConnection(getHttpConfiguration(), connector, endPoint,
                isRecordHttpComplianceViolations(), inline);
        connection.setUseInputDirectByteBuffers(isUseInputDirectByteBuffers());
        connection.setUseOutputDirectByteBuffers(isUseOutputDirectByteBuffers());
        return configure(connection, connector, endPoint);
    }

    private static final class InlineAnswerConnection extends HttpConnection {
        /** Read interest that the selector may serve itself (Jetty's own callback says it may block). */
        private final Callback readable = new Callback() {
            @Override
            public void succeeded() {
                ON_SELECTOR.set(true);
                try {
                    onFillable();
                } finally {
                    ON_SELECTOR.set(false);
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

        InlineAnswerConnection(HttpConfiguration configuration, Connector connector, EndPoint endPoint,
                boolean recordComplianceViolations, Predicate<HttpServletRequest> inline) {
            super(configuration, connector, endPoint, recordComplianceViolations);
            ((InlineAnswerChannel) getHttpChannel()).inline = inline;
        }

        @Override
        public void fillInterested() {
            getEndPoint().fillInterested(readable);
        }

        @Override
        protected HttpChannelOverHttp newHttpChannel() {
            // Called by HttpConnection's constructor, before this class's fields exist.
            return new InlineAnswerChannel(this, getConnector(), getHttpConfiguration(), getEndPoint(), this);
        }
    }

    private static final class InlineAnswerChannel extends HttpChannelOverHttp {
        private Predicate<HttpServletRequest> inline;

        InlineAnswerChannel(HttpConnection connection, Connector connector, HttpConfiguration configuration,
                EndPoint endPoint, HttpConnection transport) {
            super(connection, connector, configuration, endPoint, transport);
        }

        @Override
        public boolean handle() {
            if (ON_SELECTOR.get() && !inline.test(getRequest())) {
                // As Jetty would have: the request runs on a pool thread; the connection is
                // suspended until it completes (HttpConnection.onCompleted reads on).
                execute(this);
                return false;
            }
            return super.handle();
        }
    }
}
