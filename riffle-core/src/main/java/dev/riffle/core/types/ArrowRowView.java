package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import java.math.BigDecimal;
import java.util.Optional;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
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
 * Integers, floats, dates, times, timestamps, strings and nulls are read through
 * {@link ArrowColumnMemory} (without Arrow's per-value checks, which cost more than the values where
 * every row is read); BOOLEAN, DECIMAL and binary values through their vectors. As Fluss's
 * {@code InternalRow} says, a getter is for a value that is not null: ask {@link #isNullAt} first
 * (a number's getter reads whatever bytes a null slot holds).
 */
public final class ArrowRowView implements InternalRow {
    // How a field's vector is read through its column memory; OTHER reads through the vector.
    private static final byte OTHER = 0;
    private static final byte INT8 = 1;
    private static final byte INT16 = 2;
    private static final byte INT32 = 3;
    private static final byte INT64 = 4;
    private static final byte FLOAT32 = 5;
    private static final byte FLOAT64 = 6;
    private static final byte TIME_SECONDS = 7;
    private static final byte TIME_MICROS = 8;
    private static final byte TIME_NANOS = 9;
    private static final byte TIMESTAMP = 10;
    private static final byte STRING = 11;

    private final FieldVector[] vectors;
    /** Each field's column memory (what the hot getters read); null for the kind OTHER and absent fields. */
    private final ArrowColumnMemory[] columns;
    private final byte[] kinds;
    /** For each VARCHAR field, its data as Fluss memory, which strings view; else null. */
    private final MemorySegment[][] stringData;
    /** For each TIMESTAMP field, its vector's unit; else null. */
    private final EpochUnits[] units;
    private int row;

    public ArrowRowView(VectorSchemaRoot batch, int[] positions) {
        requireNonNull(batch, "batch is null");
        this.vectors = new FieldVector[positions.length];
        this.columns = new ArrowColumnMemory[positions.length];
        this.kinds = new byte[positions.length];
        this.stringData = new MemorySegment[positions.length][];
        this.units = new EpochUnits[positions.length];
        for (int field = 0; field < positions.length; field++) {
            FieldVector vector = positions[field] < 0 ? null : batch.getVector(positions[field]);
            vectors[field] = vector;
            if (vector == null) {
                continue;
            }
            kinds[field] = kindOf(vector);
            if (kinds[field] != OTHER) {
                columns[field] = ArrowColumnMemory.of(vector).orElseThrow();
            }
            if (kinds[field] == STRING) {
                stringData[field] = new MemorySegment[] {columns[field].data()};
            } else if (kinds[field] == TIMESTAMP) {
                units[field] = unitOf((TimeStampVector) vector);
            }
        }
    }

    private static byte kindOf(FieldVector vector) {
        if (vector instanceof TinyIntVector) {
            return INT8;
        }
        if (vector instanceof SmallIntVector) {
            return INT16;
        }
        // INT, DATE (days) and TIME (milliseconds of the day, Fluss's representation) all read as int.
        if (vector instanceof IntVector || vector instanceof DateDayVector || vector instanceof TimeMilliVector) {
            return INT32;
        }
        if (vector instanceof BigIntVector) {
            return INT64;
        }
        if (vector instanceof Float4Vector) {
            return FLOAT32;
        }
        if (vector instanceof Float8Vector) {
            return FLOAT64;
        }
        if (vector instanceof TimeSecVector) {
            return TIME_SECONDS;
        }
        if (vector instanceof TimeMicroVector) {
            return TIME_MICROS;
        }
        if (vector instanceof TimeNanoVector) {
            return TIME_NANOS;
        }
        if (vector instanceof TimeStampVector) {
            return TIMESTAMP;
        }
        if (vector instanceof VarCharVector) {
            return STRING;
        }
        return OTHER;
    }

    /** Points the view at row {@code index} of the batch. */
    public ArrowRowView at(int index) {
        this.row = index;
        return this;
    }

    /** The row the view is at. */
    public int index() {
        return row;
    }

    /**
     * Field {@code pos}'s column memory, for views that read the same batch as other row types (the
     * lake's); empty for fields read through their vectors (BOOLEAN, DECIMAL, binary, nested) and
     * fields the batch lacks.
     */
    public Optional<ArrowColumnMemory> column(int pos) {
        return Optional.ofNullable(columns[pos]);
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
        ArrowColumnMemory column = columns[pos];
        return column != null ? column.isNull(row) : vector(pos).isNull(row);
    }

    @Override
    public boolean getBoolean(int pos) {
        return ((BitVector) vector(pos)).get(row) != 0;
    }

    @Override
    public byte getByte(int pos) {
        return kinds[pos] == INT8 ? columns[pos].getByte(row) : ((TinyIntVector) vector(pos)).get(row);
    }

    @Override
    public short getShort(int pos) {
        return kinds[pos] == INT16 ? columns[pos].getShort(row) : ((SmallIntVector) vector(pos)).get(row);
    }

    @Override
    public int getInt(int pos) {
        return switch (kinds[pos]) {
            case INT32 -> columns[pos].getInt(row);
            case TIME_SECONDS -> columns[pos].getInt(row) * 1000;
            case TIME_MICROS -> (int) (columns[pos].getLong(row) / 1000);
            case TIME_NANOS -> (int) (columns[pos].getLong(row) / 1_000_000);
            default -> throw unsupported(pos, "int");
        };
    }

    @Override
    public long getLong(int pos) {
        return kinds[pos] == INT64 ? columns[pos].getLong(row) : ((BigIntVector) vector(pos)).get(row);
    }

    @Override
    public float getFloat(int pos) {
        return kinds[pos] == FLOAT32 ? columns[pos].getFloat(row) : ((Float4Vector) vector(pos)).get(row);
    }

    @Override
    public double getDouble(int pos) {
        return kinds[pos] == FLOAT64 ? columns[pos].getDouble(row) : ((Float8Vector) vector(pos)).get(row);
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
        if (kinds[pos] != STRING) {
            throw unsupported(pos, "a string");
        }
        ArrowColumnMemory column = columns[pos];
        if (column.isNull(row)) {
            throw new IllegalStateException("Field " + pos + " is null at row " + row + "; ask isNullAt first");
        }
        int start = column.start(row);
        return BinaryString.fromAddress(stringData[pos], start, column.end(row) - start);
    }

    @Override
    public Decimal getDecimal(int pos, int precision, int scale) {
        BigDecimal value = ((DecimalVector) vector(pos)).getObject(row);
        return Decimal.fromBigDecimal(value, precision, scale);
    }

    @Override
    public TimestampNtz getTimestampNtz(int pos, int precision) {
        long count = timestampCount(pos);
        EpochUnits unit = units[pos];
        return TimestampNtz.fromMillis(unit.epochMillisecond(count), unit.nanoOfMillisecond(count));
    }

    @Override
    public TimestampLtz getTimestampLtz(int pos, int precision) {
        long count = timestampCount(pos);
        EpochUnits unit = units[pos];
        return TimestampLtz.fromEpochMillis(unit.epochMillisecond(count), unit.nanoOfMillisecond(count));
    }

    /** A TIMESTAMP field's value as its vector stores it: a count of {@link #timestampUnit(int)} since the epoch. */
    public long timestampCount(int pos) {
        if (kinds[pos] != TIMESTAMP) {
            throw unsupported(pos, "a timestamp");
        }
        return columns[pos].getLong(row);
    }

    /** The unit a TIMESTAMP field's vector counts in. */
    public EpochUnits timestampUnit(int pos) {
        if (kinds[pos] != TIMESTAMP) {
            throw unsupported(pos, "a timestamp");
        }
        return units[pos];
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

    /** A field that cannot be read as {@code what}; an absent field fails as absent. */
    private UnsupportedOperationException unsupported(int pos, String what) {
        FieldVector vector = vector(pos);
        boolean scalar = vector instanceof BaseFixedWidthVector || vector instanceof BaseVariableWidthVector;
        return new UnsupportedOperationException("Field '" + vector.getName() + "' (" + vector.getField().getType()
                + ") cannot be viewed as " + what + (scalar ? "" : "; filters on nested columns are not supported"));
    }
}
