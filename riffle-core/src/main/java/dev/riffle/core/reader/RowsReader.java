package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.core.types.RowArrowWriter;
import java.util.Iterator;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
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
public final class RowsReader extends ProducedBatchReader {
    static final int BATCH_ROWS = 8192;

    private final CloseableIterator<InternalRow> rows;
    private final ProjectedRow projected;
    private final RowArrowWriter writer;

    /**
     * @param rows full rows of {@code rowType}; closed with this reader
     * @param columns which fields to hand out, in order
     */
    public RowsReader(CloseableIterator<InternalRow> rows, RowType rowType, int[] columns, BufferAllocator allocator) {
        this(rows, rowType, columns, allocator, BATCH_ROWS);
    }

    /**
     * As {@link #RowsReader(CloseableIterator, RowType, int[], BufferAllocator)}, for a source known
     * to hold about {@code expectedRows} rows (the rows of a key lookup): its batch is sized for them.
     */
    public RowsReader(CloseableIterator<InternalRow> rows, RowType rowType, int[] columns, BufferAllocator allocator,
            int expectedRows) {
        super(ArrowTypeMapping.toArrowSchema(rowType.project(columns)), allocator);
        this.rows = requireNonNull(rows, "rows is null");
        this.projected = ProjectedRow.from(columns.clone());
        this.writer = RowArrowWriter.create(rowType.project(columns), allocator, expectedRows);
    }

    /**
     * Rows already in memory (what a key lookup found) as one batch sized for them, in the chosen
     * columns; the list stays the caller's.
     */
    public static RowsReader of(List<InternalRow> rows, RowType rowType, int[] columns, BufferAllocator allocator) {
        Iterator<InternalRow> each = List.copyOf(requireNonNull(rows, "rows is null")).iterator();
        CloseableIterator<InternalRow> iterator = new CloseableIterator<>() {
            @Override
            public boolean hasNext() {
                return each.hasNext();
            }

            @Override
            public InternalRow next() {
                return each.next();
            }

            @Override
            public void close() {}
        };
        return new RowsReader(iterator, rowType, columns, allocator, rows.size());
    }

    @Override
    protected VectorSchemaRoot produce() {
        while (writer.rowCount() < BATCH_ROWS && rows.hasNext()) {
            writer.write(projected.replaceRow(rows.next()));
        }
        return writer.rowCount() > 0 ? writer.finish() : null;
    }

    @Override
    protected void release() {
        try {
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
