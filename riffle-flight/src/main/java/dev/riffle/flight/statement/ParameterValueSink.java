package dev.riffle.flight.statement;

import dev.riffle.core.values.ValueSink;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;

/**
 * One bound parameter value, as a JDBC setter takes it: the value layer's sink for {@code ?}
 * parameters that arrive as Arrow (Flight SQL's parameter batches). Nested values cannot be
 * parameters.
 */
final class ParameterValueSink implements ValueSink {
    private Object value;
    private boolean set;

    /** The value the last read produced (reset for the next). */
    Object take() {
        if (!set) {
            throw new IllegalStateException("No parameter value was read");
        }
        set = false;
        Object taken = value;
        value = null;
        return taken;
    }

    private void put(Object v) {
        value = v;
        set = true;
    }

    @Override
    public void nullValue() {
        put(null);
    }

    @Override
    public void booleanValue(boolean v) {
        put(v);
    }

    @Override
    public void integerValue(long v) {
        put(v);
    }

    @Override
    public void floatValue(float v) {
        put(v);
    }

    @Override
    public void doubleValue(double v) {
        put(v);
    }

    @Override
    public void decimalValue(BigDecimal v) {
        put(v);
    }

    @Override
    public void stringValue(String v) {
        put(v);
    }

    @Override
    public void binaryValue(byte[] v) {
        put(v);
    }

    @Override
    public void dateValue(int epochDay) {
        put(Date.valueOf(LocalDate.ofEpochDay(epochDay)));
    }

    @Override
    public void timeValue(long nanoOfDay) {
        put(Time.valueOf(LocalTime.ofNanoOfDay(nanoOfDay)));
    }

    @Override
    public void timestampValue(long epochSecond, int nanoOfSecond) {
        put(Timestamp.valueOf(LocalDateTime.ofEpochSecond(epochSecond, nanoOfSecond, ZoneOffset.UTC)));
    }

    @Override
    public void instantValue(long epochSecond, int nanoOfSecond) {
        timestampValue(epochSecond, nanoOfSecond);
    }

    @Override
    public void startArray(int size) {
        throw nested("an array");
    }

    @Override
    public void endArray() {
        throw nested("an array");
    }

    @Override
    public void startMap(int size) {
        throw nested("a map");
    }

    @Override
    public void endMap() {
        throw nested("a map");
    }

    @Override
    public void startRow(int fieldCount) {
        throw nested("a row");
    }

    @Override
    public void fieldName(String name) {
        throw nested("a row");
    }

    @Override
    public void endRow() {
        throw nested("a row");
    }

    private static IllegalArgumentException nested(String what) {
        return new IllegalArgumentException("A parameter cannot be " + what + "; bind scalar values");
    }
}
