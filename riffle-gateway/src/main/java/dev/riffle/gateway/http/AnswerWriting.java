package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which thread writes an answer made asynchronously (the point lookups' JSON: the direct route,
 * {@code RowLookupHandler}, {@code SqlLookupHandler}): one rule for all of them.
 *
 * <pre>{@code
 * AnswerWriting.whenMade(answer, server.getThreadPool(), made -> AsyncJsonAnswer.send(base, async, made, done));
 * }</pre>
 */
public final class AnswerWriting {
    private static final Logger LOG = LoggerFactory.getLogger(AnswerWriting.class);

    private AnswerWriting() {}

    /**
     * Runs {@code write} with {@code made}'s answer once it is made (a failure as its error
     * envelope): at once when it is made already, otherwise on one of {@code writers} rather than
     * on the thread that completes it. That thread is mostly the Fluss client's network thread,
     * which completes a whole batch of lookups one after another; a loopback write costs about as
     * much as the rest of a lookup's request, so writing there made each batch's last answer wait
     * for all the others' writes (HttpBenchmark P3, 2026-12-05: median 0.79x written there, 0.86x
     * on the server's pool, 0.83x on one writer thread). When {@code writers} refuses the task (the
     * server stops, or its queue is full under overload) the answer is written on the completing
     * thread after all: late is better than never, as an unanswered request would wait for its
     * connection to close.
     */
    public static void whenMade(CompletableFuture<JsonAnswer> made, Executor writers, Consumer<JsonAnswer> write) {
        requireNonNull(made, "made is null");
        requireNonNull(writers, "writers is null");
        requireNonNull(write, "write is null");
        BiConsumer<JsonAnswer, Throwable> writeEither = (answer, failure) -> {
            try {
                write.accept(failure == null ? answer : JsonAnswer.failure(failure));
            } catch (RuntimeException e) {
                // The future would keep this to itself: the request would go unanswered without a word.
                LOG.warn("Writing an answer failed", e);
            }
        };
        if (made.isDone()) {
            made.whenComplete(writeEither);
        } else {
            made.whenCompleteAsync(writeEither, task -> {
                try {
                    writers.execute(task);
                } catch (RejectedExecutionException e) {
                    task.run();
                }
            });
        }
    }
}
