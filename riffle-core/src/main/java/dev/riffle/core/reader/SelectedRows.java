package dev.riffle.core.reader;

import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;

/**
 * Some rows of a batch, copied into a new batch allocated for exactly those rows: what a filter,
 * a limit or a merge by key hands on when it keeps part of a batch.
 *
 * <pre>{@code
 * VectorSchemaRoot kept = SelectedRows.copy(batch, new int[] {0, 2}, schema, rows, count, allocator);
 * }</pre>
 *
 * <p>Each column is sized before the copy (a text column by the bytes of the rows kept), so no
 * buffer is reallocated while rows are copied, as Arrow's growing setters would do many times
 * over for a batch of thousands of rows; fixed- and variable-width columns are then copied buffer
 * to buffer.
 */
public final class SelectedRows {
    private SelectedRows() {}

    /**
     * Rows {@code rows[0..count)} of {@code from}'s columns {@code columns}, as a batch of
     * {@code schema} (one field per column, of the same types) owned by the caller.
     */
    public static VectorSchemaRoot copy(VectorSchemaRoot from, int[] columns, Schema schema, int[] rows, int count,
            BufferAllocator allocator) {
        VectorSchemaRoot to = VectorSchemaRoot.create(schema, allocator);
        try {
            List<FieldVector> targets = to.getFieldVectors();
            for (int i = 0; i < columns.length; i++) {
                FieldVector source = from.getVector(columns[i]);
                FieldVector target = targets.get(i);
                allocate(source, target, rows, count);
                if (source.getClass() != target.getClass()) {
                    copyValues(source, target, rows, count);
                } else if (source instanceof BaseVariableWidthVector text) {
                    copyVariableWidth(text, (BaseVariableWidthVector) target, rows, count);
                } else if (source instanceof BaseFixedWidthVector fixed && !(source instanceof BitVector)) {
                    copyFixedWidth(fixed, (BaseFixedWidthVector) target, rows, count);
                } else {
                    copyValues(source, target, rows, count);
                }
                target.setValueCount(count);
            }
            to.setRowCount(count);
            return to;
        } catch (RuntimeException e) {
            to.close();
            throw e;
        }
    }

    private static void copyValues(FieldVector source, FieldVector target, int[] rows, int count) {
        TransferPair pair = source.makeTransferPair(target);
        for (int row = 0; row < count; row++) {
            pair.copyValueSafe(rows[row], row);
        }
    }

    // The two loops below copy buffer to buffer: Arrow's per-value copy checks capacity and
    // reallocation for every value, which costs more than the copy itself.
    private static void copyVariableWidth(BaseVariableWidthVector source, BaseVariableWidthVector target, int[] rows,
            int count) {
        ArrowBuf fromValidity = source.getValidityBuffer();
        ArrowBuf fromOffsets = source.getOffsetBuffer();
        ArrowBuf fromData = source.getDataBuffer();
        ArrowBuf toValidity = target.getValidityBuffer();
        ArrowBuf toOffsets = target.getOffsetBuffer();
        ArrowBuf toData = target.getDataBuffer();
        int end = 0;
        toOffsets.setInt(0, 0);
        for (int i = 0; i < count; i++) {
            int row = rows[i];
            BitVectorHelper.setValidityBit(toValidity, i, BitVectorHelper.get(fromValidity, row));
            int start = fromOffsets.getInt((long) row * BaseVariableWidthVector.OFFSET_WIDTH);
            int length = fromOffsets.getInt((long) (row + 1) * BaseVariableWidthVector.OFFSET_WIDTH) - start;
            toData.setBytes(end, fromData, start, length);
            end += length;
            toOffsets.setInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH, end);
        }
        target.setLastSet(count - 1);
    }

    private static void copyFixedWidth(BaseFixedWidthVector source, BaseFixedWidthVector target, int[] rows, int count) {
        ArrowBuf fromValidity = source.getValidityBuffer();
        ArrowBuf fromData = source.getDataBuffer();
        ArrowBuf toValidity = target.getValidityBuffer();
        ArrowBuf toData = target.getDataBuffer();
        int width = source.getTypeWidth();
        for (int i = 0; i < count; i++) {
            int row = rows[i];
            BitVectorHelper.setValidityBit(toValidity, i, BitVectorHelper.get(fromValidity, row));
            switch (width) {
                case 4 -> toData.setInt((long) i * 4, fromData.getInt((long) row * 4));
                case 8 -> toData.setLong((long) i * 8, fromData.getLong((long) row * 8));
                default -> toData.setBytes((long) i * width, fromData, (long) row * width, width);
            }
        }
    }

    private static void allocate(FieldVector source, FieldVector target, int[] rows, int count) {
        if (source instanceof BaseVariableWidthVector text && target instanceof BaseVariableWidthVector into) {
            long bytes = 0;
            for (int row = 0; row < count; row++) {
                bytes += text.getValueLength(rows[row]);
            }
            into.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
        } else if (target instanceof BaseFixedWidthVector fixed) {
            fixed.allocateNew(Math.max(count, 1));
        } else {
            target.setInitialCapacity(Math.max(count, 1));
            target.allocateNew();
        }
    }
}
