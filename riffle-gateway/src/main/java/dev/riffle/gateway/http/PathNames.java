package dev.riffle.gateway.http;

import io.javalin.http.Context;

/**
 * Names taken from the path ({@code {db}}, {@code {table}}, {@code {partition}}): a name that
 * decodes to nothing, to {@code .} or {@code ..}, or holds a slash or a control character names
 * nothing a client may address, and is a 400 before anything reaches Fluss.
 */
public final class PathNames {
    private PathNames() {}

    /** The decoded path parameter {@code name}, checked. */
    public static String decoded(Context ctx, String name) {
        return check(name, ctx.pathParam(name));
    }

    static String check(String parameter, String value) {
        if (value == null || value.isEmpty() || value.equals(".") || value.equals("..") || value.indexOf('/') >= 0
                || value.indexOf('\\') >= 0 || value.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.badRequest("invalid_name", "'" + (value == null ? "" : value.replaceAll("\\p{Cntrl}", "?"))
                    + "' is not a valid " + parameter + " name: names are non-empty, are not . or .., and hold no"
                    + " slash or control character");
        }
        return value;
    }
}
