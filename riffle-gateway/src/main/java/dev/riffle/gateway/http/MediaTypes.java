package dev.riffle.gateway.http;

import io.javalin.http.Context;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/** The media types the gateway reads and writes, and how a request's headers choose among them. */
public final class MediaTypes {
    public static final String JSON = "application/json";
    public static final String NDJSON = "application/x-ndjson";
    public static final String ARROW_STREAM = "application/vnd.apache.arrow.stream";

    /** What a response is rendered as. */
    public enum Format {
        JSON,
        ARROW
    }

    private MediaTypes() {}

    /** The request's media type without parameters, lower case; empty when there is none. */
    public static String contentType(Context ctx) {
        String header = ctx.header("Content-Type");
        return header == null ? "" : bare(header);
    }

    /**
     * Checks that the request body is one of {@code accepted}; a missing Content-Type counts as
     * JSON when JSON is accepted (so plain {@code curl --data} without a header still fails, being
     * form-encoded).
     */
    public static String requireContentType(Context ctx, Set<String> accepted) {
        String type = contentType(ctx);
        if (type.isEmpty() && accepted.contains(JSON)) {
            return JSON;
        }
        if (!accepted.contains(type)) {
            throw new ApiException(415, "unsupported_media_type", "Content-Type '" + (type.isEmpty() ? "(none)" : type)
                    + "' is not accepted here; send one of " + accepted.stream().sorted().toList());
        }
        return type;
    }

    /**
     * The response format the {@code Accept} header asks for: the first listed media range that
     * the gateway can produce wins; none or {@code *}/{@code *} means JSON.
     */
    public static Format responseFormat(Context ctx) {
        String accept = ctx.header("Accept");
        if (accept == null || accept.isBlank()) {
            return Format.JSON;
        }
        for (String range : accept.split(",")) {
            String type = bare(range);
            if (type.equals(ARROW_STREAM)) {
                return Format.ARROW;
            }
            if (type.equals(JSON) || type.equals("*/*") || type.equals("application/*")) {
                return Format.JSON;
            }
        }
        throw new ApiException(406, "not_acceptable", "Cannot produce any of Accept: " + accept
                + "; the gateway answers " + JSON + " or " + ARROW_STREAM);
    }

    /**
     * Checks that the {@code Accept} header allows JSON, for routes that answer only JSON
     * (metadata, DDL, writes, health); 406 otherwise.
     */
    public static void requireJsonResponse(Context ctx) {
        requireResponse(ctx, JSON);
    }

    /**
     * Checks that the {@code Accept} header allows {@code produced} (itself, its {@code type/*},
     * or {@code *}/{@code *}; no header allows anything); 406 otherwise, before any work.
     */
    public static void requireResponse(Context ctx, String produced) {
        String accept = ctx.header("Accept");
        if (accept == null || accept.isBlank()) {
            return;
        }
        String anySubtype = produced.substring(0, produced.indexOf('/') + 1) + "*";
        for (String range : accept.split(",")) {
            String type = bare(range);
            if (type.equals(produced) || type.equals("*/*") || type.equals(anySubtype)) {
                return;
            }
        }
        throw new ApiException(406, "not_acceptable", "Cannot produce any of Accept: " + accept + "; "
                + ctx.method() + " " + ctx.path() + " answers " + produced);
    }

    /**
     * Whether an {@code Accept} header (or none) takes JSON in its plainest forms: none, blank,
     * {@code application/json} or {@code *}{@code /*}; what the point-lookup fast paths answer
     * themselves (any other form goes to the route, which negotiates).
     *
     * <pre>{@code
     * MediaTypes.plainlyAcceptsJson(Optional.ofNullable(request.getHeader("Accept")));
     * }</pre>
     */
    public static boolean plainlyAcceptsJson(Optional<String> accept) {
        return accept.map(value -> value.isBlank() || value.equals(JSON) || value.equals("*/*")).orElse(true);
    }

    /** A media type header (or one range of Accept) without parameters, lower case. */
    public static String bare(String header) {
        int semicolon = header.indexOf(';');
        return (semicolon < 0 ? header : header.substring(0, semicolon)).trim().toLowerCase(Locale.ROOT);
    }
}
