package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowRowView;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.row.InternalRow;

/**
 * One row of an Arrow log batch seen as the Fluss {@link LogRecord} a lake writer takes, without
 * copying the row: the Arrow span reader moves this cursor over a batch instead of having the Fluss
 * log scanner build a record object per row. {@link BucketLogReads} makes one per batch.
 *
 * <pre>{@code
 * for (int i = 0; i < batch.rowCount(); i++) {
 *     writer.write(batch.at(i));
 * }
 * }</pre>
 *
 * <p>The log offset is the batch's base offset plus the row's index (batches never skip offsets
 * inside), the timestamp is the batch's commit timestamp (what Fluss gives every record of a
 * batch), and the change type is {@code +A} for log tables or read from the changelog's
 * {@code _change_type} column for primary-key tables. A cursor, not a value: a writer must not keep
 * it (lake writers copy or encode each row as it is written). The batch's owner frees it.
 */
final class ArrowBatchRecord implements LogRecord {
    private final VectorSchemaRoot root;
    private final int fields;
    private final ArrowRowView row;
    private final long baseOffset;
    private final long timestamp;
    private final int rowCount;
    private final VarCharVector changeTypes;
    private int index;

    /**
     * @param root the batch's vectors
     * @param fields how many leading vectors of the batch are the table's columns
     * @param baseOffset the log offset of the batch's first row
     * @param commitTimestamp when the batch was committed (milliseconds since the epoch)
     * @param changeTypes the changelog's {@code _change_type} vector (primary-key tables); empty for
     *     a log table, whose rows are all appends
     */
    ArrowBatchRecord(VectorSchemaRoot root, int fields, long baseOffset, long commitTimestamp,
            Optional<VarCharVector> changeTypes) {
        this.root = requireNonNull(root, "root is null");
        this.fields = fields;
        int[] positions = new int[fields];
        for (int i = 0; i < fields; i++) {
            positions[i] = i;
        }
        this.row = new ArrowRowView(root, positions);
        this.rowCount = root.getRowCount();
        this.baseOffset = baseOffset;
        this.timestamp = commitTimestamp;
        this.changeTypes = requireNonNull(changeTypes, "changeTypes is null").orElse(null);
    }

    /** How many rows the batch holds. */
    int rowCount() {
        return rowCount;
    }

    /** How many leading vectors of the batch are the table's columns. */
    int fields() {
        return fields;
    }

    /** The vector of the table's column {@code field} ({@code field < fields()}). */
    FieldVector vector(int field) {
        return root.getVector(field);
    }

    /** The row the cursor is at. */
    int index() {
        return index;
    }

    /** The cursor's row as Fluss's row type, the same object {@link #getRow()} returns. */
    ArrowRowView rowView() {
        return row;
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
