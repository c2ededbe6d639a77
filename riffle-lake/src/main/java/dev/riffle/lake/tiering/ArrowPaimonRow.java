package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowColumnMemory;
import dev.riffle.core.types.ArrowRowView;
import dev.riffle.core.types.EpochUnits;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.VarCharVector;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalArray;
import org.apache.paimon.data.InternalMap;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.data.variant.Variant;
import org.apache.paimon.memory.MemorySegment;
import org.apache.paimon.types.RowKind;
import org.apache.paimon.types.RowType;

/**
 * The row of an Arrow log batch that an {@link ArrowBatchRecord} points at, as the Paimon row a log
 * table's lake file holds: the table's columns, then Fluss's {@code __bucket}, {@code __offset} and
 * {@code __timestamp}. What Fluss's {@code FlussRecordAsPaimonRow} makes of a record, read from the
 * vectors directly: strings are Paimon strings over the batch's own Arrow buffer (viewed, not
 * copied), timestamps come from the vector's value and unit without an intermediate Fluss
 * timestamp. {@link PaimonAppendWriter} writes Arrow-read spans through it.
 *
 * <pre>{@code
 * ArrowPaimonRow row = new ArrowPaimonRow(bucket, paimonTable.rowType());
 * bucketWriter.write(row.at(record));
 * }</pre>
 *
 * <p>A view, like the record: valid until the cursor moves and while the batch is open. Paimon's
 * file writers copy each value into their own pages as the row is written (Parquet, ORC and Avro
 * writers all take a string's bytes with {@code toBytes}, a copy for off-heap memory), so nothing
 * of the batch outlives the write.
 */
final class ArrowPaimonRow implements InternalRow {
    static final List<String> SYSTEM_COLUMNS = List.of("__bucket", "__offset", "__timestamp");

    private final int bucket;
    private final int fieldCount;
    private final int businessFields;
    private ArrowBatchRecord record;
    /** The record's row as Fluss sees it: what the numeric getters and null checks read. */
    private ArrowRowView view;
    /** Per column of the current batch: a string column's data as a Paimon segment, or null. */
    private MemorySegment[][] strings = new MemorySegment[0][];
    /** Per column of the current batch: a string column's offsets and validity, or null. */
    private ArrowColumnMemory[] stringColumns = new ArrowColumnMemory[0];
    private int columnsInBatch;
    /** The batch's commit time, the same for each of its rows (Paimon's timestamps are immutable). */
    private Timestamp commitTimestamp;

    /**
     * @param bucket the Fluss bucket written (the {@code __bucket} value)
     * @param paimonRowType the Paimon table's row type, Fluss's three system columns last
     */
    ArrowPaimonRow(int bucket, RowType paimonRowType) {
        requireNonNull(paimonRowType, "paimonRowType is null");
        this.bucket = bucket;
        this.fieldCount = paimonRowType.getFieldCount();
        this.businessFields = fieldCount - SYSTEM_COLUMNS.size();
        if (businessFields < 0 || !paimonRowType.getFieldNames().subList(businessFields, fieldCount).equals(SYSTEM_COLUMNS)) {
            throw new IllegalArgumentException("A tiered Paimon table ends with Fluss's columns " + SYSTEM_COLUMNS
                    + "; this one has " + paimonRowType.getFieldNames());
        }
    }

    /** Points this row at the record's row, taking the record's batch's vectors when it is a new batch. */
    ArrowPaimonRow at(ArrowBatchRecord record) {
        if (record != this.record) {
            bind(record);
        }
        return this;
    }

