package dev.riffle.lake.source;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ProducedBatchReader;
import dev.riffle.core.types.ArrowTypeMapping;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.types.RowType;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.columnar.VectorizedColumnBatch;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.reader.VectorizedRecordIterator;

/**
 * One Paimon split as Arrow batches of about {@value #BATCH_ROWS} rows, read with Paimon's own
 * reader: each of its column batches is copied into Arrow column by column
 * ({@link PaimonColumnCopier}), without a row object in between. A reader that hands out rows
 * instead (a primary-key split whose files Paimon merges, or a batch Paimon filtered row by row)
 * is copied row by row into the same vectors. Closing releases Paimon's batch and reader.
 */
final class PaimonColumnarReader extends ProducedBatchReader {
    static final int BATCH_ROWS = 8192;

    private final RecordReader<InternalRow> reader;
    private final RowType rowType;
    private final String split;
    private RecordReader.RecordIterator<InternalRow> rows;
    /** Paimon's reader said it has no more batches: it is not asked again. */
    private boolean exhausted;

    /**
     * @param reader Paimon's reader of the split, projected to {@code rowType}'s columns; closed with this reader
     * @param split what the split is, for errors
     */
    PaimonColumnarReader(RecordReader<InternalRow> reader, RowType rowType, BufferAllocator allocator, String split) {
        super(ArrowTypeMapping.toArrowSchema(rowType), allocator);
        this.reader = requireNonNull(reader, "reader is null");
        this.rowType = requireNonNull(rowType, "rowType is null");
        this.split = requireNonNull(split, "split is null");
    }

    @Override
    protected VectorSchemaRoot produce() {
        VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator());
        try {
            int filled = fill(root);
            if (filled == 0) {
                root.close();
                return null;
            }
            root.setRowCount(filled);
            return root;
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
        while (filled < BATCH_ROWS && !exhausted) {
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
                releaseBatch();
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
                releaseBatch(); // this batch of rows is done; the next call reads the next one
            }
        }
        return filled;
    }

    private void releaseBatch() {
        if (rows != null) {
            rows.releaseBatch();
            rows = null;
        }
    }

    @Override
    protected void release() {
        try {
            releaseBatch();
        } finally {
            try {
                reader.close();
            } catch (IOException e) {
                throw new UncheckedIOException("Closing the reader of lake split " + split + " failed", e);
            }
        }
    }
}
