package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.fluss.memory.MemorySegment;

/**
 * One column of an Arrow batch as plain memory: its validity bits, its values (fixed-width) or data
 * and offsets (variable-width), read without Arrow's per-value checks. Each {@code get} of an Arrow
 * vector checks the validity bit, the buffer's reference count and its bounds; row views that read
 * every value of millions of rows (tiering, client-side filters, writes through Fluss's writer)
 * spent more time in those checks than in the values. Memory segments still check that a read stays
 * within the buffer (its capacity, which may exceed the rows: a read past the last row reads padding
 * rather than failing).
 *
 * <pre>{@code
 * ArrowColumnMemory ids = ArrowColumnMemory.of(batch.getVector("id")).orElseThrow();
 * long sum = 0;
 * for (int row = 0; row < batch.getRowCount(); row++) {
 *     sum += ids.isNull(row) ? 0 : ids.getInt(row);
 * }
 * }</pre>
 *
 * <p>A view of the vector's buffers as they are when it is made: valid while the batch is, and not
 * after the vector is reallocated or written to. Values are little-endian, as Arrow lays them out.
 * Which getter fits is the caller's to know from the vector's type ({@code getInt} for a 32-bit
 * vector, and so on); a getter that does not fit reads the wrong bytes, within the buffer, and a
 * getter of a null row reads whatever its slot holds ({@link #isNull} first).
 */
public final class ArrowColumnMemory {
    private static final MemorySegment EMPTY = MemorySegment.wrap(new byte[0]);

    /** Null when the column holds no null in this batch. */
    private final MemorySegment validity;
    private final MemorySegment values;
    /** Null for a fixed-width column. */
    private final MemorySegment offsets;

    private ArrowColumnMemory(MemorySegment validity, MemorySegment values, MemorySegment offsets) {
        this.validity = validity;
        this.values = values;
        this.offsets = offsets;
    }

    /**
     * The memory of a fixed-width vector whose values are whole bytes (every one but
     * {@link BitVector}) or of a variable-width vector; empty for others (bits, nested vectors).
     */
    public static Optional<ArrowColumnMemory> of(FieldVector vector) {
        requireNonNull(vector, "vector is null");
        MemorySegment validity = vector.getNullCount() == 0 ? null : segment(vector.getValidityBuffer());
        if (vector instanceof BaseVariableWidthVector variable) {
            return Optional.of(new ArrowColumnMemory(validity, segment(variable.getDataBuffer()),
                    segment(variable.getOffsetBuffer())));
        }
        if (vector instanceof BaseFixedWidthVector fixed && !(vector instanceof BitVector)) {
            return Optional.of(new ArrowColumnMemory(validity, segment(fixed.getDataBuffer()), null));
        }
        return Optional.empty();
    }

    /**
     * A buffer as a memory segment: {@link ArrowColumnFill}'s too. An empty buffer may sit at address
     * 0, which a memory segment refuses: it is an empty segment instead.
     */
    static MemorySegment segment(ArrowBuf buffer) {
        long capacity = buffer.capacity();
        if (capacity == 0) {
            return EMPTY;
        }
        return MemorySegment.wrapOffHeapMemory(buffer.nioBuffer(0, Math.toIntExact(capacity)));
    }

    /** Whether row {@code row} is null. */
    public boolean isNull(int row) {
        return validity != null && (validity.get(row >>> 3) & (1 << (row & 7))) == 0;
    }

    /** Whether any row of the column is null. */
    public boolean hasNulls() {
        return validity != null;
    }

    /** An 8-bit value. */
    public byte getByte(int row) {
        return values.get(row);
    }

    /** A 16-bit value. */
    public short getShort(int row) {
        return values.getShort(row << 1);
    }

    /** A 32-bit value (INT, DATE in days, TIME in seconds or milliseconds). */
    public int getInt(int row) {
        return values.getInt(row << 2);
    }

    /** A 64-bit value (BIGINT, TIMESTAMP in its unit, TIME in micro- or nanoseconds). */
    public long getLong(int row) {
        return values.getLong(row << 3);
    }

    /** A 32-bit float. */
    public float getFloat(int row) {
        return values.getFloat(row << 2);
    }

    /** A 64-bit float. */
    public double getDouble(int row) {
        return values.getDouble(row << 3);
    }

    /** Where a variable-width column's row starts in {@link #data()}. */
    public int start(int row) {
        return offsets.getInt(row << 2);
    }

    /** Where a variable-width column's row ends in {@link #data()} (exclusive). */
    public int end(int row) {
        return offsets.getInt((row + 1) << 2);
    }

    /** A variable-width column's data, or a fixed-width column's values. */
    public MemorySegment data() {
        return values;
    }
}
