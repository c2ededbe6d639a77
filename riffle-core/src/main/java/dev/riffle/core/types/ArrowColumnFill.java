package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.fluss.memory.MemorySegment;

/**
 * Writes a run of rows into an Arrow vector's buffers as plain memory: the writing twin of
 * {@link ArrowColumnMemory}. Arrow's {@code setSafe} checks the capacity, the reference count and the
 * bounds of every buffer it touches for every value; a copy of millions of values (a lake split into
 * Arrow) spent most of its time there. Room is made once for the run, then values go straight in.
 *
 * <pre>{@code
 * ArrowColumnFill fill = ArrowColumnFill.of(target, at, at + rows);
 * for (int i = 0; i < rows; i++) {
 *     if (source.isNullAt(i)) {
 *         fill.setNull(at + i);
 *     } else {
 *         fill.setLong(at + i, source.getLong(i));
 *     }
 * }
 * fill.finish();
 * }</pre>
 *
 * <p>Rows are written in order, each once, from the run's first row to its end (for a
 * variable-width vector, strings follow one another in its data buffer, after the rows before the
 * run, however those were set). Values are
 * little-endian, as Arrow lays them out; the setter must fit the vector's type, as with
 * {@link ArrowColumnMemory}. The fill is valid until the vector is reallocated: make a new one per run.
 */
public final class ArrowColumnFill {
    private final FieldVector vector;
    private final int to;
    private final MemorySegment validity;
    /** Fixed-width values; null for a variable-width vector. */
    private final MemorySegment values;
    /** Variable-width offsets; null for a fixed-width vector. */
    private final MemorySegment offsets;
    /** Variable-width data, wrapped at the first string and again when it grows. */
    private MemorySegment data;

    private ArrowColumnFill(FieldVector vector, int to, MemorySegment validity, MemorySegment values,
            MemorySegment offsets) {
        this.vector = vector;
        this.to = to;
        this.validity = validity;
        this.values = values;
        this.offsets = offsets;
    }

    /**
     * A fill of rows {@code from .. to - 1} of {@code vector}, which grows when it has room for
     * fewer; for fixed-width vectors of whole bytes (not {@link BitVector}) and variable-width ones.
     *
     * @throws IllegalArgumentException for other vectors
     */
    public static ArrowColumnFill of(FieldVector vector, int from, int to) {
        requireNonNull(vector, "vector is null");
        if (from < 0 || to < from) {
            throw new IllegalArgumentException("Rows " + from + " to " + to + " are not a run");
        }
        if (vector instanceof BaseVariableWidthVector variable) {
            while (variable.getValueCapacity() < to) {
                variable.reallocValidityAndOffsetBuffers(); // the data buffer grows as strings need it
            }
            // Rows before the run that Arrow left as holes (its setNull writes no offset) get their
            // offsets now, so that the run's first string starts after the last one written.
            variable.fillEmpties(from);
            return new ArrowColumnFill(vector, to, ArrowColumnMemory.segment(variable.getValidityBuffer()), null,
                    ArrowColumnMemory.segment(variable.getOffsetBuffer()));
        }
        if (!(vector instanceof BaseFixedWidthVector fixed) || vector instanceof BitVector) {
            throw new IllegalArgumentException("Vector " + vector.getName() + " (" + vector.getField().getType()
                    + ") has no whole-byte values to fill");
        }
        while (fixed.getValueCapacity() < to) {
            fixed.reAlloc();
        }
        return new ArrowColumnFill(vector, to, ArrowColumnMemory.segment(fixed.getValidityBuffer()),
                ArrowColumnMemory.segment(fixed.getDataBuffer()), null);
    }

    /** Row {@code row} is null (a variable-width row takes no bytes). */
    public void setNull(int row) {
        int at = row >>> 3;
        validity.put(at, (byte) (validity.get(at) & ~(1 << (row & 7))));
        if (offsets != null) {
            offsets.putInt((row + 1) << 2, start(row));
        }
    }

    private void setValid(int row) {
        int at = row >>> 3;
        validity.put(at, (byte) (validity.get(at) | (1 << (row & 7))));
    }

    /** Row {@code row} of an 8-bit vector; the other setters likewise for their widths. */
    public void setByte(int row, byte value) {
        values.put(row, value);
        setValid(row);
    }

    public void setShort(int row, short value) {
        values.putShort(row << 1, value);
        setValid(row);
    }

    public void setInt(int row, int value) {
        values.putInt(row << 2, value);
        setValid(row);
    }

    public void setLong(int row, long value) {
        values.putLong(row << 3, value);
        setValid(row);
    }

    public void setFloat(int row, float value) {
        values.putFloat(row << 2, value);
        setValid(row);
    }

    public void setDouble(int row, double value) {
        values.putDouble(row << 3, value);
        setValid(row);
    }

    /** The bytes of a variable-width row: {@code length} bytes of {@code source} from {@code offset}. */
    public void setBytes(int row, byte[] source, int offset, int length) {
        int start = start(row);
        long end = (long) start + length;
        BaseVariableWidthVector variable = (BaseVariableWidthVector) vector;
        if (data == null || end > data.size()) {
            while (variable.getDataBuffer().capacity() < end) {
                variable.reallocDataBuffer();
            }
            data = ArrowColumnMemory.segment(variable.getDataBuffer());
        }
        data.put(start, source, offset, length);
        offsets.putInt((row + 1) << 2, Math.toIntExact(end));
        setValid(row);
    }

    private int start(int row) {
        return offsets.getInt(row << 2);
    }

    /**
     * Ends the run: a variable-width vector learns which rows are set, so that setting its value
     * count does not take the rows written here for holes.
     */
    public void finish() {
        if (vector instanceof BaseVariableWidthVector variable) {
            variable.setLastSet(to - 1);
        }
    }
}
