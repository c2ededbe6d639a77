package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowColumnMemory;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.FieldVector;

/**
 * One batch of an integer column, read as longs: through the vector's memory when the batch holds
 * it as integers ({@link GroupNumbers#integers}), without Arrow's checks per value, which cost
 * aggregates more than their own work; otherwise through its Calcite values (a batch in another
 * vector type than the first, as the lake's and the log's batches of one union read can be).
 *
 * <pre>{@code
 * IntegerValues values = IntegerValues.of(batch.getVector(argument));
 * for (int row = 0; row < rows; row++) {
 *     if (!values.isNull(row)) {
 *         sums[groupOfRow[row]] += values.get(row);
 *     }
 * }
 * }</pre>
 */
final class IntegerValues {
    private final FieldVector vector;
    /** Null when the batch's vector does not hold integers. */
    private final ArrowColumnMemory memory;
    private final int width;
    private final CalciteColumn values;

    private IntegerValues(FieldVector vector, ArrowColumnMemory memory, int width, CalciteColumn values) {
        this.vector = vector;
        this.memory = memory;
        this.width = width;
        this.values = values;
    }

    static IntegerValues of(FieldVector vector) {
        requireNonNull(vector, "vector is null");
        if (GroupNumbers.integers(vector)) {
            return new IntegerValues(vector, ArrowColumnMemory.of(vector).orElseThrow(),
                    ((BaseFixedWidthVector) vector).getTypeWidth(), null);
        }
        return new IntegerValues(vector, null, 0, CalciteColumn.of(vector));
    }

    boolean isNull(int row) {
        return memory != null ? memory.isNull(row) : vector.isNull(row);
    }

    /** The value of a row that is not null. */
    long get(int row) {
        if (memory == null) {
            return ((Number) values.get(row)).longValue();
        }
        return switch (width) {
            case 1 -> memory.getByte(row);
            case 2 -> memory.getShort(row);
            case 4 -> memory.getInt(row);
            case 8 -> memory.getLong(row);
            default -> throw new IllegalStateException("No integers of " + width + " bytes (" + vector.getField() + ")");
        };
    }
}
