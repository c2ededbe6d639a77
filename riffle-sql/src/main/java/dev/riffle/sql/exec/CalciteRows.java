package dev.riffle.sql.exec;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.FlussValueReader;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * Rows as Calcite's {@code Object[]} values, read through Riffle's value layer: Arrow batches
 * (what the read façade returns) and Fluss rows (what lookups return) end up the same.
 */
final class CalciteRows {
    private CalciteRows() {}

    /** The rows of a batch, in {@code columns} (indexes into the batch); empty arrays when no column is asked for. */
    static List<Object[]> of(VectorSchemaRoot batch, int[] columns) {
        return of(batch, columns, false);
    }

    /** As {@link #of(VectorSchemaRoot, int[])}, timestamps with every digit ({@link ExactTimestamp}): rows to write. */
    static List<Object[]> exact(VectorSchemaRoot batch, int[] columns) {
        return of(batch, columns, true);
    }

    private static List<Object[]> of(VectorSchemaRoot batch, int[] columns, boolean exactTimestamps) {
        int width = columns.length;
        ArrowValueReader[] readers = new ArrowValueReader[width];
        CalciteValueSink[] sinks = new CalciteValueSink[width];
        for (int i = 0; i < width; i++) {
            FieldVector vector = batch.getVector(columns[i]);
            readers[i] = ArrowValueReader.of(vector);
            sinks[i] = new CalciteValueSink(ArrowTypeMapping.toFlussType(vector.getField()), exactTimestamps);
        }
        List<Object[]> rows = new ArrayList<>(batch.getRowCount());
        for (int row = 0; row < batch.getRowCount(); row++) {
            Object[] values = new Object[width];
            for (int i = 0; i < width; i++) {
                readers[i].read(row, sinks[i]);
                values[i] = sinks[i].take();
            }
            rows.add(values);
        }
        return rows;
    }

    /** Fluss rows of {@code rowType}, in {@code columns} (field positions). */
    static List<Object[]> of(List<InternalRow> found, RowType rowType, List<Integer> columns) {
        int width = columns.size();
        FlussValueReader[] readers = new FlussValueReader[width];
        CalciteValueSink[] sinks = new CalciteValueSink[width];
        for (int i = 0; i < width; i++) {
            DataType type = rowType.getTypeAt(columns.get(i));
            readers[i] = FlussValueReader.of(type);
            sinks[i] = new CalciteValueSink(type);
        }
        List<Object[]> rows = new ArrayList<>(found.size());
        for (InternalRow row : found) {
            Object[] values = new Object[width];
            for (int i = 0; i < width; i++) {
                readers[i].read(row, columns.get(i), sinks[i]);
                values[i] = sinks[i].take();
            }
            rows.add(values);
        }
        return rows;
    }
}
