package dev.riffle.core.values;

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
    private final NestedJsonText nested = new NestedJsonText();
    private String text;

    /** The text of the value read last, empty for NULL; the sink is ready for the next value. */
    public Optional<String> take() {
        if (nested.isOpen()) {
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
        scalar(s -> s.integerValue(value), nested.isOpen() ? null : Long.toString(value));
    }

    @Override
    public void floatValue(float value) {
        scalar(s -> s.floatValue(value), nested.isOpen() ? null : ValueText.floatNumber(value));
    }

    @Override
    public void doubleValue(double value) {
        scalar(s -> s.doubleValue(value), nested.isOpen() ? null : ValueText.doubleNumber(value));
    }

    @Override
    public void decimalValue(BigDecimal value) {
        scalar(s -> s.decimalValue(value), nested.isOpen() ? null : ValueText.decimal(value));
    }

    @Override
    public void stringValue(String value) {
        scalar(s -> s.stringValue(value), value);
    }

    @Override
    public void binaryValue(byte[] value) {
        scalar(s -> s.binaryValue(value), nested.isOpen() ? null : ValueText.binary(value));
    }

    @Override
    public void dateValue(int epochDay) {
        scalar(s -> s.dateValue(epochDay), nested.isOpen() ? null : ValueText.date(epochDay));
    }

    @Override
    public void timeValue(long nanoOfDay) {
        scalar(s -> s.timeValue(nanoOfDay), nested.isOpen() ? null : ValueText.time(nanoOfDay));
    }

    @Override
    public void timestampValue(long epochSecond, int nanoOfSecond) {
        scalar(s -> s.timestampValue(epochSecond, nanoOfSecond),
                nested.isOpen() ? null : ValueText.timestamp(epochSecond, nanoOfSecond));
    }

    @Override
    public void instantValue(long epochSecond, int nanoOfSecond) {
        scalar(s -> s.instantValue(epochSecond, nanoOfSecond),
                nested.isOpen() ? null : ValueText.instant(epochSecond, nanoOfSecond));
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
        nested.sink().fieldName(name);
    }

    @Override
    public void endRow() {
        end(ValueSink::endRow);
    }

    private void scalar(Consumer<ValueSink> event, String value) {
        if (nested.isOpen()) {
            event.accept(nested.sink());
        } else {
            text = value;
        }
    }

    private void start(Consumer<ValueSink> event) {
        nested.start(event);
    }

    private void end(Consumer<ValueSink> event) {
        nested.end(event).ifPresent(json -> text = json);
    }
}
