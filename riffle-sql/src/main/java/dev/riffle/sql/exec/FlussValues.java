package dev.riffle.sql.exec;

import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.values.FlussValueSink;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.TimestampType;

/**
 * Fluss's internal values for Calcite's Java values: key values and filter constants (literals or
 * bound parameters) on their way to Fluss, and the rows SQL writes, read into the value layer by
 * {@link CalciteValueReader} and made by its {@link FlussValueSink}. The other direction is the
 * value layer's ({@code CalciteValueSink}).
 *
 * <p>Timestamps come as Calcite's milliseconds, or with every digit ({@link ExactTimestamp#of}: a
 * literal's {@code TimestampString}, a parameter's {@code LocalDateTime}). A value written to a
 * column keeps the digits the column's precision holds and loses the others, as a SQL cast to the
 * column's type does ({@link #toFluss}); a value compared with a column keeps them all
 * ({@link #comparand}), so that {@code ts = TIMESTAMP '... .1234567'} holds for no
 * {@code TIMESTAMP(6)} value.
 */
public final class FlussValues {
    private FlussValues() {}

    /**
     * Fluss's internal value for a Calcite value (a literal or a JDBC parameter, which may come as
     * another number class or as a string); null stays null.
     *
     * @throws InvalidValueException when the value does not fit the column's type (its cause says how, when a
     *     parser or arithmetic said so)
     */
    public static Object toFluss(Object value, DataType type, String column) {
        return convert(value, type, column, true);
    }

    /**
     * Fluss's internal value for a constant compared with a column of {@code type}: as
     * {@link #toFluss}, but a timestamp keeps every fractional digit, even those the column cannot
     * hold (Fluss compares timestamps to the nanosecond).
     */
    static Object comparand(Object value, DataType type, String column) {
        return convert(value, type, column, false);
    }

    /**
     * Whether a column of {@code type} can hold the constant exactly: false for a timestamp with
     * more fractional digits than the column's precision, which equals none of its values.
     */
    static boolean holds(Object value, DataType type) {
        if (value == null || !isTimestamp(type)) {
            return true;
        }
        return ExactTimestamp.of(value).map(ts -> ts.digits() <= precision(type)).orElse(true);
    }

    /** Through the value layer: {@link CalciteValueReader} into a {@link FlussValueSink}. */
    private static Object convert(Object value, DataType type, String column, boolean toColumn) {
        if (value == null) {
            return null;
        }
        FlussValueSink sink = new FlussValueSink(type);
        try {
            CalciteValueReader.read(value, type, toColumn, sink);
        } catch (ArithmeticException | ClassCastException | NumberFormatException e) {
            throw new InvalidValueException("Value " + value + " (" + value.getClass().getSimpleName()
                    + ") does not fit column " + column + " of type " + type, e);
        }
        return sink.take();
    }

    private static boolean isTimestamp(DataType type) {
        return type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                || type.getTypeRoot() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    private static int precision(DataType type) {
        return type instanceof TimestampType ntz ? ntz.getPrecision() : ((LocalZonedTimestampType) type).getPrecision();
    }
}
