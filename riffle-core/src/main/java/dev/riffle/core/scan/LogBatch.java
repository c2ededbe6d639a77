package dev.riffle.core.scan;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.LogRange;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.StoredBatch;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * Rows of one bucket as an Arrow batch, with where they came from. The batch owns its rows: close
 * it when done (before closing the reader or scanner it came from).
 *
 * <p>Row {@code i} of the batch is the record at log offset {@code baseOffset + i} for log tables
 * and for changelogs: batches never skip offsets inside, and slicing keeps that true.
 *
 * <p>A batch that is exactly one stored batch of the log, in every column and nothing else, is
 * kept as Fluss stored it ({@link #stored()}) until something asks for its {@link #root()}: a
 * server that sends it on as it is never decodes it.
 *
 * <pre>{@code
 * try (LogBatch batch = batches.get(0)) {
 *     System.out.println(batch.bucket() + ": offsets " + batch.baseOffset() + " to " + batch.endOffset());
 * }
 * }</pre>
 */
public final class LogBatch implements ReadBatch {
    private final TableBucket bucket;
    private final Optional<String> partitionName;
    private final long baseOffset;
    private final long commitTimestamp;
    private final int rowCount;
    /** Set once decoded; until then {@link #stored} holds the rows. */
    private VectorSchemaRoot root;
    private StoredBatch stored;
    private final Function<ArrowRecordBatch, VectorSchemaRoot> decoder;

    /**
     * @param bucket the bucket (with its partition id for partitioned tables)
     * @param partitionName the partition's name, for partitioned tables
     * @param baseOffset log offset of the first row
     * @param commitTimestamp when the leader appended these rows, milliseconds since the epoch
     * @param root the rows (taken over); {@code root.getRowCount()} is never 0
     */
    public LogBatch(TableBucket bucket, Optional<String> partitionName, long baseOffset, long commitTimestamp,
            VectorSchemaRoot root) {
        this(bucket, partitionName, baseOffset, commitTimestamp, requireNonNull(root, "root is null").getRowCount(),
                root, null, null);
    }

    private LogBatch(TableBucket bucket, Optional<String> partitionName, long baseOffset, long commitTimestamp,
            int rowCount, VectorSchemaRoot root, StoredBatch stored, Function<ArrowRecordBatch, VectorSchemaRoot> decoder) {
        this.bucket = requireNonNull(bucket, "bucket is null");
        this.partitionName = requireNonNull(partitionName, "partitionName is null");
        this.baseOffset = baseOffset;
        this.commitTimestamp = commitTimestamp;
        this.rowCount = rowCount;
        this.root = root;
        this.stored = stored;
        this.decoder = decoder;
    }

    /**
     * A batch of the rows of {@code stored} (taken over), decoded by {@code decoder} (which leaves
     * the record batch to its caller) when its root is first asked for.
     */
    static LogBatch stored(TableBucket bucket, Optional<String> partitionName, long baseOffset, long commitTimestamp,
            Schema schema, ArrowRecordBatch stored, Function<ArrowRecordBatch, VectorSchemaRoot> decoder) {
        requireNonNull(stored, "stored is null");
        return new LogBatch(bucket, partitionName, baseOffset, commitTimestamp, stored.getLength(), null,
                new StoredBatch(schema, stored), requireNonNull(decoder, "decoder is null"));
    }

    public TableBucket bucket() {
        return bucket;
    }

    public Optional<String> partitionName() {
        return partitionName;
    }

    public long baseOffset() {
        return baseOffset;
    }

    public long commitTimestamp() {
        return commitTimestamp;
    }

    /** The rows, decoded now if they were still as stored. */
    @Override
    public VectorSchemaRoot root() {
        if (root == null) {
            if (stored == null) {
                throw new IllegalStateException(this + " has no rows: it was closed, or decoding it failed");
            }
            // The stored batch is given up first: a batch that fails to decode has no rows left to hold.
            StoredBatch held = stored;
            stored = null;
            try (ArrowRecordBatch batch = held.batch()) {
                root = decoder.apply(batch);
            }
        }
        return root;
    }

    @Override
    public Optional<StoredBatch> stored() {
        return Optional.ofNullable(stored);
    }

    @Override
    public int rowCount() {
        return rowCount;
    }

    /** The bytes of the rows' Arrow buffers, decoded: a batch still as stored counts what decoding it will take. */
    @Override
    public long bufferBytes() {
        if (root != null) {
            return ReadBatch.super.bufferBytes();
        }
        return stored == null ? 0 : stored.decodedBytes();
    }

    /** Every offset from {@code baseOffset} to {@link #endOffset()}, one row each. */
    @Override
    public Optional<LogRange> logRange() {
        return Optional.of(new LogRange(bucket, partitionName, baseOffset, endOffset()));
    }

    /** The offset after the last row. */
    public long endOffset() {
        return baseOffset + rowCount;
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
        return new LogBatch(bucket, partitionName, baseOffset + from, commitTimestamp, root().slice(from, length));
    }

    /**
     * Moves this batch's buffers into {@code target} (same schema), without copying: the target
     * then holds the rows and this batch is empty.
     */
    public void transferTo(VectorSchemaRoot target) {
        VectorSchemaRoot rows = root();
        for (int i = 0; i < rows.getFieldVectors().size(); i++) {
            rows.getVector(i).makeTransferPair(target.getVector(i)).transfer();
        }
        target.setRowCount(rowCount);
    }

    @Override
    public void close() {
        if (root != null) {
            root.close();
        }
        if (stored != null) {
            stored.batch().close();
            stored = null;
        }
    }

    @Override
    public String toString() {
        return "LogBatch[" + bucket + ", offsets " + baseOffset + " to " + endOffset()
                + (stored != null ? ", stored" : "") + "]";
    }
}
