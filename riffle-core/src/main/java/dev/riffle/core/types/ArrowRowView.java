package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;

/**
 * One row of an Arrow batch seen as a Fluss {@link InternalRow}, without copying, so Fluss
 * predicates ({@code org.apache.fluss.predicate.Predicate#test}) can run on Arrow data.
 *
 * <p>Positions are those of a wider row (the table's): {@code positions[field]} says which vector
 * holds table field {@code field}, or -1 when the batch does not carry it. Move the view with
 * {@link #at(int)}; it is a cursor, not a value.
 *
 * <pre>{@code
 * ArrowRowView row = new ArrowRowView(batch, positions);
 * for (int i = 0; i < batch.getRowCount(); i++) {
 *     if (predicate.test(row.at(i))) { ... }
 * }
 * }</pre>
 *
 * <p>Scalar types only: nested values (ARRAY, MAP, ROW) are not viewed, and asking for one fails.
 */
public final class ArrowRowView implements InternalRow {
    private final FieldVector[] vectors;
    /** For each VARCHAR field, its vector's data as Fluss memory, which strings view; else null. */
    private final MemorySegment[][] stringData;
    private int row;

    public ArrowRowView(VectorSchemaRoot batch, int[] positions) {
        requireNonNull(batch, "batch is null");
        this.vectors = new FieldVector[positions.length];
        this.stringData = new MemorySegment[positions.length][];
        for (int field = 0; field < positions.length; field++) {
            vectors[field] = positions[field] < 0 ? null : batch.getVector(positions[field]);
            if (vectors[field] instanceof VarCharVector strings) {
                ArrowBuf data = strings.getDataBuffer();
                stringData[field] = new MemorySegment[] {
                    MemorySegment.wrapOffHeapMemory(data.nioBuffer(0, (int) data.capacity()))};
            }
        }
    }

    /** Points the view at row {@code index} of the batch. */
    public ArrowRowView at(int index) {
        this.row = index;
        return this;
    }

    @Override
    public int getFieldCount() {
        return vectors.length;
    }

    private FieldVector vector(int pos) {
        FieldVector vector = vectors[pos];
        if (vector == null) {
            throw new IllegalStateException("Field " + pos + " was not read, so it cannot be evaluated");
        }
        return vector;
    }

    @Override
    public boolean isNullAt(int pos) {
        return vector(pos).isNull(row);
    }

    @Override
    public boolean getBoolean(int pos) {
        return ((BitVector) vector(pos)).get(row) != 0;
    }

    @Override
    public byte getByte(int pos) {
        return ((TinyIntVector) vector(pos)).get(row);
    }

    @Override
    public short getShort(int pos) {
        return ((SmallIntVector) vector(pos)).get(row);
    }

    @Override
    public int getInt(int pos) {
        FieldVector vector = vector(pos);
        // INT, DATE (days) and TIME (milliseconds of the day, Fluss's representation) all read as int.
        if (vector instanceof IntVector ints) {
            return ints.get(row);
        }
        if (vector instanceof DateDayVector days) {
            return days.get(row);
        }
        if (vector instanceof TimeMilliVector millis) {
            return millis.get(row);
        }
        if (vector instanceof TimeSecVector seconds) {
            return seconds.get(row) * 1000;
        }
        if (vector instanceof TimeMicroVector micros) {
            return (int) (micros.get(row) / 1000);
        }
        if (vector instanceof TimeNanoVector nanos) {
            return (int) (nanos.get(row) / 1_000_000);
        }
        throw unsupported(pos, "int");
    }

    @Override
    public long getLong(int pos) {
        return ((BigIntVector) vector(pos)).get(row);
    }

    @Override
    public float getFloat(int pos) {
        return ((Float4Vector) vector(pos)).get(row);
    }

    @Override
    public double getDouble(int pos) {
        return ((Float8Vector) vector(pos)).get(row);
    }

    @Override
    public BinaryString getChar(int pos, int length) {
        return getString(pos);
    }

    /**
     * The string views the batch's memory, not a copy: it is valid while the batch is. Fluss's
     * writer copies it into its own batch as the row is appended, and predicates only compare it;
     * whoever keeps one longer must copy it ({@link BinaryString#copy()}).
     */
    @Override
    public BinaryString getString(int pos) {
        VarCharVector vector = (VarCharVector) vector(pos);
        if (vector.isNull(row)) {
            throw new IllegalStateException("Field " + pos + " is null at row " + row + "; ask isNullAt first");
        }
        int start = vector.getStartOffset(row);
        return BinaryString.fromAddress(stringData[pos], start, vector.getEndOffset(row) - start);
    }

    @Override
    public Decimal getDecimal(int pos, int precision, int scale) {
        BigDecimal value = ((DecimalVector) vector(pos)).getObject(row);
        return Decimal.fromBigDecimal(value, precision, scale);
    }

    @Override
    public TimestampNtz getTimestampNtz(int pos, int precision) {
        TimeStampVector vector = (TimeStampVector) vector(pos);
        EpochUnits unit = unitOf(vector);
        long count = vector.get(row);
        return TimestampNtz.fromMillis(unit.epochMillisecond(count), unit.nanoOfMillisecond(count));
    }

    @Override
    public TimestampLtz getTimestampLtz(int pos, int precision) {
        TimeStampVector vector = (TimeStampVector) vector(pos);
        EpochUnits unit = unitOf(vector);
        long count = vector.get(row);
        return TimestampLtz.fromEpochMillis(unit.epochMillisecond(count), unit.nanoOfMillisecond(count));
    }

    private static EpochUnits unitOf(TimeStampVector vector) {
        return EpochUnits.of(((ArrowType.Timestamp) vector.getField().getType()).getUnit());
    }

    @Override
    public byte[] getBinary(int pos, int length) {
        FieldVector vector = vector(pos);
        if (vector instanceof FixedSizeBinaryVector fixed) {
            return fixed.get(row);
        }
        return getBytes(pos);
    }

    @Override
    public byte[] getBytes(int pos) {
        FieldVector vector = vector(pos);
        if (vector instanceof VarBinaryVector bytes) {
            return bytes.get(row);
        }
        if (vector instanceof FixedSizeBinaryVector fixed) {
            return fixed.get(row);
        }
        throw unsupported(pos, "bytes");
    }

    @Override
    public InternalArray getArray(int pos) {
        throw unsupported(pos, "an ARRAY");
    }

    @Override
    public InternalMap getMap(int pos) {
        throw unsupported(pos, "a MAP");
    }

    @Override
    public InternalRow getRow(int pos, int numFields) {
        throw unsupported(pos, "a ROW");
    }

    private UnsupportedOperationException unsupported(int pos, String what) {
        FieldVector vector = vectors[pos];
        return new UnsupportedOperationException("Field '" + (vector == null ? pos : vector.getName()) + "' ("
                + (vector == null ? "not read" : vector.getField().getType()) + ") cannot be viewed as " + what
                + (vector instanceof BaseFixedWidthVector ? "" : "; filters on nested columns are not supported"));
    }
}
