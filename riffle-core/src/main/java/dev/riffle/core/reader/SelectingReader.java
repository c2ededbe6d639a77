package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.BatchFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.fluss.metadata.TableBucket;

/**
 * Keeps the rows of another reader's batches that pass a filter, up to a row limit, in the
 * output columns: the one place a read applies a row filter and a limit, whatever produced the
 * rows. Columns read only to evaluate the filter are dropped here.
 *
 * <pre>{@code
 * TableReader firstTen = new SelectingReader(source, BatchFilter.all(), 10, new int[] {0, 1});
 * }</pre>
 *
 * <p>A batch whose rows are all kept moves its buffers on without copying; otherwise the kept
 * rows are copied into a new batch. A batch read from one bucket's log keeps its
 * {@link LogRange}, ending after the last row examined when the limit stopped inside it, so a
 * caller can resume exactly there.
 */
public final class SelectingReader implements TableReader {
    private final TableReader source;
    private final BatchFilter filter;
    private final int[] outputColumns;
    private final Schema schema;
    /** Whether a batch whose rows all fit under the limit leaves as it came (filter, columns and names all the source's). */
    private final boolean passesWhole;
    private long remaining;
    private ReadBatch pending;
    /** Set once the limit is reached inside a batch that had rows left. */
    private boolean rowsLeftInBatch;
    private long rows;
    private long bytes;
    private boolean closed;

    /**
     * @param limit the most rows to hand out ({@link Long#MAX_VALUE}: no limit)
     * @param outputColumns which of the source's columns to keep, in output order
     */
    public SelectingReader(TableReader source, BatchFilter filter, long limit, int[] outputColumns) {
        this(source, filter, limit, outputColumns, names(source.schema(), outputColumns));
    }

    /**
     * As above, the output columns renamed to {@code names} (a SQL statement's column labels).
     * Each source column may be kept once.
     */
    public SelectingReader(TableReader source, BatchFilter filter, long limit, int[] outputColumns,
            List<String> names) {
        this.source = requireNonNull(source, "source is null");
        this.filter = requireNonNull(filter, "filter is null");
        if (limit < 0) {
            throw new IllegalArgumentException("A row limit must be >= 0, got " + limit);
        }
        this.remaining = limit;
        this.outputColumns = outputColumns.clone();
        if (names.size() != outputColumns.length) {
            throw new IllegalArgumentException(names.size() + " names for " + outputColumns.length + " columns");
        }
        this.schema = selectedSchema(source.schema(), outputColumns, names);
        this.passesWhole = filter.acceptsAll() && isIdentity(this.outputColumns, source.schema().getFields().size())
                && schema.equals(source.schema());
    }

