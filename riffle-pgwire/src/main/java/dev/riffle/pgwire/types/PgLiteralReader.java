package dev.riffle.pgwire.types;

import dev.riffle.core.values.ValueSink;
import dev.riffle.server.write.LiteralReader;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeRoot;

/**
 * PostgreSQL's literals, for the PostgreSQL port's INSERTs written without the engine: a quoted
 * literal is read in its column type's text form, as COPY reads its lines ({@link PgTextValueReader}).
 *
 * <pre>{@code
 * InsertRowDecoder.of(table, insert, PgLiteralReader.INSTANCE)
 * }</pre>
 */
public final class PgLiteralReader implements LiteralReader {
    public static final PgLiteralReader INSTANCE = new PgLiteralReader();

    private PgLiteralReader() {}

    @Override
    public boolean writes(DataType type) {
        // CHAR(n): the engine pads a shorter value to n, which the value layer does not
        return PgTextValueReader.readable(type) && type.getTypeRoot() != DataTypeRoot.CHAR;
    }

    @Override
    public boolean readsQuoted(DataType type, String text) {
        return true; // whatever is not of the type fails to read, and the engine then says so
    }

    @Override
    public void read(String text, DataType type, ValueSink sink) {
        PgTextValueReader.read(text, type, sink);
    }
}
