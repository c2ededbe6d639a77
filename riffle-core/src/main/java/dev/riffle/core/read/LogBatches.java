package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.scan.LogBatch;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** Batches collected in memory by {@link BoundedLogReader#collectAll()}; closing frees them all. */
public final class LogBatches implements Iterable<LogBatch>, AutoCloseable {
    private final Schema schema;
    private final List<LogBatch> batches;

    LogBatches(Schema schema, List<LogBatch> batches) {
        this.schema = requireNonNull(schema, "schema is null");
        this.batches = List.copyOf(batches);
    }

    public Schema schema() {
        return schema;
    }

    public List<LogBatch> batches() {
        return batches;
    }

    public long rowCount() {
        long rows = 0;
        for (LogBatch batch : batches) {
            rows += batch.rowCount();
        }
        return rows;
    }

    @Override
    public Iterator<LogBatch> iterator() {
        return batches.iterator();
    }

    @Override
    public void close() {
        batches.forEach(LogBatch::close);
    }
}
