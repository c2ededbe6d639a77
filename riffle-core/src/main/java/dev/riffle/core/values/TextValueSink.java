package dev.riffle.core.values;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One value as text, for surfaces that show every value as a string (CSV cells, text protocols):
 * a scalar is {@link ValueText}'s text of it (booleans {@code true}/{@code false}, numbers as
 * JSON writes them), a nested value (array, map, row) its JSON text, exactly as the JSON surfaces
 * write it.
 *
 * <pre>{@code
 * TextValueSink text = new TextValueSink();
 * reader.read(row, text);
 * String cell = text.take().orElse("");   // empty for NULL
 * }</pre>
 */
public final class TextValueSink implements ValueSink {
    private static final JsonFactory JSON = new JsonFactory();

    private String text;
    private StringWriter nested;
    private JsonGenerator nestedJson;
    private JsonValueSink nestedSink;
    private int depth;

    /** The text of the value read last, empty for NULL; the sink is ready for the next value. */
    public Optional<String> take() {
        if (depth != 0) {
            throw new IllegalStateException("A nested value is still open");
        }
        String value = text;
        text = null;
        return Optional.ofNullable(value);
    }

    @Override
    public void nullValue() {
        scalar(ValueSink::nullValue, null);
    }

    @Override
    public void booleanValue(boolean value) {
        scalar(s -> s.booleanValue(value), Boolean.toString(value));
    }

    @Override
    public void integerValue(long value) {
        scalar(s -> s.integerValue(value), depth > 0 ? null : Long.toString(value));
    }

    @Override
    public void floatValue(float value) {
        scalar(s -> s.floatValue(value), depth > 0 ? null : ValueText.floatNumber(value));
    }

    @Override
    public void doubleValue(double value) {
        scalar(s -> s.doubleValue(value), depth > 0 ? null : ValueText.doubleNumber(value));
    }

    @Override
    public void decimalValue(BigDecimal value) {
        scalar(s -> s.decimalValue(value), depth > 0 ? null : ValueText.decimal(value));
    }

    @Override
    public void stringValue(String value) {
        scalar(s -> s.stringValue(value), value);
    }

    @Override
    public void binaryValue(byte[] value) {
        scalar(s -> s.binaryValue(value), depth > 0 ? null : ValueText.binary(value));
    }

    @Override
    public void dateValue(int epochDay) {
        scalar(s -> s.dateValue(epochDay), depth > 0 ? null : ValueText.date(epochDay));
    }

    @Override
    public void timeValue(long nanoOfDay) {
        scalar(s -> s.timeValue(nanoOfDay), depth > 0 ? null : ValueText.time(nanoOfDay));
    }

    @Override
    public void timestampValue(long epochSecond, int nanoOfSecond) {
        scalar(s -> s.timestampValue(epochSecond, nanoOfSecond),
                depth > 0 ? null : ValueText.timestamp(epochSecond, nanoOfSecond));
    }

    @Override
    public void instantValue(long epochSecond, int nanoOfSecond) {
        scalar(s -> s.instantValue(epochSecond, nanoOfSecond),
                depth > 0 ? null : ValueText.instant(epochSecond, nanoOfSecond));
    }

    @Override
    public void startArray(int size) {
        start(s -> s.startArray(size));
    }

    @Override
    public void endArray() {
        end(ValueSink::endArray);
    }

    @Override
    public void startMap(int size) {
        start(s -> s.startMap(size));
    }

    @Override
    public void endMap() {
        end(ValueSink::endMap);
    }

    @Override
    public void startRow(int fieldCount) {
        start(s -> s.startRow(fieldCount));
    }

    @Override
    public void fieldName(String name) {
        nestedSink.fieldName(name);
    }

    @Override
    public void endRow() {
        end(ValueSink::endRow);
    }

    private void scalar(Consumer<ValueSink> event, String value) {
        if (depth > 0) {
            event.accept(nestedSink);
        } else {
            text = value;
        }
    }

    private void start(Consumer<ValueSink> event) {
        if (depth++ == 0) {
            nested = new StringWriter();
            try {
                nestedJson = JSON.createGenerator(nested);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            nestedSink = new JsonValueSink(nestedJson);
        }
        event.accept(nestedSink);
    }

    private void end(Consumer<ValueSink> event) {
        event.accept(nestedSink);
        if (--depth == 0) {
            try {
                nestedJson.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            text = nested.toString();
            nested = null;
            nestedJson = null;
            nestedSink = null;
        }
    }
}
