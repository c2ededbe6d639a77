package dev.riffle.mcp.rows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.JsonValueSink;
import dev.riffle.core.values.TextValueSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The cells of one Arrow batch's rows, as the answers show them: text as every text surface writes
 * it ({@link TextValueSink}), JSON values as every JSON surface does ({@link JsonValueSink}).
 * Bound to its batch: make a new one for the next.
 *
 * <pre>{@code
 * RowCells cells = new RowCells(batch.root());
 * List<Optional<String>> first = cells.text(0);
 * }</pre>
 */
public final class RowCells {
    /** Decimals stay exact (5.00, not 5.0) on their way into structured content. */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private final List<String> names = new ArrayList<>();
    private final List<ArrowValueReader> readers = new ArrayList<>();
    private final TextValueSink text = new TextValueSink();

    public RowCells(VectorSchemaRoot root) {
        for (FieldVector vector : root.getFieldVectors()) {
            names.add(vector.getName());
            readers.add(ArrowValueReader.of(vector));
        }
    }

    /** Row {@code row}'s cells as text, empty for NULL. */
    public List<Optional<String>> text(int row) {
        List<Optional<String>> cells = new ArrayList<>(readers.size());
        for (ArrowValueReader reader : readers) {
            reader.read(row, text);
            cells.add(text.take());
        }
        return cells;
    }

    /** Row {@code row} as a JSON object of column to value. */
    public Map<String, Object> json(int row) {
        try (TokenBuffer buffer = new TokenBuffer(MAPPER, false)) {
            JsonValueSink sink = new JsonValueSink(buffer);
            buffer.writeStartObject();
            for (int i = 0; i < readers.size(); i++) {
                buffer.writeFieldName(names.get(i));
                readers.get(i).read(row, sink);
            }
            buffer.writeEndObject();
            @SuppressWarnings("unchecked")
            Map<String, Object> value = MAPPER.readValue(buffer.asParser(), LinkedHashMap.class);
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
