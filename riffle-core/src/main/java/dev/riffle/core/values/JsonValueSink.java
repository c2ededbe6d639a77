package dev.riffle.core.values;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Values as JSON, the form every JSON surface answers with (HTTP scans, lookups and SQL, the
 * CLI's JSON lines): numbers and booleans stay numbers and booleans (decimals exact and plain, a
 * float as itself), NaN and the infinities are strings, everything JSON has no type for is the
 * string {@link ValueText} gives it, arrays are arrays, rows are objects, and maps are objects
 * keyed by the key's text (a nested key by its JSON text).
 *
 * <pre>{@code
 * JsonValueSink sink = new JsonValueSink(generator);
 * JsonValueSink.writeRow(generator, readers, row, sink);   // {"id": 1, "at": "2024-06-01T12:30:00Z"}
 * }</pre>
 *
 * <p>I/O failures of the generator surface as {@link UncheckedIOException}.
 */
public final class JsonValueSink implements ValueSink {
    private static final JsonFactory KEY_JSON = new JsonFactory();

    private final JsonGenerator json;
    /** Open containers, innermost first. */
    private final ArrayDeque<Container> open = new ArrayDeque<>();
    /** A nested value being written as a map key: captured as JSON text, then used as the key. */
    private KeyCapture capture;

    /** An open array, row or map; a map knows whether its next value is a key. */
    private static final class Container {
        final boolean map;
        boolean expectKey;

        Container(boolean map) {
            this.map = map;
            this.expectKey = map;
        }
    }

    private static final class KeyCapture {
        final StringWriter text = new StringWriter();
        final JsonGenerator generator;
        final JsonValueSink sink;
        int depth;

        KeyCapture() throws IOException {
            this.generator = KEY_JSON.createGenerator(text);
            this.sink = new JsonValueSink(generator);
        }
    }

    public JsonValueSink(JsonGenerator json) {
        this.json = requireNonNull(json, "json is null");
    }

    /** Writes row {@code row} of the columns {@code readers} read as one JSON object keyed by column name. */
    public static void writeRow(JsonGenerator json, List<ArrowValueReader> readers, int row, JsonValueSink sink)
            throws IOException {
        json.writeStartObject();
        for (ArrowValueReader reader : readers) {
            json.writeFieldName(reader.name());
            reader.read(row, sink);
        }
        json.writeEndObject();
    }

