package dev.riffle.gateway.http;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A route that {@link DirectAnswerConnectionFactory}'s connections answer themselves, from the
 * request's line and headers, without Jetty's request machinery: a request without a body whose
 * whole answer is one JSON document. The route table ({@code Routes}) names which routes are
 * direct; each is also registered with Javalin, which answers every form of it that {@link #start}
 * does not take.
 *
 * <pre>{@code
 * Optional<CompletableFuture<JsonAnswer>> answer = route.start(head, threads);
 * }</pre>
 */
public interface DirectRoute {
    /**
     * Starts answering {@code head}, or empty when this route does not take it as it is (Jetty's
     * HTTP/1.1 connection then takes it, and the rest of the connection). Runs on a selector
     * thread or on the server thread that wrote the connection's previous answer, so it must not
     * wait: work that may wait (asking the cluster for metadata, waiting for room in a queue) runs
     * on {@code threads}. A failure is an answer too (the error envelope), never an exception.
     * The answer may complete on any thread; the connection writes it from one of {@code threads}.
     */
    Optional<CompletableFuture<JsonAnswer>> start(RequestHead head, Executor threads);

    /**
     * Called once {@code answer}, of a request this route started at {@code startedNanos}
     * ({@link System#nanoTime}), is written, or its connection failed: the route's metrics.
     */
    void answered(JsonAnswer answer, long startedNanos);
}
