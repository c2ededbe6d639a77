package dev.riffle.gateway.rows;

import static java.util.Objects.requireNonNull;

import dev.riffle.gateway.http.AnswerWriting;
import dev.riffle.gateway.http.AsyncJsonAnswer;
import dev.riffle.gateway.http.InlineAnswerConnectionFactory;
import dev.riffle.gateway.http.JsonAnswer;
import dev.riffle.gateway.http.MediaTypes;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Answers the plainest point lookups ({@link PlainRowLookup}) that reach Jetty's request
 * machinery, in Jetty ahead of Javalin: those of connections that Jetty's HTTP/1.1 connection
 * serves (a connection turns into one at its first request that is not a direct route's,
 * {@code DirectAnswerConnectionFactory}). Every other request (and every other form of this one:
 * a composite key in the query, an escaped path, Arrow, basic auth) passes on to Javalin's route,
 * which answers the same. Skipping Javalin's routing and servlet layers brought HTTP lookups from
 * about 0.45x to about 0.55x of the Java client's throughput (HttpBenchmark).
 */
public final class RowLookupHandler extends HandlerWrapper {
    private final PlainRowLookup lookup;

    /**
     * @param lookup the plain lookup route; the route table adds this handler only when the gateway
     *     does not authenticate
     */
    public RowLookupHandler(PlainRowLookup lookup) {
        this.lookup = requireNonNull(lookup, "lookup is null");
    }

    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        Optional<PlainRowLookup.RowAddress> address = plainLookup(request);
        if (address.isEmpty()) {
            super.handle(target, base, request, response);
            return;
        }
        long started = System.nanoTime();
        Optional<CompletableFuture<JsonAnswer>> answer = lookup.start(address.get(),
                !InlineAnswerConnectionFactory.onSelector());
        if (answer.isEmpty()) {
            // Its metadata is to be fetched first, or the lookup would wait for room in Fluss's
            // lookup queue: a pool thread does that, and answers it there.
            InlineAnswerConnectionFactory.handOver(base);
            return;
        }
        base.setHandled(true);
        AsyncContext async = request.startAsync();
        async.setTimeout(0); // the lookup has the request timeout of its own (RequestContext.within)
        // Sent without blocking, so a client that reads slowly holds up no one else.
        AnswerWriting.whenMade(answer.get(), getServer().getThreadPool(),
                sent -> AsyncJsonAnswer.send(base, async, sent, () -> lookup.answered(sent, started)));
    }

    /**
     * Whether this handler answers {@code request} without blocking, whatever the lookup's outcome
     * (so Jetty may run it on its selector thread: {@code InlineAnswerConnectionFactory}): a plain
     * lookup.
     */
    public static boolean answersInline(HttpServletRequest request) {
        return plainLookup(request).isPresent();
    }

    /**
     * The table and key of a request this handler answers: a GET of exactly
     * {@code /v1/databases/{db}/tables/{table}/rows/{key}} with no query, plain names
     * ({@link PlainRowLookup#parseTarget}), and an {@code Accept} that takes JSON (or none).
     */
    static Optional<PlainRowLookup.RowAddress> plainLookup(HttpServletRequest request) {
        if (!"GET".equals(request.getMethod()) || request.getQueryString() != null
                || !MediaTypes.plainlyAcceptsJson(Optional.ofNullable(request.getHeader("Accept")))) {
            return Optional.empty();
        }
        return PlainRowLookup.parseTarget(request.getRequestURI());
    }
}
