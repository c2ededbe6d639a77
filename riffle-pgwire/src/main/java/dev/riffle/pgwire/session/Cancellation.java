package dev.riffle.pgwire.session;

import dev.riffle.pgwire.error.PgException;
import dev.riffle.server.session.RequestContext;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cancellation of what a session runs between two ReadyForQuery messages: a CancelRequest, the
 * client leaving, or another backend's {@code pg_cancel_backend}. Each statement's request is
 * watched ({@link #watch}), so a cancel stops it wherever it is: planning, computing inside a join
 * or an aggregate, or sending rows (its deadline is the request's own, see
 * {@link RequestContext#limitTime}).
 *
 * <pre>{@code
 * Cancellation cancellation = new Cancellation();
 * cancellation.watch(request);
 * cancellation.request(Cancellation.USER_REQUEST);   // the statement stops with 57014
 * }</pre>
 */
final class Cancellation {
    /** PostgreSQL's message for a cancel the client asked for. */
    static final String USER_REQUEST = "canceling statement due to user request";

    private final Set<RequestContext> watched = ConcurrentHashMap.newKeySet();
    private volatile Optional<String> requested = Optional.empty();

    /** Cancels what runs now and anything started before the next ReadyForQuery, saying {@code message}. */
    void request(String message) {
        requested = Optional.of(message);
        for (RequestContext request : watched) {
            request.cancel(message);
        }
    }

    /** Stops {@code request}'s statements when this cancellation is requested (at once if it was). */
    void watch(RequestContext request) {
        watched.add(request);
        requested.ifPresent(request::cancel);
    }

    boolean requested() {
        return requested.isPresent();
    }

    /** Throws 57014 once a cancel was requested. */
    void checkRequested() {
        if (requested.isPresent()) {
            throw new PgException(PgException.QUERY_CANCELED, requested.get());
        }
    }
}
