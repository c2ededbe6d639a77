package dev.riffle.core.values;

import java.math.BigDecimal;

/**
 * Where a value goes once it has been read, whatever it was read from (an Arrow vector with
 * {@link ArrowValueReader}, a Fluss row with {@link FlussValueReader}): each surface supplies its
 * sink (JSON, text, Calcite values, PostgreSQL) and nothing else, so one value reads the same
 * everywhere and every surface renders it at full precision.
 *
 * <pre>{@code
 * ArrowValueReader reader = ArrowValueReader.of(vector);
 * reader.read(row, new JsonValueSink(generator));
 * }</pre>
 *
 * <p>Nested values arrive as a start, their elements, and an end: an array's elements in order;
 * a map's entries as key, value, key, value; a row's fields as {@link #fieldName} then the value.
 */
public interface ValueSink {
    void nullValue();

    void booleanValue(boolean value);

    /** TINYINT, SMALLINT, INT and BIGINT. */
    void integerValue(long value);

    /** FLOAT (SQL REAL): a 32-bit float, rendered as itself, not widened. */
    void floatValue(float value);

    void doubleValue(double value);

    void decimalValue(BigDecimal value);

    /** CHAR and STRING. */
    void stringValue(String value);

    /** BINARY and BYTES. */
    void binaryValue(byte[] value);

    /** DATE: days since 1970-01-01. */
    void dateValue(int epochDay);

    /** TIME: nanoseconds since midnight. */
    void timeValue(long nanoOfDay);

    /** TIMESTAMP (without time zone): a local date-time, as seconds and nanoseconds since 1970-01-01T00:00. */
    void timestampValue(long epochSecond, int nanoOfSecond);

    /** TIMESTAMP_LTZ: an instant, as seconds and nanoseconds since the epoch. */
    void instantValue(long epochSecond, int nanoOfSecond);

    void startArray(int size);

    void endArray();

    /** A map of {@code size} entries: key, value, key, value, ... follow. */
    void startMap(int size);

    void endMap();

    /** A row (struct): {@link #fieldName} and a value follow for each field. */
    void startRow(int fieldCount);

    void fieldName(String name);

    void endRow();
}
