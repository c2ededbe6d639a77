package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.types.RowArrowWriter;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.ProjectedRow;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;

/**
 * Fluss rows (what the KV store, its snapshots and lookups hand back) as Arrow batches of up to
 * {@value #BATCH_ROWS} rows, in the chosen columns, with the encodings of Fluss's own Arrow log
 * batches ({@link RowArrowWriter}), so a table reads the same whichever way its rows arrive.
 *
 * <pre>{@code
 * TableReader rows = new RowsReader(iterator, table.getRowType(), new int[] {0, 2}, allocator);
 * }</pre>
 */
public final class RowsReader implements TableReader {
    static final int BATCH_ROWS = 8192;

    private final CloseableIterator<InternalRow> rows;
    private final ProjectedRow projected;
    private final RowArrowWriter writer;
    private final Schema schema;
    private final BufferAllocator allocator;
    private VectorSchemaRoot pending;
    private long rowsOut;
    private long bytes;
    private boolean closed;

    /**
     * @param rows full rows of {@code rowType}; closed with this reader
     * @param columns which fields to hand out, in order
     */
    public RowsReader(CloseableIterator<InternalRow> rows, RowType rowType, int[] columns, BufferAllocator allocator) {
        this.rows = requireNonNull(rows, "rows is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        RowType output = rowType.project(columns);
        this.projected = ProjectedRow.from(columns.clone());
        this.writer = RowArrowWriter.create(output, allocator);
        this.schema = ArrowTypeMapping.toArrowSchema(output);
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public boolean hasNext() {
        if (pending != null || closed) {
            return pending != null;
        }
        while (writer.rowCount() < BATCH_ROWS && rows.hasNext()) {
            writer.write(projected.replaceRow(rows.next()));
        }
        if (writer.rowCount() > 0) {
            pending = writer.finish();
        }
        return pending != null;
    }

    @Override
    public ReadBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The read has ended");
        }
        VectorSchemaRoot batch = pending;
        pending = null;
        rowsOut += batch.getRowCount();
        for (FieldVector vector : batch.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return ReadBatch.of(batch);
    }

    @Override
    public ReadProgress progress() {
        return new ReadProgress(rowsOut, bytes, 0, 0);
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return Map.of();
    }

    @Override
    public BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (pending != null) {
                pending.close();
                pending = null;
            }
            writer.close();
        } finally {
            try {
                rows.close();
            } catch (Exception e) {
                throw new IllegalStateException("Closing a row source failed: " + e.getMessage(), e);
            }
        }
    }
}
