package dev.riffle.gateway.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.javalin.http.Context;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import dev.riffle.core.types.RowArrowWriter;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.FlussValueReader;
import dev.riffle.core.values.JsonValueSink;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.RowType;

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
     * Rows found by key: {@code {"rows": [...], ...}} in JSON (with {@code extra} written after the
     * rows), or an Arrow IPC stream of one batch of the table's Arrow schema.
     */
    public static void rows(Context ctx, MediaTypes.Format format, List<InternalRow> rows, RowType rowType,
            BufferAllocator allocator, JsonBody extra) throws IOException {
        if (format == MediaTypes.Format.ARROW) {
            try (RowArrowWriter writer = RowArrowWriter.create(rowType, allocator)) {
                rows.forEach(writer::write);
                try (VectorSchemaRoot batch = writer.finish()) {
                    streamArrow(ctx, batch, out -> {
                        if (batch.getRowCount() > 0) {
                            out.writeBatch();
                        }
                    });
                }
            }
            return;
        }
        List<FlussValueReader> readers = FlussValueReader.ofFields(rowType);
        List<String> names = rowType.getFieldNames(); // a new list each call
        streamJson(ctx, json -> {
            JsonValueSink sink = new JsonValueSink(json);
            json.writeStartObject();
            json.writeArrayFieldStart("rows");
            for (InternalRow row : rows) {
                writeRow(json, row, names, pos -> pos, readers, sink);
            }
            json.writeEndArray();
            extra.write(json);
            json.writeEndObject();
        });
    }

    /** One Fluss row as a JSON object keyed by column name, as a scan renders the same row. */
    public static void writeRow(JsonGenerator json, InternalRow row, RowType rowType) throws IOException {
        writeRow(json, row, rowType.getFieldNames(), pos -> pos, FlussValueReader.ofFields(rowType),
                new JsonValueSink(json));
    }

    /**
     * Some fields of one Fluss row as a JSON object: column {@code i} is named {@code names[i]}, is
     * field {@code position(i)} of the row, and is read by {@code readers[i]}.
     */
    public static void writeRow(JsonGenerator json, InternalRow row, List<String> names,
            IntUnaryOperator position, List<FlussValueReader> readers, JsonValueSink sink)
            throws IOException {
        json.writeStartObject();
        for (int i = 0; i < readers.size(); i++) {
            json.writeFieldName(names.get(i));
            readers.get(i).read(row, position.applyAsInt(i), sink);
        }
        json.writeEndObject();
    }

    /** Every row of a batch as a JSON object keyed by column name. */
    public static void writeRows(JsonGenerator json, VectorSchemaRoot batch) throws IOException {
        List<ArrowValueReader> readers = ArrowValueReader.ofColumns(batch.getFieldVectors());
        JsonValueSink sink = new JsonValueSink(json);
        for (int row = 0; row < batch.getRowCount(); row++) {
            JsonValueSink.writeRow(json, readers, row, sink);
        }
    }

    /** Moves a batch's buffers into {@code to} (same schema) for writing, without copying. */
    public static void moveInto(VectorSchemaRoot from, VectorSchemaRoot to) {
        int rows = from.getRowCount();
        for (int i = 0; i < from.getFieldVectors().size(); i++) {
            from.getVector(i).makeTransferPair(to.getVector(i)).transfer();
        }
        to.setRowCount(rows);
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
