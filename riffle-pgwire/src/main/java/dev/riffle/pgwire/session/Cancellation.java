package dev.riffle.pgwire.session;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether the statement a session runs was cancelled (a CancelRequest, the client leaving), or
 * ran past the scan timeout: checked between batches and every so many rows.
 *
 * <pre>{@code
 * Cancellation cancellation = new Cancellation();
 * cancellation.check(started, limits.scanTimeout());   // throws 57014 once cancelled
 * }</pre>
 */
final class Cancellation {
    private final AtomicBoolean requested = new AtomicBoolean();

    void request() {
        requested.set(true);
    }

    boolean requested() {
        return requested.get();
    }

    /** Throws 57014 once a cancel was requested. */
    void checkRequested() {
        if (requested.get()) {
            throw new PgException(PgException.QUERY_CANCELED, "canceling statement due to user request");
        }
    }

    /** Throws 57014 once a cancel was requested or the statement ran past {@code timeout}. */
    void check(long startedNanos, Duration timeout) {
        checkRequested();
        if (System.nanoTime() - startedNanos > timeout.toNanos()) {
            throw new PgException(PgException.QUERY_CANCELED, "canceling statement due to statement timeout: the"
                    + " server's scan timeout is " + timeout.toSeconds() + " s");
        }
    }
}