    private void bind(ArrowBatchRecord batch) {
        this.record = batch;
        this.view = batch.rowView();
        this.commitTimestamp = Timestamp.fromEpochMillis(batch.timestamp());
        // A batch wider than the lake table (a column added in Fluss first) writes the lake's columns;
        // a narrower one pads the rest with nulls, as Fluss's row adapter does.
        this.columnsInBatch = Math.min(batch.fields(), businessFields);
        this.strings = new MemorySegment[columnsInBatch][];
        this.stringColumns = new ArrowColumnMemory[columnsInBatch];
        for (int i = 0; i < columnsInBatch; i++) {
            if (batch.vector(i) instanceof VarCharVector text) {
                ArrowBuf data = text.getDataBuffer();
                strings[i] = new MemorySegment[] {data.capacity() == 0 ? MemorySegment.wrap(new byte[0])
                        : MemorySegment.wrapOffHeapMemory(data.nioBuffer(0, Math.toIntExact(data.capacity())))};
                stringColumns[i] = view.column(i).orElseThrow();
            }
        }
    }

    @Override
    public int getFieldCount() {
        return fieldCount;
    }

    @Override
    public RowKind getRowKind() {
        return switch (record.getChangeType()) {
            case APPEND_ONLY, INSERT -> RowKind.INSERT;
            case UPDATE_BEFORE -> RowKind.UPDATE_BEFORE;
            case UPDATE_AFTER -> RowKind.UPDATE_AFTER;
            case DELETE -> RowKind.DELETE;
        };
    }

    @Override
    public void setRowKind(RowKind kind) {
        throw new UnsupportedOperationException("A row of a Fluss log batch is read-only");
    }

    @Override
    public boolean isNullAt(int pos) {
        if (pos < columnsInBatch) {
            return view.isNullAt(pos);
        }
        return pos < businessFields; // a column the batch lacks; the system columns are never null
    }

    @Override
    public boolean getBoolean(int pos) {
        return view.getBoolean(pos);
    }

    @Override
    public byte getByte(int pos) {
        return view.getByte(pos);
    }

    @Override
    public short getShort(int pos) {
        return view.getShort(pos);
    }

    @Override
    public int getInt(int pos) {
        return pos == businessFields ? bucket : view.getInt(pos);
    }

    @Override
    public long getLong(int pos) {
        if (pos == businessFields + 1) {
            return record.logOffset();
        }
        if (pos == businessFields + 2) {
            return record.timestamp();
        }
        return view.getLong(pos);
    }

    @Override
    public float getFloat(int pos) {
        return view.getFloat(pos);
    }

    @Override
    public double getDouble(int pos) {
        return view.getDouble(pos);
    }

    @Override
    public BinaryString getString(int pos) {
        ArrowColumnMemory column = stringColumns[pos];
        int index = view.index();
        int start = column.start(index);
        return BinaryString.fromAddress(strings[pos], start, column.end(index) - start);
    }

    @Override
    public Decimal getDecimal(int pos, int precision, int scale) {
        org.apache.fluss.row.Decimal value = view.getDecimal(pos, precision, scale);
        return value.isCompact() ? Decimal.fromUnscaledLong(value.toUnscaledLong(), precision, scale)
                : Decimal.fromBigDecimal(value.toBigDecimal(), precision, scale);
    }

    @Override
    public Timestamp getTimestamp(int pos, int precision) {
        if (pos == businessFields + 2) {
            return commitTimestamp;
        }
        long value = view.timestampCount(pos);
        EpochUnits unit = view.timestampUnit(pos);
        return Timestamp.fromEpochMillis(unit.epochMillisecond(value), unit.nanoOfMillisecond(value));
    }

    @Override
    public byte[] getBinary(int pos) {
        return view.getBytes(pos);
    }

    @Override
    public Variant getVariant(int pos) {
        throw nested(pos);
    }

    @Override
    public InternalArray getArray(int pos) {
        throw nested(pos);
    }

    @Override
    public InternalMap getMap(int pos) {
        throw nested(pos);
    }

    @Override
    public InternalRow getRow(int pos, int fields) {
        throw nested(pos);
    }

    private UnsupportedOperationException nested(int pos) {
        // ArrowLogSpanReader refuses tables with nested columns (BucketLogReads.arrowLimitation).
        return new UnsupportedOperationException("Column " + record.vector(pos).getName()
                + " is nested; Arrow-read tiering writes flat columns only");
    }
}
