package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.Sessions;
import io.javalin.http.Context;
import java.util.Optional;

/**
 * Opens each {@code /v1} request's {@link RequestContext} before its handler, and closes it after
 * (also after a failure): with {@code --auth basic} the request's credentials choose its
 * principal's session (missing or rejected ones are a 401 with a challenge).
 */
public final class RequestScope {
    private final Sessions sessions;

    public RequestScope(Sessions sessions) {
        this.sessions = requireNonNull(sessions, "sessions is null");
    }

    public void before(Context ctx) {
        try {
            Optional<Credentials> credentials = sessions.authenticates()
                    ? Optional.of(BasicAuth.parse(ctx.header("Authorization")))
                    : Optional.empty();
            ctx.attribute(Requests.CONTEXT, sessions.open(credentials, ctx.method() + " " + ctx.path()));
        } catch (ApiException e) {
            if (e.status() == 401) {
                ctx.header("WWW-Authenticate", BasicAuth.CHALLENGE);
            }
            throw e;
        } catch (ServiceException e) {
            if (e.kind() == FailureKind.UNAUTHENTICATED) {
                ctx.header("WWW-Authenticate", BasicAuth.CHALLENGE);
            }
            throw e;
        }
    }

    public void after(Context ctx) {
        RequestContext request = ctx.attribute(Requests.CONTEXT);
        if (request != null) {
            ctx.attribute(Requests.CONTEXT, null);
            request.close();
        }
    }
}
