package dev.riffle.core.values;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The JSON text of one nested value (an array, map or row, at any depth), for text sinks that
 * write scalars their own way but nested values as the JSON surfaces write them: the sink passes
 * every event inside the nested value here, and takes the text when its outermost end arrives.
 *
 * <pre>{@code
 * NestedJsonText json = new NestedJsonText();
 * json.start(s -> s.startMap(1));                  // the sink's startMap
 * json.sink().stringValue("k");                    // events while json.isOpen()
 * json.sink().integerValue(7);
 * Optional<String> text = json.end(ValueSink::endMap);   // {"k":7}
 * }</pre>
 */
public final class NestedJsonText {
    private static final JsonFactory JSON = new JsonFactory();

    private StringWriter text;
    private JsonGenerator generator;
    private JsonValueSink sink;
    private int depth;

    /** Whether a nested value is open: every value event belongs to it. */
    public boolean isOpen() {
        return depth > 0;
    }

    /** Where the open nested value's events go. */
    public ValueSink sink() {
        if (depth == 0) {
            throw new IllegalStateException("No nested value is open");
        }
        return sink;
    }

    /** Opens a nested value (or one inside the open one) with {@code event}, e.g. {@code s -> s.startRow(2)}. */
    public void start(Consumer<ValueSink> event) {
        if (depth++ == 0) {
            text = new StringWriter();
            try {
                generator = JSON.createGenerator(text);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            sink = new JsonValueSink(generator);
        }
        event.accept(sink);
    }

    /** Closes the innermost open value with {@code event}; the JSON text once the outermost one closes. */
    public Optional<String> end(Consumer<ValueSink> event) {
        event.accept(sink());
        if (--depth > 0) {
            return Optional.empty();
        }
        try {
            generator.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String json = text.toString();
        text = null;
        generator = null;
        sink = null;
        return Optional.of(json);
    }
}
