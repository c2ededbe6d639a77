package dev.riffle.cli.read;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.JsonValueSink;
import java.io.IOException;
import java.io.Writer;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Newline-delimited JSON: one object per row, keys in column order, each line ending with
 * {@code \n}. Values look as {@link JsonValueSink} renders them, as on every Riffle surface.
 */
public final class JsonRowWriter implements RowWriter {
    private static final JsonFactory JSON = new JsonFactory();

    private final JsonGenerator json;
    private final JsonValueSink sink;

    public JsonRowWriter(Writer out) throws IOException {
        this.json = JSON.createGenerator(requireNonNull(out, "out is null"))
                // The output belongs to the caller (it may be stdout).
                .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        // Jackson separates root values with a space; each row ends with its own newline instead.
        json.setRootValueSeparator(null);
        this.sink = new JsonValueSink(json);
    }

    @Override
    public void start() {
        // NDJSON has no header
    }

    @Override
    public void write(VectorSchemaRoot rows) throws IOException {
        List<ArrowValueReader> columns = ArrowValueReader.ofColumns(rows.getFieldVectors());
        for (int row = 0; row < rows.getRowCount(); row++) {
            JsonValueSink.writeRow(json, columns, row, sink);
            json.writeRaw('\n');
        }
    }

    @Override
    public void finish() throws IOException {
        json.flush();
    }

    @Override
    public void close() {
        try {
            json.close();
        } catch (IOException e) {
            // Closing only flushes into an output the caller checks and closes itself.
        }
    }
}
