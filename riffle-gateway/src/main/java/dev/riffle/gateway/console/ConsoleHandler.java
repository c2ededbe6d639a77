package dev.riffle.gateway.console;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import dev.riffle.gateway.http.ApiException;
import dev.riffle.gateway.http.BasicAuth;
import dev.riffle.gateway.http.GatewayMetrics;
import dev.riffle.gateway.http.Json;
import dev.riffle.server.principal.Auth;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.HandlerWrapper;

/**
 * Serves the web console in Jetty ahead of Javalin: {@code GET /} is its page, {@code GET
 * /console/...} its scripts, styles and vendored libraries (from {@link ConsoleFiles}), and
 * {@code GET /console/settings.json} what the page needs to know of this gateway (the console mode
 * and whether the API asks for credentials). Everything else, and any file it does not have,
 * passes on to Javalin, whose routes (the API) and 404 envelope answer as without a console.
 *
 * <p>Served here rather than as Javalin routes because the console is not part of the API: it does
 * not belong in {@code /openapi.json} or the route table, and it reads only what a script could.
 *
 * <p>With {@link Auth#BASIC} the page and its files ask for Basic credentials (401 with the same
 * challenge as {@code /v1}) without checking them against Fluss: they reveal nothing, but asking
 * on the first page load makes the browser prompt once, before the page's first API call, and send
 * the credentials with every later request. The API checks them.
 */
public final class ConsoleHandler extends HandlerWrapper {
    /** The prefix of the console's files. */
    public static final String PREFIX = "/console/";
    static final String SETTINGS = "settings.json";
    static final String INDEX = "index.html";
    /**
     * The page's content security policy: only its own origin's scripts, styles and connections,
     * never framed. No inline script and no eval: the console's code is in files, and Arrow's
     * decoder does not compile code.
     */
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

    private final ConsoleFiles files;
    private final ConsoleMode mode;
    private final Auth auth;
    private final GatewayMetrics metrics;
    private final ConsoleFiles.StaticFile settings;

    public ConsoleHandler(ConsoleFiles files, ConsoleMode mode, Auth auth, GatewayMetrics metrics) {
        this.files = requireNonNull(files, "files is null");
        this.mode = requireNonNull(mode, "mode is null");
        this.auth = requireNonNull(auth, "auth is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        if (mode == ConsoleMode.OFF) {
            throw new IllegalArgumentException("An OFF console has no handler: do not insert one");
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("mode", mode.label());
        body.put("auth", auth.name().toLowerCase(java.util.Locale.ROOT));
        try {
            byte[] json = Json.MAPPER.writeValueAsBytes(body);
            // Revalidated on every load: another gateway behind the same address may run in another mode.
            this.settings = new ConsoleFiles.StaticFile(SETTINGS, "application/json", json, ConsoleFiles.etag(json),
                    ConsoleFiles.REVALIDATE);
        } catch (IOException e) {
            throw new IllegalStateException("Rendering the console settings", e);
        }
    }

    @Override
    public void handle(String target, Request base, HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        String method = request.getMethod();
        Optional<ConsoleFiles.StaticFile> file = "GET".equals(method) || "HEAD".equals(method)
                ? find(request.getRequestURI())
                : Optional.empty();
        if (file.isEmpty()) {
            super.handle(target, base, request, response);
            return;
        }
        base.setHandled(true);
        long started = System.nanoTime();
        String route = file.get().path().equals(INDEX) ? "/" : PREFIX + "*";
        if (auth == Auth.BASIC) {
            try {
                BasicAuth.parse(request.getHeader("Authorization"));
            } catch (ApiException e) {
                byte[] body = ("<!doctype html><title>Riffle console</title><p>" + e.getMessage()
                        + "</p>").getBytes(UTF_8);
                response.setStatus(401);
                response.setHeader("WWW-Authenticate", BasicAuth.CHALLENGE);
                response.setHeader("Cache-Control", "no-store");
                send(response, "text/html; charset=utf-8", body, "HEAD".equals(method));
                metrics.record(method, route, 401, e.code(), -1, null, System.nanoTime() - started);
                return;
            }
        }
        ConsoleFiles.StaticFile answer = file.get();
        response.setHeader("ETag", answer.etag());
        response.setHeader("Cache-Control", answer.cacheControl());
        response.setHeader("X-Content-Type-Options", "nosniff");
        if (answer.path().equals(INDEX)) {
            response.setHeader("Content-Security-Policy", CSP);
            response.setHeader("Referrer-Policy", "no-referrer");
        }
        int status;
        if (matches(request.getHeader("If-None-Match"), answer.etag())) {
            status = 304;
            response.setStatus(304);
        } else {
            status = 200;
            response.setStatus(200);
            send(response, answer.contentType(), answer.body(), "HEAD".equals(method));
        }
        metrics.record(method, route, status, null, -1, null, System.nanoTime() - started);
    }

    /** The file a request path names: the page for {@code /}, a console file, or the settings. */
    private Optional<ConsoleFiles.StaticFile> find(String uri) {
        if (uri == null) {
            return Optional.empty();
        }
        if (uri.equals("/")) {
            return files.find(INDEX);
        }
        if (!uri.startsWith(PREFIX)) {
            return Optional.empty();
        }
        String path = uri.substring(PREFIX.length());
        if (path.equals(SETTINGS)) {
            return Optional.of(settings);
        }
        return path.equals(INDEX) ? Optional.empty() : files.find(path);
    }

    /** Whether an {@code If-None-Match} header names {@code etag} (or is {@code *}). */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.startsWith("W/")) {
                tag = tag.substring(2); // weak comparison, as RFC 9110 asks for If-None-Match
            }
            if (tag.equals("*") || tag.equals(etag)) {
                return true;
            }
        }
        return false;
    }

    private static void send(HttpServletResponse response, String contentType, byte[] body, boolean head)
            throws IOException {
        response.setContentType(contentType);
        response.setContentLength(body.length);
        if (!head) {
            response.getOutputStream().write(body);
        }
    }

    /** The mode this console serves in. */
    public ConsoleMode mode() {
        return mode;
    }
}
