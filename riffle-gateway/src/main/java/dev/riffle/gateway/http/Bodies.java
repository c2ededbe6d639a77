package dev.riffle.gateway.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Request bodies, read as streams and cut off at the gateway's size limit: a body over the limit
 * fails with 413 whether it announces its length or not.
 */
public final class Bodies {
    private Bodies() {}

    /** The body as a stream that fails with 413 past {@code limit} bytes. */
    public static InputStream open(Context ctx, long limit) {
        long declared = ctx.req().getContentLengthLong();
        if (declared > limit) {
            throw tooLarge(limit, declared + " bytes");
        }
        try {
            return new LimitedInputStream(ctx.req().getInputStream(), limit);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the request body", e);
        }
    }

    /** The body as one JSON document; malformed JSON is a 400 naming where it broke. */
    public static JsonNode json(Context ctx, long limit) {
        try (InputStream in = open(ctx, limit)) {
            return json(in);
        } catch (IOException e) {
            throw ioFailure(e);
        }
    }

    /** A body already opened ({@link #open}) as one JSON document, as {@link #json(Context, long)} reads it. */
    public static JsonNode json(InputStream in) {
        try {
            JsonNode node = Json.MAPPER.readTree(in);
            if (node == null || node.isMissingNode()) {
                throw ApiException.badRequest("malformed_json", "The request body is empty; a JSON document is required");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw ioFailure(e);
        }
    }

    /** A JSON body that is optional: an empty body gives an empty object. */
    public static JsonNode jsonOrEmpty(Context ctx, long limit) {
        if (ctx.req().getContentLengthLong() == 0) {
            return Json.MAPPER.createObjectNode();
        }
        try (InputStream in = open(ctx, limit)) {
            JsonNode node = Json.MAPPER.readTree(in);
            return node == null || node.isMissingNode() ? Json.MAPPER.createObjectNode() : node;
        } catch (JsonProcessingException e) {
            throw malformed(e);
        } catch (IOException e) {
            throw ioFailure(e);
        }
    }

    public static ApiException malformed(JsonProcessingException e) {
        String where = e.getLocation() == null ? ""
                : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
        return new ApiException(400, "malformed_json", "The body is not valid JSON" + where + ": " + e.getOriginalMessage(),
                java.util.Map.of(), e);
    }

    /** An I/O failure while reading a body: the size limit's own 413, or the client going away. */
    public static RuntimeException ioFailure(IOException e) {
        Throwable cause = e;
        while (cause != null) {
            if (cause instanceof BodyTooLargeException tooLarge) {
                return tooLarge.apiException;
            }
            cause = cause.getCause();
        }
        return ApiException.badRequest("unreadable_body", "Cannot read the request body: " + e.getMessage());
    }

    static ApiException tooLarge(long limit, String size) {
        return new ApiException(413, "payload_too_large", "The request body (" + size + ") exceeds the gateway's limit of "
                + limit + " bytes; send smaller batches");
    }

    /** Thrown from inside a stream read, so that parsers wrapping the stream pass it on. */
    static final class BodyTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;
        final transient ApiException apiException;

        BodyTooLargeException(ApiException apiException) {
            super(apiException.getMessage());
            this.apiException = apiException;
        }
    }

    private static final class LimitedInputStream extends FilterInputStream {
        private final long limit;
        private long read;

        LimitedInputStream(InputStream in, long limit) {
            super(in);
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count(skipped);
            return skipped;
        }

        private void count(long n) throws BodyTooLargeException {
            read += n;
            if (read > limit) {
                throw new BodyTooLargeException(tooLarge(limit, "more than " + limit + " bytes"));
            }
        }
    }
}
