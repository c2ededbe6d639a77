package dev.riffle.sql.exec;

import java.util.List;
import org.apache.calcite.linq4j.Enumerator;

/** Walks a read's batches of rows for Calcite; stops (and closes the read) after {@code limit} rows. */
final class RowEnumerator implements Enumerator<Object> {
    private final RowBatches source;
    private final boolean scalar;
    private final long limit;
    private List<Object[]> batch = List.of();
    private int index = -1;
    private long returned;
    private Object current;
    private boolean closed;

    /** @param scalar whether rows have one column, which Calcite then wants as the value itself */
    RowEnumerator(RowBatches source, boolean scalar, long limit) {
        this.source = source;
        this.scalar = scalar;
        this.limit = limit;
    }

    @Override
    public Object current() {
        return current;
    }

    @Override
    public boolean moveNext() {
        if (closed || returned >= limit) {
            close();
            return false;
        }
        while (index + 1 >= batch.size()) {
            List<Object[]> next = source.next();
            if (next == null) {
                close();
                return false;
            }
            batch = next;
            index = -1;
        }
        Object[] row = batch.get(++index);
        current = scalar ? row[0] : row;
        returned++;
        return true;
    }

    @Override
    public void reset() {
        throw new UnsupportedOperationException("A Fluss scan cannot be rewound");
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            source.close();
        }
    }
}
