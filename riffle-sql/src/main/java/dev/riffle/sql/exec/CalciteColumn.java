package dev.riffle.sql.exec;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.values.ArrowValueReader;
import org.apache.arrow.vector.FieldVector;

/** One Arrow vector's values as Calcite's values, one row at a time (as {@link CalciteRows} reads whole rows). */
final class CalciteColumn {
    private final ArrowValueReader reader;
    private final CalciteValueSink sink;

    private CalciteColumn(FieldVector vector) {
        this.reader = ArrowValueReader.of(vector);
        this.sink = new CalciteValueSink(ArrowTypeMapping.toFlussType(vector.getField()));
    }

    static CalciteColumn of(FieldVector vector) {
        return new CalciteColumn(vector);
    }

    /** The value at {@code row}, null for SQL NULL. */
    Object get(int row) {
        reader.read(row, sink);
        return sink.take();
    }
}
