package dev.riffle.gateway.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.javalin.http.Context;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * Writes responses: JSON documents, rows as JSON or as an Arrow IPC stream, and the error
 * envelope {@code {"error": {"code": .., "message": .., ...details}}}.
 */
public final class Render {
    private Render() {}

    public static void json(Context ctx, int status, Object body) {
        ctx.status(status).json(body);
    }

    /** A JSON body written as it is produced (rows stream out instead of being held). */
    public interface JsonBody {
        void write(JsonGenerator json) throws IOException;
    }

    /**
     * Streams a JSON body. The generator is closed (flushing its tail) only when the body is
     * complete: a body that fails half-way must never reach the client as well-formed JSON.
     */
    public static void streamJson(Context ctx, JsonBody body) throws IOException {
        ctx.status(200).contentType(MediaTypes.JSON);
        JsonGenerator json = Json.MAPPER.createGenerator(unclosable(ctx.outputStream()));
        json.disable(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT);
        body.write(json);
        json.close();
    }

    /** Batches written to an Arrow stream whose schema and buffers are those of one root. */
    public interface ArrowBody {
        void write(ArrowStreamWriter writer) throws IOException;
    }

    /**
     * Streams an Arrow IPC stream of the batches {@code body} loads into {@code root}. The
     * end-of-stream marker is written only when the body is complete, so a failed read never looks
     * like a complete stream.
     */
    public static void streamArrow(Context ctx, VectorSchemaRoot root, ArrowBody body) throws IOException {
        ctx.status(200).contentType(MediaTypes.ARROW_STREAM);
        ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(unclosable(ctx.outputStream())));
        writer.start();
        body.write(writer);
        writer.end();
        writer.close();
    }

    /**
     * One batch of rows: {@code {"rows": [...], ...}} in JSON (with {@code extra} written after
     * the rows), or an Arrow IPC stream of that batch.
     */
    public static void rows(Context ctx, MediaTypes.Format format, VectorSchemaRoot rows, JsonBody extra)
            throws IOException {
        if (format == MediaTypes.Format.ARROW) {
            streamArrow(ctx, rows, writer -> {
                if (rows.getRowCount() > 0) {
                    writer.writeBatch();
                }
            });
            return;
        }
        streamJson(ctx, json -> {
            json.writeStartObject();
            json.writeArrayFieldStart("rows");
            for (int row = 0; row < rows.getRowCount(); row++) {
                RowsJson.writeRow(json, rows.getFieldVectors(), row);
            }
            json.writeEndArray();
            extra.write(json);
            json.writeEndObject();
        });
    }

    public static void error(Context ctx, ApiException e) {
        ctx.status(e.status()).json(envelope(e));
    }

    /** The error envelope of {@code e}, as a JSON document. */
    public static byte[] errorJson(ApiException e) {
        try {
            return Json.MAPPER.writeValueAsBytes(envelope(e));
        } catch (IOException impossible) {
            throw new java.io.UncheckedIOException(impossible);
        }
    }

    private static Map<String, Object> envelope(ApiException e) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", e.code());
        error.put("message", e.getMessage());
        error.putAll(e.details());
        return Map.of("error", error);
    }

    /** The response stream, flushed but left open for the server to finish the response. */
    private static OutputStream unclosable(OutputStream out) {
        return new FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        };
    }
}
