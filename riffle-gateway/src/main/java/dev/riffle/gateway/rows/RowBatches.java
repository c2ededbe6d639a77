package dev.riffle.gateway.rows;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.RowArrowWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.RowType;

/**
 * Rows of a table gathered into Arrow batches of its columns (as Fluss writes them), cut every
 * {@value #BATCH_ROWS} rows so that a large write spreads over the buckets as Fluss's writer
 * spreads it. This holds the batches it made until it is closed.
 *
 * <pre>{@code
 * try (RowBatches batches = new RowBatches(table.getRowType(), allocator)) {
 *     rows.forEach(batches::add);
 *     appender.append(batches.finish(), timeout).join();
 * }
 * }</pre>
 */
final class RowBatches implements AutoCloseable {
    /** About 0.5–1 MiB of narrow rows: a Fluss batch of the size its writer makes. */
    static final int BATCH_ROWS = 8_192;

    private final RowArrowWriter writer;
    private final List<VectorSchemaRoot> finished = new ArrayList<>();

    RowBatches(RowType rowType, BufferAllocator allocator) {
        this.writer = RowArrowWriter.create(requireNonNull(rowType, "rowType is null"),
                requireNonNull(allocator, "allocator is null"));
    }

    void add(InternalRow row) {
        writer.write(row);
        if (writer.rowCount() == BATCH_ROWS) {
            finished.add(writer.finish());
        }
    }

    /** Every row added, as batches; they stay this object's, closed with it. */
    List<VectorSchemaRoot> finish() {
        if (writer.rowCount() > 0) {
            finished.add(writer.finish());
        }
        return List.copyOf(finished);
    }

    @Override
    public void close() {
        try (writer) {
            finished.forEach(VectorSchemaRoot::close);
        }
    }
}
