package dev.riffle.gateway.http;

import dev.riffle.server.session.RequestContext;
import io.javalin.http.Context;
import org.apache.fluss.metadata.TablePath;

/**
 * A request's {@link RequestContext}, opened by {@link RequestScope} before the handler runs and
 * kept on the request (not on a thread): whatever thread finishes the request finds it there.
 *
 * <pre>{@code
 * RequestContext request = Requests.of(ctx);
 * TableInfo table = request.session().handles().info(Requests.tablePath(ctx));
 * }</pre>
 */
public final class Requests {
    static final String CONTEXT = Requests.class.getName() + ".context";

    private Requests() {}

    /** The context of a {@code /v1} request. */
    public static RequestContext of(Context ctx) {
        RequestContext request = ctx.attribute(CONTEXT);
        if (request == null) {
            throw new IllegalStateException("No request context for " + ctx.method() + " " + ctx.path());
        }
        return request;
    }

    /**
     * Takes the context over from the request: the caller closes it (when an asynchronous answer
     * completes), not {@link RequestScope}.
     */
    public static RequestContext take(Context ctx) {
        RequestContext request = of(ctx);
        ctx.attribute(CONTEXT, null);
        return request;
    }

    /** The table named by the request's {@code {db}} and {@code {table}} path parameters. */
    public static TablePath tablePath(Context ctx) {
        return TablePath.of(PathNames.decoded(ctx, "db"), PathNames.decoded(ctx, "table"));
    }
}
