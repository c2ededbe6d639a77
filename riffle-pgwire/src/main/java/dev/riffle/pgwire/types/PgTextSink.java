package dev.riffle.pgwire.types;

import dev.riffle.core.values.JsonValueSink;
import dev.riffle.core.values.NestedJsonText;
import dev.riffle.core.values.ValueSink;
import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One value in PostgreSQL's text format: scalars as {@link PgText} writes them, arrays as
 * PostgreSQL array literals ({@code {1,2,NULL}}, {@code {"a b",c}}), maps and rows as JSON (the
 * json type they travel as), written by the value layer's {@link JsonValueSink}.
 *
 * <pre>{@code
 * PgTextSink text = new PgTextSink();
 * ArrowValueReader.of(vector).read(row, text);
 * Optional<String> cell = text.take();   // empty for NULL
 * }</pre>
 */
public final class PgTextSink implements ValueSink {
    private String text;
    /** The open arrays' literal being written, and whether each open array has an element yet. */
    private StringBuilder array;
    private final ArrayDeque<boolean[]> arrays = new ArrayDeque<>();
    /** A map or row being written as JSON (with whatever it holds, arrays too). */
    private final NestedJsonText json = new NestedJsonText();

    /** The text of the value read last, empty for NULL; the sink is ready for the next value. */
    public Optional<String> take() {
        if (!arrays.isEmpty() || json.isOpen()) {
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
        scalar(s -> s.booleanValue(value), PgText.bool(value));
    }

    @Override
    public void integerValue(long value) {
        scalar(s -> s.integerValue(value), Long.toString(value));
    }

    @Override
    public void floatValue(float value) {
        scalar(s -> s.floatValue(value), PgText.float4(value));
    }

    @Override
    public void doubleValue(double value) {
        scalar(s -> s.doubleValue(value), PgText.float8(value));
    }

    @Override
    public void decimalValue(BigDecimal value) {
        scalar(s -> s.decimalValue(value), PgText.numeric(value));
    }

    @Override
    public void stringValue(String value) {
        scalar(s -> s.stringValue(value), value);
    }

    @Override
    public void binaryValue(byte[] value) {
        scalar(s -> s.binaryValue(value), PgText.bytea(value));
    }

    @Override
    public void dateValue(int epochDay) {
        scalar(s -> s.dateValue(epochDay), PgText.date(epochDay));
    }

    @Override
    public void timeValue(long nanoOfDay) {
        scalar(s -> s.timeValue(nanoOfDay), PgText.time(nanoOfDay));
    }

    @Override
    public void timestampValue(long epochSecond, int nanoOfSecond) {
        scalar(s -> s.timestampValue(epochSecond, nanoOfSecond), PgText.timestamp(epochSecond, nanoOfSecond));
    }

    @Override
    public void instantValue(long epochSecond, int nanoOfSecond) {
        scalar(s -> s.instantValue(epochSecond, nanoOfSecond), PgText.timestamptz(epochSecond, nanoOfSecond));
    }

    @Override
    public void startArray(int size) {
        if (json.isOpen()) {
            json.start(s -> s.startArray(size));
            return;
        }
        if (arrays.isEmpty()) {
            array = new StringBuilder();
        } else {
            separator();
        }
        array.append('{');
        arrays.push(new boolean[1]);
    }

    @Override
    public void endArray() {
        if (json.isOpen()) {
            json.end(ValueSink::endArray); // never the outermost: that is a map or row
            return;
        }
        arrays.pop();
        array.append('}');
        if (arrays.isEmpty()) {
            text = array.toString();
            array = null;
        }
    }

    @Override
    public void startMap(int size) {
        startJson(s -> s.startMap(size));
    }

    @Override
    public void endMap() {
        endJson(ValueSink::endMap);
    }

    @Override
    public void startRow(int fieldCount) {
        startJson(s -> s.startRow(fieldCount));
    }

    @Override
    public void fieldName(String name) {
        json.sink().fieldName(name);
    }

    @Override
    public void endRow() {
        endJson(ValueSink::endRow);
    }

    private void scalar(Consumer<ValueSink> event, String value) {
        if (json.isOpen()) {
            event.accept(json.sink());
        } else if (!arrays.isEmpty()) {
            element(value);
        } else {
            text = value;
        }
    }

    private void element(String value) {
        separator();
        if (value == null) {
            array.append("NULL");
        } else if (needsQuotes(value)) {
            array.append('"');
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '"' || c == '\\') {
                    array.append('\\');
                }
                array.append(c);
            }
            array.append('"');
        } else {
            array.append(value);
        }
    }

    private void separator() {
        boolean[] hasElement = arrays.peek();
        if (hasElement[0]) {
            array.append(',');
        }
        hasElement[0] = true;
    }

    /** As PostgreSQL's array_out decides: empty, NULL, or holding a delimiter, quote, brace or space. */
    static boolean needsQuotes(String value) {
        if (value.isEmpty() || value.equalsIgnoreCase("NULL")) {
            return true;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '{' || c == '}' || c == ',' || c == '"' || c == '\\' || Character.isWhitespace(c)) {
                return true;
            }
        }
        return false;
    }

    private void startJson(Consumer<ValueSink> event) {
        json.start(event);
    }

    private void endJson(Consumer<ValueSink> event) {
        json.end(event).ifPresent(value -> {
            if (arrays.isEmpty()) {
                text = value;
            } else {
                element(value);
            }
        });
    }
}
