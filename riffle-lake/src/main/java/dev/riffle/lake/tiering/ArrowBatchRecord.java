package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.core.types.ArrowRowView;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VarCharVector;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;

/**
 * One row of a {@link LogBatch} seen as the Fluss {@link LogRecord} a lake writer takes, without
 * copying the row: the tiering round moves this cursor over a batch instead of having the Fluss log
 * scanner build a record object per row.
 *
 * <p>The log offset is the batch's base offset plus the row's index (batches never skip offsets
 * inside), the timestamp is the batch's commit timestamp (what Fluss gives every record of a
 * batch), and the change type is {@code +A} for log tables or read from the changelog's
 * {@code _change_type} column for primary-key tables. A cursor, not a value: a writer must not keep
 * it (lake writers copy or encode each row as it is written).
 */
final class ArrowBatchRecord implements LogRecord {
    private final ArrowRowView row;
    private final long baseOffset;
    private final long timestamp;
    private final VarCharVector changeTypes;
    private int index;

    /**
     * @param fields how many leading vectors of the batch are the table's columns
     * @param changelog whether the batch carries {@code _change_type} (primary-key tables)
     */
    ArrowBatchRecord(LogBatch batch, int fields, boolean changelog) {
        requireNonNull(batch, "batch is null");
        int[] positions = new int[fields];
        for (int i = 0; i < fields; i++) {
            positions[i] = i;
        }
        this.row = new ArrowRowView(batch.root(), positions);
        this.baseOffset = batch.baseOffset();
        this.timestamp = batch.commitTimestamp();
        this.changeTypes = changelog ? (VarCharVector) batch.root().getVector(ArrowLogScanner.CHANGE_TYPE_COLUMN) : null;
    }

    /** Points the cursor at row {@code index} of the batch. */
    ArrowBatchRecord at(int index) {
        this.index = index;
        row.at(index);
        return this;
    }

    @Override
    public long logOffset() {
        return baseOffset + index;
    }

    @Override
    public long timestamp() {
        return timestamp;
    }

    @Override
    public ChangeType getChangeType() {
        if (changeTypes == null) {
            return ChangeType.APPEND_ONLY;
        }
        // "+A", "+I", "-U", "+U" or "-D" (riffle-core's ChangeTypes), read without copying.
        ArrowBuf data = changeTypes.getDataBuffer();
        long start = changeTypes.getStartOffset(index);
        byte sign = data.getByte(start);
        byte kind = data.getByte(start + 1);
        return switch (kind) {
            case 'A' -> ChangeType.APPEND_ONLY;
            case 'I' -> ChangeType.INSERT;
            case 'U' -> sign == '-' ? ChangeType.UPDATE_BEFORE : ChangeType.UPDATE_AFTER;
            case 'D' -> ChangeType.DELETE;
            default -> throw new IllegalStateException("Unknown change type '" + (char) sign + (char) kind
                    + "' at log offset " + logOffset());
        };
    }

    @Override
    public InternalRow getRow() {
        return row;
    }
}
