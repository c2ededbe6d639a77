package dev.riffle.lake.source;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.types.ArrowTypeMapping;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.types.RowType;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.columnar.VectorizedColumnBatch;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.reader.VectorizedRecordIterator;

/**
 * One Paimon split of an append table as Arrow batches of about {@value #BATCH_ROWS} rows, read
 * with Paimon's own columnar reader: each of its column batches is copied into Arrow column by
 * column ({@link PaimonColumnCopier}), without a row object in between. A reader that hands out
 * rows instead (not a columnar file format, or a batch Paimon filtered row by row) is copied row
 * by row into the same vectors. Closing releases Paimon's batch and reader.
 */
final class PaimonColumnarReader implements TableReader {
    static final int BATCH_ROWS = 8192;

    private final RecordReader<InternalRow> reader;
    private final RowType rowType;
    private final Schema schema;
    private final BufferAllocator allocator;
    private final String split;
    private RecordReader.RecordIterator<InternalRow> rows;
    private VectorSchemaRoot pending;
    private boolean exhausted;
    private boolean closed;
    private long rowsOut;
    private long bytes;

    /**
     * @param reader Paimon's reader of the split, projected to {@code rowType}'s columns; closed with this reader
     * @param split what the split is, for errors
     */
    PaimonColumnarReader(RecordReader<InternalRow> reader, RowType rowType, BufferAllocator allocator, String split) {
        this.reader = requireNonNull(reader, "reader is null");
        this.rowType = requireNonNull(rowType, "rowType is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.split = requireNonNull(split, "split is null");
        this.schema = ArrowTypeMapping.toArrowSchema(rowType);
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
        if (exhausted) {
            return false;
        }
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            int filled = fill(root);
            if (filled == 0) {
                root.close();
                return false;
            }
            root.setRowCount(filled);
            pending = root;
            return true;
        } catch (IOException e) {
            root.close();
            throw new UncheckedIOException("Cannot read lake split " + split + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            root.close();
            throw e;
        }
    }

    private int fill(VectorSchemaRoot root) throws IOException {
        List<FieldVector> vectors = root.getFieldVectors();
        PaimonColumnCopier[] copiers = new PaimonColumnCopier[vectors.size()];
        for (int i = 0; i < copiers.length; i++) {
            FieldVector vector = vectors.get(i);
            vector.setInitialCapacity(BATCH_ROWS + 1024);
            vector.allocateNew();
            int column = i;
            copiers[i] = PaimonColumnCopier.of(rowType.getTypeAt(i), vector).orElseThrow(() ->
                    new IllegalStateException("No columnar copy for column " + rowType.getFieldNames().get(column)
                            + " of type " + rowType.getTypeAt(column)));
        }
        int filled = 0;
        while (filled < BATCH_ROWS) {
            if (rows == null) {
                rows = reader.readBatch();
                if (rows == null) {
                    exhausted = true;
                    break;
                }
            }
            if (rows instanceof VectorizedRecordIterator columnar) {
                VectorizedColumnBatch batch = columnar.batch();
                int count = batch.getNumRows();
                for (int i = 0; i < copiers.length; i++) {
                    copiers[i].copyColumn(batch.columns[i], count, filled);
                }
                filled += count;
                release();
                continue;
            }
            InternalRow row;
            while (filled < BATCH_ROWS && (row = rows.next()) != null) {
                for (int i = 0; i < copiers.length; i++) {
                    copiers[i].copy(row, i, filled);
                }
                filled++;
            }
            if (filled < BATCH_ROWS) {
                release(); // this batch of rows is done; the next call reads the next one
            }
        }
        return filled;
    }

    private void release() {
        if (rows != null) {
            rows.releaseBatch();
            rows = null;
        }
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
            release();
        } finally {
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Closing the reader of lake split " + split + " failed", e);
            }
        }
    }
}
