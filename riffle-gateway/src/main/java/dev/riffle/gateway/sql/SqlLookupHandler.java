package dev.riffle.gateway.sql;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.riffle.core.values.JsonValueSink;
import dev.riffle.gateway.http.AnswerWriting;
import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.AsyncJsonAnswer;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.InlineAnswerConnectionFactory;
import dev.riffle.gateway.http.Json;
import dev.riffle.gateway.http.JsonAnswer;
import dev.riffle.gateway.http.MediaTypes;
import dev.riffle.gateway.http.Paths;
import dev.riffle.gateway.http.Render;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.Sessions;
import dev.riffle.server.sql.SqlStatements;
import dev.riffle.sql.statement.LookedUpRows;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.row.InternalRow;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Answers repeated SQL point queries, {@code POST /v1/sql} with a statement this server already
 * ran as a key lookup ({@link SqlStatements#lookUp}), in Jetty ahead of Javalin: no SQL connection,
 * no prepared statement, and no thread waiting while the key is looked up; the answer is rendered
 * on the thread that completes the lookup and handed to Jetty without blocking. Every other
 * request, and every other form of this one (Arrow, text bodies, basic auth, a body over
 * {@value #MAX_BODY_BYTES} bytes or of unknown length, a statement not known as a key lookup,
 * parameters it would not take as they are), passes on to Javalin's route, with its body.
 *
 * <p>Answers are the route's: the same JSON ({@link SqlResource#writeJson}), the same error
 * envelope ({@link SqlResource#sqlFailure}), and the same metrics under {@link Paths#SQL}.
 * Measured with {@code HttpBenchmark} (a repeated {@code WHERE id = ?}).
 */
public final class SqlLookupHandler extends HandlerWrapper {
    /** Point queries are short; a longer body is left to the route, which streams it. */
    static final int MAX_BODY_BYTES = 16 * 1024;

    /** The request attribute of a request handed over from a selector thread ({@link HandedOver}). */
    private static final String HANDED_OVER = SqlLookupHandler.class.getName() + ".handedOver";

    /**
     * What a selector thread handed over: the body it read, if it read it, and whether the request
     * goes to the route at once (or is tried here again, on the pool thread).
     */
    private record HandedOver(Optional<byte[]> body, boolean toRoute) {}

    private final Sessions sessions;
    private final GatewayMetrics metrics;

    public SqlLookupHandler(Sessions sessions, GatewayMetrics metrics) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
    }

    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        // A request a selector thread handed over (InlineAnswerConnectionFactory), now on a pool thread.
        Optional<HandedOver> handedOver = request.getAttribute(HANDED_OVER) instanceof HandedOver over
                ? Optional.of(over) : Optional.empty();
        request.removeAttribute(HANDED_OVER);
        if (handedOver.isPresent() && handedOver.get().toRoute()) {
            passOn(target, base, request, response, handedOver.get().body());
            return;
        }
        Optional<byte[]> read = handedOver.flatMap(HandedOver::body);
        if (read.isEmpty() && !candidate(request)) {
            super.handle(target, base, request, response);
            return;
        }
        long started = System.nanoTime();
        RequestContext context;
        try {
            context = sessions.open(Optional.empty(), Paths.SQL);
        } catch (RuntimeException e) {
            passOn(target, base, request, response, read); // the route answers why, as ever
            return;
        }
        boolean look;
        try {
            // Nothing to look for yet, or a body the route refuses as too large (its limit may be lower).
            look = !context.session().sql().keyLookups().isEmpty()
                    && request.getContentLengthLong() <= context.limits().maxBodyBytes();
            // On a selector thread the body must have arrived whole: a read must not wait there.
            look = look && (read.isPresent() || !InlineAnswerConnectionFactory.onSelector()
                    || request.getInputStream().available() >= request.getContentLengthLong());
        } catch (IOException | RuntimeException e) {
            look = false; // the route answers it (or finds the connection gone)
        }
        if (!look) {
            context.close();
            passOn(target, base, request, response, read);
            return;
        }
        byte[] body;
        try {
            body = read.isPresent() ? read.get()
                    : request.getInputStream().readNBytes((int) request.getContentLengthLong());
        } catch (IOException e) {
            // The connection failed under the read: nothing can be answered on it. (Left to Jetty,
            // its error page would be written blocking, on the selector thread when this runs there.)
            context.close();
            base.getHttpChannel().abort(e);
            base.setHandled(true);
            return;
        }
        SqlResource.SqlRequest sql;
        try {
            sql = SqlResource.SqlRequest.parse(Json.MAPPER.readTree(body));
        } catch (IOException | RuntimeException e) {
            // Malformed: the route answers it, as it answers any.
            context.close();
            passOn(target, base, request, response, Optional.of(body));
            return;
        }
        boolean onSelector = InlineAnswerConnectionFactory.onSelector();
        Optional<CompletableFuture<LookedUpRows>> answer;
        try {
            answer = onSelector ? SqlStatements.lookUpWithoutWaiting(context, sql.sql(), sql.parameters())
                    : SqlStatements.lookUp(context, sql.sql(), sql.parameters());
        } catch (RuntimeException e) {
            // Refused by the SQL layer: the route answers it, as it answers any.
            answer = Optional.empty();
        }
        if (answer.isEmpty() && onSelector) {
            // Not known as a key lookup, or its table's metadata is to be fetched first: a pool
            // thread tries it again (and answers it there, or passes it on to the route).
            context.close();
            handOver(base, request, new HandedOver(Optional.of(body), false));
            return;
        }
        if (answer.isEmpty()) {
            context.close();
            passOn(target, base, request, response, Optional.of(body));
            return;
        }
        base.setHandled(true);
        metrics.sqlKeyLookup();
        AsyncContext async = request.startAsync();
        async.setTimeout(0); // the lookup has the SQL layer's timeout of its own
        String statement = sql.sql();
        // Rendered on the thread that completes the lookup, written by the rule every lookup's answer follows.
        CompletableFuture<JsonAnswer> rendered = answer.get().handle((rows, failure) -> {
            try {
                return failure == null ? render(rows) : failed(failure, statement);
            } catch (IOException | RuntimeException e) {
                return failed(e, statement);
            } finally {
                context.close();
            }
        });
        AnswerWriting.whenMade(rendered, getServer().getThreadPool(), made -> send(base, made, started, async));
    }

    /**
     * Whether {@code request} may be taken on a selector thread ({@code InlineAnswerConnectionFactory}):
     * a {@link #candidate} without {@code Expect: 100-continue} (its body comes only once asked for).
     * What this handler does not answer itself it then hands to a pool thread ({@link #passOn}).
     */
    public static boolean answersInline(HttpServletRequest request) {
        return candidate(request) && request.getHeader("Expect") == null;
    }

    /**
     * Passes {@code request} (with its body, when read already) on to the route: here, or, on a
     * selector thread, through an asynchronous dispatch to a pool thread, where this handler sees
     * it again and passes it on at once.
     */
    private void passOn(String target, Request base, HttpServletRequest request, HttpServletResponse response,
            Optional<byte[]> body) throws IOException, ServletException {
        if (!InlineAnswerConnectionFactory.onSelector()) {
            super.handle(target, base, body.isPresent() ? withBody(request, body.get()) : request, response);
            return;
        }
        handOver(base, request, new HandedOver(body, true));
    }

    private void handOver(Request base, HttpServletRequest request, HandedOver what) {
        request.setAttribute(HANDED_OVER, what);
        metrics.handedOver();
        InlineAnswerConnectionFactory.handOver(base);
    }

    /** A JSON POST to exactly {@link Paths#SQL} with a short body of known length, answered as JSON, no auth. */
    static boolean candidate(HttpServletRequest request) {
        if (!"POST".equals(request.getMethod()) || !Paths.SQL.equals(request.getRequestURI())
                || request.getQueryString() != null) {
            return false;
        }
        long length = request.getContentLengthLong();
        if (length <= 0 || length > MAX_BODY_BYTES) {
            return false;
        }
        String type = request.getContentType();
        if (type == null || !MediaTypes.bare(type).equals(MediaTypes.JSON)) {
            return false;
        }
        return MediaTypes.plainlyAcceptsJson(Optional.ofNullable(request.getHeader("Accept")));
    }

    private static JsonAnswer render(LookedUpRows found) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        long count;
        try (JsonGenerator json = Json.MAPPER.createGenerator(out)) {
            JsonValueSink sink = new JsonValueSink(json);
            LookedUpRows.Columns columns = found.columns();
            List<String> names = columns.schema().getFields().stream().map(Field::getName).toList();
            count = SqlResource.writeJson(json, columns.schema(), () -> {
                for (InternalRow row : found.rows()) {
                    Render.writeRow(json, row, names, columns.fields()::get, columns.readers(), sink);
                }
                return found.rows().size();
            });
        }
        return JsonAnswer.ok(out.toByteArray(), count);
    }

    private static JsonAnswer failed(Throwable failure, String sql) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        ApiException error = SqlResource.sqlFailure(cause instanceof Exception e ? e : new RuntimeException(cause), sql);
        return JsonAnswer.error(error);
    }

    /** Sends {@code answer} without blocking, then completes the request. */
    private void send(Request base, JsonAnswer answer, long started, AsyncContext async) {
        AsyncJsonAnswer.send(base, async, answer, () -> metrics.record("POST", Paths.SQL,
                answer.status(), answer.errorCode().orElse(null), answer.rows(), "read", System.nanoTime() - started));
    }

    /** {@code request} with its body, already read, to read again. */
    private static HttpServletRequest withBody(HttpServletRequest request, byte[] body) {
        return new HttpServletRequestWrapper(request) {
            private final ByteArrayInputStream bytes = new ByteArrayInputStream(body);

            @Override
            public ServletInputStream getInputStream() {
                return new ServletInputStream() {
                    @Override
                    public int read() {
                        return bytes.read();
                    }

                    @Override
                    public int read(byte[] buffer, int offset, int length) {
                        return bytes.read(buffer, offset, length);
                    }

                    @Override
                    public boolean isFinished() {
                        return bytes.available() == 0;
                    }

                    @Override
                    public boolean isReady() {
                        return true;
                    }

                    @Override
                    public void setReadListener(ReadListener listener) {
                        throw new IllegalStateException("The body was read already; read it blocking");
                    }
                };
            }

            @Override
            public BufferedReader getReader() {
                return new BufferedReader(new InputStreamReader(bytes, StandardCharsets.UTF_8));
            }
        };
    }
}
