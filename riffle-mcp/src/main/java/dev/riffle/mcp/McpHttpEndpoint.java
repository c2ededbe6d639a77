package dev.riffle.mcp;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.principal.BasicAuthorization;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.Sessions;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;

/**
 * MCP's streamable HTTP endpoint, stateless (no MCP session is kept between requests, as the
 * gateway keeps none): each POST is one JSON-RPC message answered as JSON. With authentication
 * each request must carry HTTP Basic credentials that Fluss accepts, else 401 with a challenge
 * before any MCP message is read; its tool calls then run as that caller.
 *
 * <pre>{@code
 * context.addServlet(new ServletHolder(server.httpEndpoint()), McpHttpEndpoint.PATH);
 * }</pre>
 */
public final class McpHttpEndpoint extends HttpServlet {
    /** Where the gateway serves MCP. */
    public static final String PATH = "/mcp";
    /** The request attribute the caller's credentials travel in, to the transport context. */
    static final String CALLER = "riffle.mcp.caller";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final transient Sessions sessions;
    private final transient HttpServlet transport;

    McpHttpEndpoint(Sessions sessions, HttpServlet transport) {
        this.sessions = requireNonNull(sessions, "sessions is null");
        this.transport = requireNonNull(transport, "transport is null");
    }

    @Override
    public void init(ServletConfig config) throws ServletException {
        super.init(config);
        transport.init(config);
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        Optional<Credentials> caller = Optional.empty();
        if (sessions.authenticates()) {
            try {
                Credentials credentials = BasicAuthorization.parse(request.getHeader("Authorization"));
                // Opens (or finds) the caller's session now, so credentials Fluss rejects are a 401
                // here rather than an error inside an MCP answer.
                sessions.acquire(Optional.of(credentials)).close();
                caller = Optional.of(credentials);
            } catch (ServiceException e) {
                if (e.kind() != FailureKind.UNAUTHENTICATED) {
                    throw e;
                }
                response.setStatus(401);
                response.setHeader("WWW-Authenticate", BasicAuthorization.CHALLENGE);
                response.setContentType("application/json");
                response.getOutputStream().write(JSON.writeValueAsBytes(
                        Map.of("error", Map.of("code", e.code(), "message", e.getMessage()))));
                return;
            }
        }
        request.setAttribute(CALLER, caller);
        transport.service(request, response);
    }

    @Override
    public void destroy() {
        transport.destroy();
    }
}