    private static boolean isIdentity(int[] columns, int sourceColumns) {
        if (columns.length != sourceColumns) {
            return false;
        }
        for (int i = 0; i < columns.length; i++) {
            if (columns[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** The schema of {@code outputColumns} of {@code source}, renamed to {@code names}: what this reader answers in. */
    public static Schema selectedSchema(Schema source, int[] outputColumns, List<String> names) {
        if (names.size() != outputColumns.length) {
            throw new IllegalArgumentException(names.size() + " names for " + outputColumns.length + " columns");
        }
        List<Field> fields = new ArrayList<>(outputColumns.length);
        for (int i = 0; i < outputColumns.length; i++) {
            Field field = source.getFields().get(outputColumns[i]);
            fields.add(field.getName().equals(names.get(i)) ? field
                    : new Field(names.get(i), field.getFieldType(), field.getChildren()));
        }
        return new Schema(fields, source.getCustomMetadata());
    }

    private static List<String> names(Schema schema, int[] columns) {
        List<String> names = new ArrayList<>(columns.length);
        for (int column : columns) {
            names.add(schema.getFields().get(column).getName());
        }
        return names;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public boolean hasNext() {
        while (pending == null && !closed && remaining > 0 && source.hasNext()) {
            ReadBatch batch = source.next();
            if (passesWhole && batch.rowCount() > 0 && batch.rowCount() <= remaining) {
                // Handed on as it is, not moved into a new root: a batch still as Fluss stored it
                // stays so (ReadBatch.stored) for a server that sends it on undecoded.
                remaining -= batch.rowCount();
                rowsLeftInBatch = false;
                pending = batch;
                break;
            }
            try (batch) {
                pending = select(batch);
            }
        }
        return pending != null;
    }

    @Override
    public ReadBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The read has ended");
        }
        ReadBatch batch = pending;
        pending = null;
        rows += batch.rowCount();
        bytes += batch.bufferBytes();
        return batch;
    }

    /** The kept rows of one batch, or null when it keeps none; the source batch is closed by the caller. */
    private ReadBatch select(ReadBatch batch) {
        VectorSchemaRoot root = batch.root();
        int rowCount = root.getRowCount();
        IntPredicate test = filter.bind(root);
        int[] selected = new int[(int) Math.min(rowCount, remaining)];
        int count = 0;
        int stoppedAt = rowCount;
        for (int row = 0; row < rowCount; row++) {
            if (test.test(row)) {
                selected[count++] = row;
                if (count == remaining) {
                    stoppedAt = row + 1;
                    break;
                }
            }
        }
        int examined = stoppedAt;
        remaining -= count;
        rowsLeftInBatch = examined < rowCount;
        if (count == 0) {
            return null;
        }
        Optional<LogRange> range = batch.logRange().flatMap(r -> resumeAt(r, rowCount, examined));
        VectorSchemaRoot out = count == rowCount ? transfer(root) : copy(root, selected, count);
        return new ReadBatch.Plain(out, range);
    }

    /**
     * Where a caller resumes after this batch: its whole stretch of the log when every row was
     * examined, else the stretch cut after the rows examined when rows are offsets one to one.
     * A batch that an earlier stage filtered (a union read's log tail, limited after the merge)
     * has fewer rows than offsets, and a cut inside it has no offset to name: such a batch says
     * nothing of where it came from rather than something wrong. Reads that page by offsets
     * apply their filter and limit here in one step, on batches that are one row per offset.
     */
    private static Optional<LogRange> resumeAt(LogRange range, int rowCount, int examined) {
        if (examined == rowCount) {
            return Optional.of(range);
        }
        boolean contiguous = range.endOffset() - range.startOffset() == rowCount;
        return contiguous ? Optional.of(range.endingAt(range.startOffset() + examined)) : Optional.empty();
    }

    private VectorSchemaRoot transfer(VectorSchemaRoot from) {
        List<FieldVector> vectors = new ArrayList<>(outputColumns.length);
        for (int i = 0; i < outputColumns.length; i++) {
            TransferPair pair = from.getVector(outputColumns[i]).getTransferPair(schema.getFields().get(i),
                    source.allocator());
            pair.transfer();
            vectors.add((FieldVector) pair.getTo());
        }
        return new VectorSchemaRoot(schema.getFields(), vectors, from.getRowCount());
    }

    private VectorSchemaRoot copy(VectorSchemaRoot from, int[] selected, int count) {
        return SelectedRows.copy(from, outputColumns, schema, selected, count, source.allocator());
    }

    @Override
    public ReadProgress progress() {
        ReadProgress inner = source.progress();
        return new ReadProgress(rows, bytes, inner.bucketsDone(), inner.buckets(), inner.lakeFiles());
    }

    @Override
    public Map<TableBucket, Long> logStartOffsets() {
        return source.logStartOffsets();
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return source.logStopOffsets();
    }

    @Override
    public Optional<Long> lakeSnapshotId() {
        return source.lakeSnapshotId();
    }

    /** The limit was reached, and the read had not run to its end: rows the filter would keep may be left. */
    @Override
    public boolean truncated() {
        return remaining == 0 && !closed && (pending != null || rowsLeftInBatch || source.hasNext());
    }

    @Override
    public BufferAllocator allocator() {
        return source.allocator();
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
        } finally {
            source.close();
        }
    }
}
