package dev.riffle.server.write;

import dev.riffle.core.values.ValueSink;
import org.apache.fluss.types.DataType;

/**
 * How a SQL dialect reads the literals of an {@code INSERT ... VALUES} into its columns' values,
 * for {@link InsertRowDecoder}: PostgreSQL reads a quoted literal in its type's text form (the
 * PostgreSQL port's reader), Riffle's own dialect only the forms its engine's casts read the same
 * way ({@link StandardLiteralReader}). What a reader does not take, the SQL engine converts.
 *
 * <pre>{@code
 * InsertRowDecoder.of(table, insert, StandardLiteralReader.INSTANCE)
 * }</pre>
 */
public interface LiteralReader {
    /** Whether the decoder writes columns of {@code type} at all (from literals or bound parameters). */
    boolean writes(DataType type);

    /** Whether the quoted literal {@code text} is read by {@link #read} for a column of {@code type}. */
    boolean readsQuoted(DataType type, String text);

    /**
     * Reads {@code text} (a quoted literal this reader takes, or a number literal for a numeric
     * column) into {@code sink}.
     *
     * @throws dev.riffle.core.exception.InvalidValueException when it is not a value of {@code type}
     */
    void read(String text, DataType type, ValueSink sink);
}