    @Override
    public void nullValue() {
        if (asValue()) {
            try {
                json.writeNull();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            keyOrCapture(ValueSink::nullValue, () -> "null");
        }
    }

    @Override
    public void booleanValue(boolean value) {
        if (asValue()) {
            try {
                json.writeBoolean(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            keyOrCapture(s -> s.booleanValue(value), () -> Boolean.toString(value));
        }
    }

    @Override
    public void integerValue(long value) {
        if (asValue()) {
            try {
                json.writeNumber(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            keyOrCapture(s -> s.integerValue(value), () -> Long.toString(value));
        }
    }

    @Override
    public void floatValue(float value) {
        if (!asValue()) {
            keyOrCapture(s -> s.floatValue(value), () -> ValueText.floatNumber(value));
        } else if (Float.isFinite(value)) {
            try {
                json.writeNumber(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            try {
                json.writeString(ValueText.nonFinite(value));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public void doubleValue(double value) {
        if (!asValue()) {
            keyOrCapture(s -> s.doubleValue(value), () -> ValueText.doubleNumber(value));
        } else if (Double.isFinite(value)) {
            try {
                json.writeNumber(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            try {
                json.writeString(ValueText.nonFinite(value));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @Override
    public void decimalValue(BigDecimal value) {
        if (asValue()) {
            try {
                json.writeNumber(ValueText.decimal(value));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            keyOrCapture(s -> s.decimalValue(value), () -> ValueText.decimal(value));
        }
    }

    @Override
    public void stringValue(String value) {
        if (asValue()) {
            try {
                json.writeString(value);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            keyOrCapture(s -> s.stringValue(value), () -> value);
        }
    }

    @Override
    public void binaryValue(byte[] value) {
        text(s -> s.binaryValue(value), () -> ValueText.binary(value));
    }

    @Override
    public void dateValue(int epochDay) {
        text(s -> s.dateValue(epochDay), () -> ValueText.date(epochDay));
    }

    @Override
    public void timeValue(long nanoOfDay) {
        text(s -> s.timeValue(nanoOfDay), () -> ValueText.time(nanoOfDay));
    }

    @Override
    public void timestampValue(long epochSecond, int nanoOfSecond) {
        text(s -> s.timestampValue(epochSecond, nanoOfSecond), () -> ValueText.timestamp(epochSecond, nanoOfSecond));
    }

    @Override
    public void instantValue(long epochSecond, int nanoOfSecond) {
        text(s -> s.instantValue(epochSecond, nanoOfSecond), () -> ValueText.instant(epochSecond, nanoOfSecond));
    }

    @Override
    public void startArray(int size) {
        start(s -> s.startArray(size), false, json::writeStartArray);
    }

    @Override
    public void endArray() {
        end(ValueSink::endArray, json::writeEndArray);
    }

    @Override
    public void startMap(int size) {
        start(s -> s.startMap(size), true, json::writeStartObject);
    }

    @Override
    public void endMap() {
        end(ValueSink::endMap, json::writeEndObject);
    }

    @Override
    public void startRow(int fieldCount) {
        start(s -> s.startRow(fieldCount), false, json::writeStartObject);
    }

    @Override
    public void fieldName(String name) {
        if (capture != null) {
            capture.sink.fieldName(name);
        } else {
            run(() -> json.writeFieldName(name));
        }
    }

    @Override
    public void endRow() {
        end(ValueSink::endRow, json::writeEndObject);
    }

    private interface Write {
        void run() throws IOException;
    }

    /**
     * Whether the next scalar is written as a JSON value (recording that a map's value was
     * written); false when it is a map key or part of a captured key.
     */
    private boolean asValue() {
        if (capture != null) {
            return false;
        }
        Container top = open.peek();
        if (top == null || !top.map) {
            return true;
        }
        if (top.expectKey) {
            return false;
        }
        top.expectKey = true;
        return true;
    }

    /** A scalar that JSON writes as a string: its text, as a value or as a key. */
    private void text(Consumer<ValueSink> event, Supplier<String> text) {
        if (asValue()) {
            try {
                json.writeString(text.get());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else {
            keyOrCapture(event, text);
        }
    }

    /** A scalar that is part of a captured key, or a map key itself. */
    private void keyOrCapture(Consumer<ValueSink> event, Supplier<String> keyText) {
        if (capture != null) {
            event.accept(capture.sink);
            return;
        }
        open.peek().expectKey = false;
        run(() -> json.writeFieldName(keyText.get()));
    }

    private void start(Consumer<ValueSink> event, boolean map, Write write) {
        if (capture != null) {
            capture.depth++;
            event.accept(capture.sink);
            return;
        }
        Container top = open.peek();
        if (top != null && top.map && top.expectKey) {
            // A nested value as a map key: write it as JSON text, then use that text as the key.
            try {
                capture = new KeyCapture();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            capture.depth = 1;
            event.accept(capture.sink);
            return;
        }
        asValue();
        run(write);
        open.push(new Container(map));
    }

    private void end(Consumer<ValueSink> event, Write write) {
        if (capture == null) {
            open.pop();
            run(write);
            return;
        }
        event.accept(capture.sink);
        if (--capture.depth == 0) {
            KeyCapture done = capture;
            capture = null;
            run(done.generator::close);
            open.peek().expectKey = false;
            run(() -> json.writeFieldName(done.text.toString()));
        }
    }

    private static void run(Write write) {
        try {
            write.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
