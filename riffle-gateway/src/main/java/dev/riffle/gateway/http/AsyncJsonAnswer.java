package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import jakarta.servlet.AsyncContext;
import java.nio.ByteBuffer;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A JSON answer to a request a handler ahead of Javalin took asynchronously (the point lookups of
 * {@code RowLookupHandler} and {@code SqlLookupHandler}): handed to Jetty without blocking, so a
 * client that reads slowly holds up no thread; once sent (or given up), {@code done} runs and the
 * request completes. Which thread calls it is {@link AnswerWriting#whenMade}'s rule.
 *
 * <pre>{@code
 * AnswerWriting.whenMade(made, server.getThreadPool(), answer -> AsyncJsonAnswer.send(base, async, answer,
 *         () -> metrics.record(...)));
 * }</pre>
 */
public final class AsyncJsonAnswer {
    private static final Logger LOG = LoggerFactory.getLogger(AsyncJsonAnswer.class);

    private AsyncJsonAnswer() {}

    public static void send(Request base, AsyncContext async, JsonAnswer answer, Runnable done) {
        requireNonNull(answer, "answer is null");
        requireNonNull(done, "done is null");
        byte[] json = answer.json();
        Response response = base.getResponse();
        response.setStatus(answer.status());
        response.setContentType(MediaTypes.JSON);
        response.setContentLength(json.length);
        Runnable complete = () -> {
            try {
                done.run();
            } finally {
                async.complete();
            }
        };
        response.getHttpOutput().sendContent(ByteBuffer.wrap(json), Callback.from(complete, failure -> {
            LOG.debug("{} {} was not answered: {}", base.getMethod(), base.getRequestURI(), failure.toString());
            complete.run();
        }));
    }
}
