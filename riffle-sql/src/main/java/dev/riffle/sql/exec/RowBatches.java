package dev.riffle.sql.exec;

import java.util.List;

/** Calcite rows in batches, read lazily; {@code null} ends them. Closing frees what the read holds. */
interface RowBatches extends AutoCloseable {
    List<Object[]> next();

    @Override
    void close();

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
