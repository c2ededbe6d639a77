package dev.riffle.core.values;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidValueException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.BinaryType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DecimalType;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;

/**
 * Values as a Fluss row holds them, for a column of a given type: the sink that turns what was
 * read (an Arrow batch sent to be written, say) into values to write. Each value is checked
 * against the column's type ({@link #decimal}, {@link #binary}, integer ranges, nulls in
 * {@code NOT NULL} places) and a value that does not fit fails with an
 * {@link InvalidValueException} naming where in a nested value it is.
 *
 * <pre>{@code
 * FlussValueSink sink = new FlussValueSink(DataTypes.DECIMAL(10, 2));
 * reader.read(row, sink);
 * Object value = sink.take();   // a Decimal, or null
 * }</pre>
 */
public final class FlussValueSink implements ValueSink {
    private final ValueAssembly assembly;

    /** A sink for values of a column of {@code type}. */
    public FlussValueSink(DataType type) {
        this.assembly = new ValueAssembly(requireNonNull(type, "type is null"));
    }

    /** The value read last (null for NULL); the sink is ready for the next one. */
    public Object take() {
        return assembly.take();
    }

    /**
     * {@code value} with {@code type}'s scale, exactly: more digits after the point than the type
     * keeps, or more digits in all, do not fit.
     */
    public static Decimal decimal(BigDecimal value, DecimalType type) {
        // Decided from the digits and the exponent before any arithmetic: 1e999999999 is a few bytes
        // of input, and scaling it would cost minutes.
        BigDecimal stripped = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
        if (stripped.scale() > type.getScale()) {
            throw new InvalidValueException(shown(value) + " has more than " + type.getScale()
                    + " digits after the point, which " + type + " keeps");
        }
        long integerDigits = (long) stripped.precision() - stripped.scale();
        if (integerDigits > type.getPrecision() - type.getScale()) {
            throw new InvalidValueException(shown(value) + " does not fit " + type);
        }
        BigDecimal scaled = stripped.setScale(type.getScale(), RoundingMode.UNNECESSARY);
        return Decimal.fromBigDecimal(scaled, type.getPrecision(), type.getScale());
    }

    /** A number as the message shows it: plain when short, else in scientific notation (never a million zeros). */
    private static String shown(BigDecimal value) {
        long digits = (long) value.precision() + Math.abs((long) value.scale());
        return digits <= 40 ? value.toPlainString() : value.toString();
    }

    /** {@code bytes}, when they fit {@code type} (a BINARY(n) holds exactly n bytes). */
    public static byte[] binary(byte[] bytes, DataType type) {
        if (type instanceof BinaryType binary && bytes.length != binary.getLength()) {
            throw new InvalidValueException(bytes.length + " bytes do not fit " + type + ", which holds exactly "
                    + binary.getLength());
        }
        return bytes;
    }

    private DataType current() {
        return assembly.current();
    }

    private void put(Object v) {
        assembly.put(v);
    }

    private InvalidValueException mismatch(String what, DataType target) {
        return new InvalidValueException(where() + what + " cannot be written to " + target);
    }

    private String where() {
        return assembly.where();
    }

    @Override
    public void nullValue() {
        DataType target = current();
        if (!target.isNullable() && assembly.nested()) {
            throw new InvalidValueException(where() + "null where " + target + " is required");
        }
        put(null);
    }

    @Override
    public void booleanValue(boolean v) {
        requireKind(org.apache.fluss.types.DataTypeRoot.BOOLEAN, "a boolean");
        put(v);
    }

    @Override
    public void integerValue(long v) {
        DataType target = current();
        put(switch (target.getTypeRoot()) {
            case TINYINT -> (byte) inRange(v, Byte.MIN_VALUE, Byte.MAX_VALUE, target);
            case SMALLINT -> (short) inRange(v, Short.MIN_VALUE, Short.MAX_VALUE, target);
            case INTEGER -> (int) inRange(v, Integer.MIN_VALUE, Integer.MAX_VALUE, target);
            case BIGINT -> v;
            default -> throw mismatch("an integer", target);
        });
    }

    private long inRange(long v, long min, long max, DataType target) {
        if (v < min || v > max) {
            throw new InvalidValueException(where() + v + " is out of range for " + target + " [" + min + ", " + max + "]");
        }
        return v;
    }

