package dev.riffle.sql.exec;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import java.util.List;
import java.util.stream.IntStream;

/** Calcite rows in batches, read lazily; {@code null} ends them. Closing frees what the read holds. */
interface RowBatches extends AutoCloseable {
    List<Object[]> next();

    @Override
    void close();

    /**
     * The rows of a read's batches, their first {@code width} columns, each batch converted as it is read; timestamps
     * as Calcite's milliseconds, or with every digit ({@code exactTimestamps}: rows to write, see
     * {@link CalciteRows#exact}). Closing closes the read.
     */
    static RowBatches read(TableReader reader, int width, boolean exactTimestamps) {
        int[] columns = IntStream.range(0, width).toArray();
        return new RowBatches() {
            @Override
            public List<Object[]> next() {
                if (!reader.hasNext()) {
                    return null;
                }
                try (ReadBatch batch = reader.next()) {
                    return exactTimestamps ? CalciteRows.exact(batch.root(), columns)
                            : CalciteRows.of(batch.root(), columns);
                }
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    /** Rows already in memory (lookups). */
    static RowBatches of(List<Object[]> rows) {
        return new RowBatches() {
            private boolean done;

            @Override
            public List<Object[]> next() {
                if (done) {
                    return null;
                }
                done = true;
                return rows;
            }

            @Override
            public void close() {}
        };
    }
}
