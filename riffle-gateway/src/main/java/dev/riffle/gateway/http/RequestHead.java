package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The request line and headers of an HTTP/1.1 request, as {@link DirectAnswerConnectionFactory}
 * reads them for its {@link DirectRoute}s: only the plainest form is read (a CRLF after every
 * line, {@code name: value} headers, each name once, printable ASCII); anything else is no
 * {@code RequestHead}, and the request goes to Jetty's parser, which answers it as it always has
 * (a 400 for what is malformed).
 *
 * <pre>{@code
 * Optional<RequestHead> head = RequestHead.parse(buffer, end); // end: the index after the blank line
 * head.flatMap(h -> h.header("accept"));
 * }</pre>
 *
 * @param method the method, as sent ({@code GET})
 * @param target the request target, as sent (path and query, not decoded)
 * @param version the protocol, as sent ({@code HTTP/1.1})
 * @param headers each header's value by its name in lower case
 */
public record RequestHead(String method, String target, String version, Map<String, String> headers) {
    public RequestHead {
        requireNonNull(method, "method is null");
        requireNonNull(target, "target is null");
        requireNonNull(version, "version is null");
        headers = Map.copyOf(headers);
    }

    /** The value of the header {@code lowerCaseName}. */
    public Optional<String> header(String lowerCaseName) {
        return Optional.ofNullable(headers.get(lowerCaseName));
    }

    /**
     * Where the head starting at {@code buffer}'s position ends (the index after its blank line),
     * or -1 when it has not all arrived. Reads no byte past {@code buffer}'s limit; moves nothing.
     */
    public static int end(ByteBuffer buffer) {
        for (int i = buffer.position() + 3; i < buffer.limit(); i++) {
            if (buffer.get(i) == '\n' && buffer.get(i - 1) == '\r' && buffer.get(i - 2) == '\n'
                    && buffer.get(i - 3) == '\r') {
                return i + 1;
            }
        }
        return -1;
    }

    /**
     * Whether the bytes between {@code buffer}'s position and limit may still become a head in the
     * plainest form: printable ASCII and tabs, every CR followed by an LF and every LF preceded by
     * a CR. A bare LF or a byte that is not text (a TLS hello, say) is no such head, whatever
     * follows: Jetty's parser is to answer it at once, not after more bytes that may never come.
     */
    public static boolean mayBePlain(ByteBuffer buffer) {
        for (int i = buffer.position(); i < buffer.limit(); i++) {
            byte b = buffer.get(i);
            if (b == '\r') {
                if (i + 1 < buffer.limit() && buffer.get(i + 1) != '\n') {
                    return false;
                }
            } else if (b == '\n') {
                if (i == buffer.position() || buffer.get(i - 1) != '\r') {
                    return false;
                }
            } else if ((b < 0x20 && b != '\t') || b >= 0x7f) {
                return false;
            }
        }
        return true;
    }

    /** The head between {@code buffer}'s position and {@code end}, when it is in the plainest form. */
    public static Optional<RequestHead> parse(ByteBuffer buffer, int end) {
        int at = buffer.position();
        int lineEnd = lineEnd(buffer, at, end);
        if (lineEnd < 0) {
            return Optional.empty();
        }
        int firstSpace = indexOf(buffer, at, lineEnd, ' ');
        int secondSpace = firstSpace < 0 ? -1 : indexOf(buffer, firstSpace + 1, lineEnd, ' ');
        if (firstSpace <= at || secondSpace <= firstSpace + 1 || secondSpace + 1 >= lineEnd
                || indexOf(buffer, secondSpace + 1, lineEnd, ' ') >= 0) {
            return Optional.empty();
        }
        if (!token(buffer, at, firstSpace)) {
            return Optional.empty();
        }
        String method = text(buffer, at, firstSpace);
        String target = text(buffer, firstSpace + 1, secondSpace);
        String version = text(buffer, secondSpace + 1, lineEnd);
        Map<String, String> headers = new HashMap<>();
        for (at = lineEnd + 2; at < end - 2; at = lineEnd + 2) {
            lineEnd = lineEnd(buffer, at, end);
            int colon = lineEnd < 0 ? -1 : indexOf(buffer, at, lineEnd, ':');
            // A name that is no token (a continued line, space before the colon): Jetty's to judge.
            if (colon <= at || !token(buffer, at, colon)) {
                return Optional.empty();
            }
            String name = text(buffer, at, colon).toLowerCase(Locale.ROOT);
            String value = text(buffer, colon + 1, lineEnd).strip();
            if (headers.put(name, value) != null) {
                return Optional.empty();
            }
        }
        return Optional.of(new RequestHead(method, target, version, headers));
    }

    /** The index of the CR of the CRLF ending the line at {@code from}; -1 for a bare CR or LF, or a byte not printable ASCII. */
    private static int lineEnd(ByteBuffer buffer, int from, int end) {
        for (int i = from; i + 1 < end; i++) {
            byte b = buffer.get(i);
            if (b == '\r') {
                return buffer.get(i + 1) == '\n' ? i : -1;
            }
            if ((b < 0x20 && b != '\t') || b >= 0x7f) {
                return -1;
            }
        }
        return -1;
    }

    /** Whether the bytes are an HTTP token (RFC 9110's tchar: what a method or a header name is made of). */
    private static boolean token(ByteBuffer buffer, int from, int to) {
        for (int i = from; i < to; i++) {
            byte b = buffer.get(i);
            boolean tchar = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(b) >= 0;
            if (!tchar) {
                return false;
            }
        }
        return to > from;
    }

    private static int indexOf(ByteBuffer buffer, int from, int to, char c) {
        for (int i = from; i < to; i++) {
            if (buffer.get(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** ASCII (checked by {@link #lineEnd}), so one char per byte. */
    private static String text(ByteBuffer buffer, int from, int to) {
        char[] chars = new char[to - from];
        for (int i = from; i < to; i++) {
            chars[i - from] = (char) buffer.get(i);
        }
        return new String(chars);
    }
}
