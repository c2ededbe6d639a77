package dev.riffle.gateway.rows;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.kv.LookupsInFlight;
import dev.riffle.gateway.Paths;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.AsyncJsonAnswer;
import dev.riffle.gateway.http.ErrorMapper;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.InlineAnswerConnectionFactory;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.Render;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.Sessions;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Answers the plainest point lookups, {@code GET /v1/databases/{db}/tables/{table}/rows/{key}}
 * in JSON, in Jetty ahead of Javalin; every other request (and every other form of this one: a
 * composite key in the query, an escaped path, Arrow, basic auth) passes on to Javalin's route,
 * which answers the same. Point lookups are the gateway's hottest small request, and Javalin's
 * routing and servlet layers (with its asynchronous completion) cost about as much CPU per lookup
 * as the lookup itself: skipping them brings HTTP lookups from about 0.45x to about 0.55x of the
 * Java client's throughput (HttpBenchmark).
 *
 * <p>Answers are the route's: the same row JSON, the same error envelope and codes (both through
 * {@link LookupResource}), and the same metrics under the route template {@link Paths#ROW}.
 */
public final class RowLookupHandler extends HandlerWrapper {
    private static final String ROUTE = Paths.ROW;

    private final LookupResource lookups;
    private final Sessions sessions;
    private final GatewayMetrics metrics;

    /** The path of a plain point lookup. */
    record RowAddress(TablePath table, String key) {}

    public RowLookupHandler(LookupResource lookups, Sessions sessions, GatewayMetrics metrics) {
        this.lookups = requireNonNull(lookups, "lookups is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        Optional<RowAddress> address = sessions.authenticates() ? Optional.empty() : plainLookup(request);
        if (address.isEmpty()) {
            super.handle(target, base, request, response);
            return;
        }
        long started = System.nanoTime();
        RequestContext context;
        try {
            context = sessions.open(Optional.empty(), ROUTE);
        } catch (RuntimeException e) {
            base.setHandled(true);
            answer(base, failure(e), started, request.startAsync());
            return;
        }
        Optional<TableInfo> known = Optional.empty();
        Optional<LookupsInFlight.Reservation> room = Optional.empty();
        if (InlineAnswerConnectionFactory.onSelector()) {
            known = LookupResource.recentTable(context, address.get().table());
            room = known.isPresent() ? context.session().handles().lookupsInFlight().tryReserve(1) : Optional.empty();
            if (room.isEmpty()) {
                // Its metadata is to be fetched first, or the lookup would wait for room in Fluss's
                // lookup queue: a pool thread does that, and answers it there.
                context.close();
                if (known.isPresent()) {
                    metrics.handedOverForRoom();
                } else {
                    metrics.handedOver();
                }
                InlineAnswerConnectionFactory.handOver(base);
                return;
            }
        }
        base.setHandled(true);
        AsyncContext async = request.startAsync();
        async.setTimeout(0); // the lookup has the request timeout of its own (RequestContext.within)
        LookupResource.PendingRow pending;
        try {
            pending = known.isPresent() ? lookups.lookUp(context, known.get(), address.get().key(), Map.of())
                    : lookups.lookUp(context, address.get().table(), address.get().key(), Map.of());
        } catch (RuntimeException e) {
            context.close();
            answer(base, failure(e), started, async);
            return;
        } finally {
            room.ifPresent(LookupsInFlight.Reservation::close);
        }
        // Answered on whichever thread completes the lookup (mostly the Fluss client's network
        // thread): the row is rendered there and handed to Jetty without blocking, so a client
        // that reads slowly holds up no one else, and no server thread is woken per lookup.
        pending.found().whenComplete((row, failure) -> {
            context.close();
            Answer answer;
            try {
                answer = failure == null
                        ? new Answer(200, LookupResource.rowJson(pending.table(), row), null)
                        : failure(failure);
            } catch (IOException | RuntimeException e) {
                answer = failure(e);
            }
            answer(base, answer, started, async);
        });
    }

    /** A status, its JSON body, and the error code when it is an error. */
    private record Answer(int status, byte[] json, String errorCode) {}

    private static Answer failure(Throwable failure) {
        ApiException error = ErrorMapper.toApiException(failure);
        return new Answer(error.status(), Render.errorJson(error), error.code());
    }

    /** Sends {@code answer} without blocking, then completes the request. */
    private void answer(Request base, Answer answer, long started, AsyncContext async) {
        AsyncJsonAnswer.send(base, async, answer.status(), answer.json(), () -> metrics.record("GET", ROUTE,
                answer.status(), answer.errorCode(), answer.errorCode() == null ? 1 : -1, "read",
                System.nanoTime() - started));
    }

    /**
     * Whether this handler answers {@code request} without blocking, whatever the lookup's outcome
     * (so Jetty may run it on its selector thread: {@code InlineAnswerConnectionFactory}): a plain
     * lookup (the gateway asks this only when it does not authenticate).
     */
    public static boolean answersInline(HttpServletRequest request) {
        return plainLookup(request).isPresent();
    }

    /**
     * The table and key of a request this handler answers: a GET of exactly
     * {@code /v1/databases/{db}/tables/{table}/rows/{key}} with no query, no escapes in the path,
     * and an {@code Accept} that takes JSON (or none).
     */
    static Optional<RowAddress> plainLookup(HttpServletRequest request) {
        if (!"GET".equals(request.getMethod()) || request.getQueryString() != null) {
            return Optional.empty();
        }
        String accept = request.getHeader("Accept");
        if (accept != null && !accept.isBlank() && !accept.equals(MediaTypes.JSON) && !accept.equals("*/*")) {
            return Optional.empty();
        }
        return parse(request.getRequestURI());
    }

    /** {@code /v1/databases/{db}/tables/{table}/rows/{key}} with plain (unescaped, non-empty) names. */
    static Optional<RowAddress> parse(String uri) {
        if (uri == null || !uri.startsWith("/v1/databases/") || uri.indexOf('%') >= 0 || uri.indexOf('+') >= 0) {
            return Optional.empty();
        }
        String[] parts = uri.substring(1).split("/", -1);
        if (parts.length != 7 || !parts[3].equals("tables") || !parts[5].equals("rows")
                || parts[2].isEmpty() || parts[4].isEmpty() || parts[6].isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new RowAddress(TablePath.of(parts[2], parts[4]), parts[6]));
    }
}
