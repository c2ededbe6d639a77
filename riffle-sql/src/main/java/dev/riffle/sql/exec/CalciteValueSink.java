package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.values.ValueAssembly;
import dev.riffle.core.values.ValueSink;
import java.math.BigDecimal;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;

/**
 * Values as Calcite's generated code holds them: the SQL surface's sink of Riffle's value layer.
 * The Java class follows the column's type ({@code Byte}, {@code Short}, {@code Integer},
 * {@code Long}; {@code Float} for REAL; {@code Integer} days for DATE and milliseconds for TIME;
 * {@code Long} epoch milliseconds for timestamps, since Calcite keeps them at millisecond
 * precision; {@code ByteString} for binary; a {@code List}, a {@code Map} and an {@code Object[]}
 * for ARRAY, MAP and ROW).
 *
 * <pre>{@code
 * CalciteValueSink sink = new CalciteValueSink(DataTypes.INT());
 * reader.read(row, sink);
 * Object value = sink.take();   // an Integer, or null
 * }</pre>
 */
final class CalciteValueSink implements ValueSink {
    private final ValueAssembly assembly;
    private final boolean exactTimestamps;

    CalciteValueSink(DataType type) {
        this(type, false);
    }

    /**
     * @param exactTimestamps timestamps as {@link ExactTimestamp}s, every digit kept, instead of
     *     Calcite's milliseconds: for rows that go to Fluss ({@link FlussValues}), not to generated code
     */
    CalciteValueSink(DataType type, boolean exactTimestamps) {
        this.assembly = new ValueAssembly(requireNonNull(type, "type is null"));
        this.exactTimestamps = exactTimestamps;
    }

    /** The value read last (null for SQL NULL); the sink is ready for the next one. */
    Object take() {
        return assembly.take();
    }

    private DataType current() {
        return assembly.current();
    }

    private void put(Object v) {
        assembly.put(v);
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
        put(switch (current().getTypeRoot()) {
            case TINYINT -> (byte) v;
            case SMALLINT -> (short) v;
            case INTEGER -> (int) v;
            default -> v;
        });
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
        put(new ByteString(v));
    }

    @Override
    public void dateValue(int epochDay) {
        put(epochDay);
    }

    @Override
    public void timeValue(long nanoOfDay) {
        put((int) (nanoOfDay / 1_000_000L));
    }

    @Override
    public void timestampValue(long epochSecond, int nanoOfSecond) {
        put(exactTimestamps ? new ExactTimestamp(epochSecond, nanoOfSecond)
                : epochSecond * 1_000L + nanoOfSecond / 1_000_000);
    }

    @Override
    public void instantValue(long epochSecond, int nanoOfSecond) {
        timestampValue(epochSecond, nanoOfSecond);
    }

    @Override
    public void startArray(int size) {
        assembly.open();
    }

    @Override
    public void endArray() {
        put(close());
    }

    @Override
    public void startMap(int size) {
        assembly.open();
    }

    @Override
    public void endMap() {
        put(close());
    }

    @Override
    public void startRow(int fieldCount) {
        assembly.open();
    }

    @Override
    public void fieldName(String name) {
        // A row's fields arrive in order; Calcite's row value is positional.
    }

    @Override
    public void endRow() {
        put(close());
    }

    private Object close() {
        ValueAssembly.Parts parts = assembly.close();
        if (parts.type() instanceof MapType) {
            return parts.entries();
        }
        return parts.type() instanceof RowType ? parts.elements().toArray() : parts.elements();
    }
}
