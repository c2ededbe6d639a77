package dev.riffle.core.scan;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.LogRange;
import dev.riffle.core.reader.ReadBatch;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.metadata.TableBucket;

/**
 * Rows of one bucket as an Arrow batch, with where they came from. The batch owns its
 * {@link VectorSchemaRoot}: close it when done (before closing the reader or scanner it came from).
 *
 * <p>Row {@code i} of the batch is the record at log offset {@code baseOffset + i} for log tables
 * and for changelogs: batches never skip offsets inside, and slicing keeps that true.
 *
 * @param bucket the bucket (with its partition id for partitioned tables)
 * @param partitionName the partition's name, for partitioned tables
 * @param baseOffset log offset of the first row
 * @param commitTimestamp when the leader appended these rows, milliseconds since the epoch
 * @param root the rows; {@code root.getRowCount()} is never 0
 */
public record LogBatch(TableBucket bucket, Optional<String> partitionName, long baseOffset, long commitTimestamp,
        VectorSchemaRoot root) implements ReadBatch {

    public LogBatch {
        requireNonNull(bucket, "bucket is null");
        requireNonNull(partitionName, "partitionName is null");
        requireNonNull(root, "root is null");
    }

    @Override
    public int rowCount() {
        return root.getRowCount();
    }

    /** Every offset from {@code baseOffset} to {@link #endOffset()}, one row each. */
    @Override
    public Optional<LogRange> logRange() {
        return Optional.of(new LogRange(bucket, partitionName, baseOffset, endOffset()));
    }

    /** The offset after the last row. */
    public long endOffset() {
        return baseOffset + root.getRowCount();
    }

    /**
     * Rows {@code [from, from + length)} as a new batch that owns its own buffers (shared with this
     * one where Arrow can, copied where it cannot). This batch stays valid and must still be closed.
     */
    public LogBatch slice(int from, int length) {
        if (from < 0 || length <= 0 || from + length > rowCount()) {
            throw new IndexOutOfBoundsException("slice [" + from + ", " + (from + length) + ") of a batch of "
                    + rowCount() + " rows");
        }
        return new LogBatch(bucket, partitionName, baseOffset + from, commitTimestamp, root.slice(from, length));
    }

    /**
     * Moves this batch's buffers into {@code target} (same schema), without copying: the target
     * then holds the rows and this batch is empty.
     */
    public void transferTo(VectorSchemaRoot target) {
        int rows = rowCount();
        for (int i = 0; i < root.getFieldVectors().size(); i++) {
            root.getVector(i).makeTransferPair(target.getVector(i)).transfer();
        }
        target.setRowCount(rows);
    }

    @Override
    public void close() {
        root.close();
    }
}