    @Override
    public void floatValue(float v) {
        DataType target = current();
        switch (target.getTypeRoot()) {
            case FLOAT -> put(v);
            case DOUBLE -> put((double) v);
            default -> throw mismatch("a float", target);
        }
    }

    @Override
    public void doubleValue(double v) {
        DataType target = current();
        switch (target.getTypeRoot()) {
            case DOUBLE -> put(v);
            case FLOAT -> put((float) v);
            default -> throw mismatch("a double", target);
        }
    }

    @Override
    public void decimalValue(BigDecimal v) {
        DataType target = current();
        if (!(target instanceof DecimalType decimal)) {
            throw mismatch("a decimal", target);
        }
        try {
            put(decimal(v, decimal));
        } catch (InvalidValueException e) {
            throw new InvalidValueException(where() + e.getMessage());
        }
    }

    @Override
    public void stringValue(String v) {
        DataType target = current();
        switch (target.getTypeRoot()) {
            case CHAR, STRING -> put(BinaryString.fromString(v));
            default -> throw mismatch("a string", target);
        }
    }

    @Override
    public void binaryValue(byte[] v) {
        DataType target = current();
        switch (target.getTypeRoot()) {
            case BINARY, BYTES -> {
                try {
                    put(binary(v, target));
                } catch (InvalidValueException e) {
                    throw new InvalidValueException(where() + e.getMessage());
                }
            }
            default -> throw mismatch("binary", target);
        }
    }

    @Override
    public void dateValue(int epochDay) {
        requireKind(org.apache.fluss.types.DataTypeRoot.DATE, "a date");
        put(epochDay);
    }

    @Override
    public void timeValue(long nanoOfDay) {
        requireKind(org.apache.fluss.types.DataTypeRoot.TIME_WITHOUT_TIME_ZONE, "a time");
        // Fluss keeps TIME in milliseconds of the day.
        put((int) (nanoOfDay / 1_000_000L));
    }

    @Override
    public void timestampValue(long epochSecond, int nanoOfSecond) {
        requireKind(org.apache.fluss.types.DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE, "a timestamp");
        put(TimestampNtz.fromMillis(epochSecond * 1_000L + nanoOfSecond / 1_000_000, nanoOfSecond % 1_000_000));
    }

    @Override
    public void instantValue(long epochSecond, int nanoOfSecond) {
        requireKind(org.apache.fluss.types.DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE, "an instant");
        put(TimestampLtz.fromEpochMillis(epochSecond * 1_000L + nanoOfSecond / 1_000_000, nanoOfSecond % 1_000_000));
    }

    private void requireKind(org.apache.fluss.types.DataTypeRoot root, String what) {
        DataType target = current();
        if (target.getTypeRoot() != root) {
            throw mismatch(what, target);
        }
    }

    @Override
    public void startArray(int size) {
        DataType target = current();
        if (!(target instanceof ArrayType)) {
            throw mismatch("an array", target);
        }
        assembly.open();
    }

    @Override
    public void endArray() {
        put(close());
    }

    @Override
    public void startMap(int size) {
        DataType target = current();
        if (!(target instanceof MapType)) {
            throw mismatch("a map", target);
        }
        assembly.open();
    }

    @Override
    public void endMap() {
        put(close());
    }

    @Override
    public void startRow(int fieldCount) {
        DataType target = current();
        if (!(target instanceof RowType)) {
            throw mismatch("a row", target);
        }
        assembly.open();
    }

    @Override
    public void fieldName(String name) {
        // Fields arrive in the row type's order; a Fluss row is positional.
    }

    @Override
    public void endRow() {
        put(close());
    }

    private Object close() {
        ValueAssembly.Parts parts = assembly.close();
        if (parts.type() instanceof MapType) {
            return new GenericMap(parts.entries());
        }
        if (parts.type() instanceof RowType row) {
            if (parts.elements().size() != row.getFieldCount()) {
                throw new InvalidValueException(where() + "a row of " + parts.elements().size() + " fields where "
                        + row + " has " + row.getFieldCount());
            }
            return GenericRow.of(parts.elements().toArray());
        }
        return new GenericArray(parts.elements().toArray());
    }
}
