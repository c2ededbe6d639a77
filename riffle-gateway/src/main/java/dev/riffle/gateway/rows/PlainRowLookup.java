package dev.riffle.gateway.rows;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.kv.LookupsInFlight;
import dev.riffle.gateway.http.DirectRoute;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.JsonAnswer;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.http.RequestHead;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.Sessions;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * The plainest point lookup, {@code GET /v1/databases/{db}/tables/{table}/rows/{key}} in JSON
 * without authentication, answered outside Javalin: as a {@link DirectRoute} of the gateway's
 * connections, and through {@link RowLookupHandler} for requests that reach Jetty's request
 * machinery. The answers are the Javalin route's: the same row JSON and error envelope (both
 * through {@link LookupResource}), and the same metrics under the route template {@link Paths#ROW}.
 * The route table ({@code Routes}) uses it only when the gateway does not authenticate.
 *
 * <pre>{@code
 * PlainRowLookup lookups = new PlainRowLookup(lookupResource, sessions, metrics);
 * Optional<CompletableFuture<JsonAnswer>> answer = lookups.start(head, serverThreads); // empty: not a plain lookup
 * }</pre>
 */
public final class PlainRowLookup implements DirectRoute {
    private static final String ROUTE = Paths.ROW;

    private final LookupResource lookups;
    private final Sessions sessions;
    private final GatewayMetrics metrics;

    /** The table and key of a plain point lookup. */
    record RowAddress(TablePath table, String key) {}

    public PlainRowLookup(LookupResource lookups, Sessions sessions, GatewayMetrics metrics) {
        this.lookups = requireNonNull(lookups, "lookups is null");
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public Optional<CompletableFuture<JsonAnswer>> start(RequestHead head, Executor threads) {
        if (!head.method().equals("GET") || !MediaTypes.plainlyAcceptsJson(head.header("accept"))) {
            return Optional.empty();
        }
        Optional<RowAddress> address = parseTarget(head.target());
        if (address.isEmpty()) {
            return Optional.empty();
        }
        Optional<CompletableFuture<JsonAnswer>> started = start(address.get(), false);
        if (started.isPresent()) {
            return started;
        }
        return Optional.of(CompletableFuture.supplyAsync(() -> start(address.get(), true).orElseThrow(), threads)
                .thenCompose(answer -> answer));
    }

    /** Records one answered lookup under the route. */
    @Override
    public void answered(JsonAnswer answer, long startedNanos) {
        metrics.record("GET", ROUTE, answer.status(), answer.errorCode().orElse(null), answer.rows(), "read",
                System.nanoTime() - startedNanos);
    }

    /**
     * Starts the lookup of {@code address}; its answer (the row, or the error envelope) completes
     * on the thread that completes the lookup. Unless {@code mayWait}, empty when starting it would
     * wait (the table's metadata to fetch, or no room in Fluss's lookup queue), which is counted
     * as a hand-over: the caller starts it again on a thread that may wait.
     */
    Optional<CompletableFuture<JsonAnswer>> start(RowAddress address, boolean mayWait) {
        RequestContext context;
        try {
            context = sessions.open(Optional.empty(), ROUTE);
        } catch (RuntimeException e) {
            return Optional.of(CompletableFuture.completedFuture(JsonAnswer.failure(e)));
        }
        Optional<TableInfo> known = Optional.empty();
        Optional<LookupsInFlight.Reservation> room = Optional.empty();
        if (!mayWait) {
            try {
                known = context.session().handles().readyForLookup(address.table());
                room = known.isPresent() ? context.session().handles().lookupsInFlight().tryReserve(1)
                        : Optional.empty();
            } catch (RuntimeException e) {
                context.close();
                return Optional.of(CompletableFuture.completedFuture(JsonAnswer.failure(e)));
            }
            if (room.isEmpty()) {
                context.close();
                if (known.isPresent()) {
                    metrics.handedOverForRoom();
                } else {
                    metrics.handedOver();
                }
                return Optional.empty();
            }
        }
        LookupResource.PendingRow pending;
        try {
            pending = known.isPresent() ? lookups.lookUp(context, known.get(), address.key(), Map.of())
                    : lookups.lookUp(context, address.table(), address.key(), Map.of());
        } catch (RuntimeException e) {
            context.close();
            return Optional.of(CompletableFuture.completedFuture(JsonAnswer.failure(e)));
        } finally {
            room.ifPresent(LookupsInFlight.Reservation::close);
        }
        // Rendered on whichever thread completes the lookup (mostly the Fluss client's network
        // thread); the connection writes it by AnswerWriting's rule.
        return Optional.of(pending.found().handle((row, failure) -> {
            context.close();
            if (failure != null) {
                return JsonAnswer.failure(failure);
            }
            try {
                return JsonAnswer.ok(pending.rowJson(row), 1);
            } catch (IOException | RuntimeException e) {
                return JsonAnswer.failure(e);
            }
        }));
    }

    /**
     * The table and key of a request target {@code /v1/databases/{db}/tables/{table}/rows/{key}}
     * as sent: no query, every name plain (letters, digits and {@code -._~!$&'()*,=:@}, so no
     * escapes, {@code +} or {@code ;} parameters) and none of them empty, {@code .} or {@code ..}.
     * Every other form goes to the Javalin route, which decodes it.
     */
    static Optional<RowAddress> parseTarget(String target) {
        if (target == null || !target.startsWith("/v1/databases/")) {
            return Optional.empty();
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            boolean plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "/-._~!$&'()*,=:@".indexOf(c) >= 0;
            if (!plain) {
                return Optional.empty();
            }
        }
        // /v1/databases/{db}/tables/{table}/rows/{key}: the segments after "/v1/databases/".
        int db = "/v1/databases/".length();
        int tables = target.indexOf('/', db);
        int table = tables < 0 || !target.startsWith("/tables/", tables) ? -1 : tables + "/tables/".length();
        int rows = table < 0 ? -1 : target.indexOf('/', table);
        int key = rows < 0 || !target.startsWith("/rows/", rows) ? -1 : rows + "/rows/".length();
        if (key < 0 || target.indexOf('/', key) >= 0) {
            return Optional.empty();
        }
        String[] parts = {target.substring(db, tables), target.substring(table, rows), target.substring(key)};
        for (String part : parts) {
            if (part.isEmpty() || part.equals(".") || part.equals("..")) {
                return Optional.empty();
            }
        }
        return Optional.of(new RowAddress(TablePath.of(parts[0], parts[1]), parts[2]));
    }
}
