package dev.riffle.core.filter;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowColumnMemory;
import dev.riffle.core.types.ArrowRowView;
import dev.riffle.core.types.EpochUnits;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.fluss.memory.MemorySegment;
import org.apache.fluss.predicate.And;
import org.apache.fluss.predicate.CompoundPredicate;
import org.apache.fluss.predicate.Contains;
import org.apache.fluss.predicate.EndsWith;
import org.apache.fluss.predicate.Equal;
import org.apache.fluss.predicate.GreaterOrEqual;
import org.apache.fluss.predicate.GreaterThan;
import org.apache.fluss.predicate.IsNotNull;
import org.apache.fluss.predicate.IsNull;
import org.apache.fluss.predicate.LeafFunction;
import org.apache.fluss.predicate.LeafPredicate;
import org.apache.fluss.predicate.LessOrEqual;
import org.apache.fluss.predicate.LessThan;
import org.apache.fluss.predicate.NotEqual;
import org.apache.fluss.predicate.Or;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.StartsWith;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;

/**
 * A Fluss predicate bound to one batch's vectors, as a test of its rows. Comparisons of integer,
 * floating-point and timestamp columns with a literal, null tests, and equality, prefix, suffix and
 * substring tests of strings read the column's memory (no value object per row) and decide as
 * Fluss's functions do: a comparison is {@code literal.compareTo(value)} (so doubles and floats
 * order as {@link Double#compare}), a null value or literal fails it, and strings compare their
 * UTF-8 bytes. Everything else (other functions, other types, {@code AND}/{@code OR} above such
 * leaves) is tested through an {@link ArrowRowView} by the predicate itself, as before.
 *
 * <pre>{@code
 * IntPredicate keep = VectorPredicate.bind(predicate, batch, positions);
 * }</pre>
 */
final class VectorPredicate {
    private final VectorSchemaRoot batch;
    private final int[] positions;
    private ArrowRowView view;

    private VectorPredicate(VectorSchemaRoot batch, int[] positions) {
        this.batch = batch;
        this.positions = positions;
    }

    /** The test of {@code batch}'s rows, valid while the batch is; {@code positions} as {@link BatchFilter#of}'s. */
    static IntPredicate bind(Predicate predicate, VectorSchemaRoot batch, int[] positions) {
        requireNonNull(predicate, "predicate is null");
        requireNonNull(batch, "batch is null");
        return new VectorPredicate(batch, requireNonNull(positions, "positions is null")).compile(predicate);
    }

    private IntPredicate compile(Predicate predicate) {
        if (predicate instanceof CompoundPredicate compound
                && (compound.function() instanceof And || compound.function() instanceof Or)) {
            IntPredicate[] children = compound.children().stream().map(this::compile).toArray(IntPredicate[]::new);
            return compound.function() instanceof And ? all(children) : any(children);
        }
        if (predicate instanceof LeafPredicate leaf) {
            Optional<IntPredicate> test = leaf(leaf);
            if (test.isPresent()) {
                return test.get();
            }
        }
        ArrowRowView rows = view();
        return row -> predicate.test(rows.at(row));
    }

    private ArrowRowView view() {
        if (view == null) {
            view = new ArrowRowView(batch, positions);
        }
        return view;
    }

    private static IntPredicate all(IntPredicate[] children) {
        if (children.length == 2) {
            IntPredicate first = children[0];
            IntPredicate second = children[1];
            return row -> first.test(row) && second.test(row);
        }
        return row -> {
            for (IntPredicate child : children) {
                if (!child.test(row)) {
                    return false;
                }
            }
            return true;
        };
    }

    private static IntPredicate any(IntPredicate[] children) {
        return row -> {
            for (IntPredicate child : children) {
                if (child.test(row)) {
                    return true;
                }
            }
            return false;
        };
    }

    /** The leaf read from column memory, when its function, type and literal allow. */
    private Optional<IntPredicate> leaf(LeafPredicate leaf) {
        int position = leaf.index() < positions.length ? positions[leaf.index()] : -1;
        if (position < 0) {
            return Optional.empty(); // the view says which field was not read
        }
        FieldVector vector = batch.getVector(position);
        Optional<ArrowColumnMemory> found = ArrowColumnMemory.of(vector);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        ArrowColumnMemory column = found.get();
        LeafFunction function = leaf.function();
        if (function instanceof IsNull) {
            return Optional.of(column::isNull);
        }
        if (function instanceof IsNotNull) {
            return Optional.of(row -> !column.isNull(row));
        }
        List<Object> literals = leaf.literals();
        if (literals.size() != 1) {
            return Optional.empty();
        }
        Object literal = literals.get(0);
        // Fluss's functions read "value op literal"; the tests below order the literal first.
        ComparisonOperator valueFirst = valueFirst(function);
        ComparisonOperator comparison = valueFirst == null ? null : valueFirst.flipped();
        if (literal == null && (comparison != null || function instanceof StartsWith || function instanceof EndsWith
                || function instanceof Contains)) {
            return Optional.of(row -> false);
        }
        if (vector instanceof VarCharVector && literal instanceof BinaryString pattern) {
            return strings(function, column, pattern.toString().getBytes(StandardCharsets.UTF_8));
        }
        if (comparison == null) {
            return Optional.empty();
        }
        if (literal instanceof Byte || literal instanceof Short || literal instanceof Integer
                || literal instanceof Long) {
            return integers(vector, column, ((Number) literal).longValue(), comparison);
        }
        if (literal instanceof Double value && vector instanceof Float8Vector) {
            return Optional.of(row -> !column.isNull(row)
                    && comparison.holds(Double.compare(value, column.getDouble(row))));
        }
        if (literal instanceof Float value && vector instanceof Float4Vector) {
            return Optional.of(row -> !column.isNull(row)
                    && comparison.holds(Float.compare(value, column.getFloat(row))));
        }
        if (vector instanceof TimeStampVector) {
            EpochUnits unit = EpochUnits.of(((ArrowType.Timestamp) vector.getField().getType()).getUnit());
            long millisecond;
            int nano;
            if (literal instanceof TimestampNtz timestamp) {
                millisecond = timestamp.getMillisecond();
                nano = timestamp.getNanoOfMillisecond();
            } else if (literal instanceof TimestampLtz timestamp) {
                millisecond = timestamp.getEpochMillisecond();
                nano = timestamp.getNanoOfMillisecond();
            } else {
                return Optional.empty();
            }
            return Optional.of(row -> {
                if (column.isNull(row)) {
                    return false;
                }
                long count = column.getLong(row);
                int order = Long.compare(millisecond, unit.epochMillisecond(count));
                return comparison.holds(order != 0 ? order : Integer.compare(nano, unit.nanoOfMillisecond(count)));
            });
        }
        return Optional.empty();
    }

    private static Optional<IntPredicate> integers(FieldVector vector, ArrowColumnMemory column, long literal,
            ComparisonOperator comparison) {
        if (vector instanceof BigIntVector) {
            return Optional.of(row -> !column.isNull(row) && comparison.holds(Long.compare(literal, column.getLong(row))));
        }
        if (vector instanceof IntVector || vector instanceof DateDayVector) {
            return Optional.of(row -> !column.isNull(row) && comparison.holds(Long.compare(literal, column.getInt(row))));
        }
        if (vector instanceof SmallIntVector) {
            return Optional.of(row -> !column.isNull(row)
                    && comparison.holds(Long.compare(literal, column.getShort(row))));
        }
        if (vector instanceof TinyIntVector) {
            return Optional.of(row -> !column.isNull(row) && comparison.holds(Long.compare(literal, column.getByte(row))));
        }
        return Optional.empty();
    }

    private static Optional<IntPredicate> strings(LeafFunction function, ArrowColumnMemory column, byte[] pattern) {
        MemorySegment literal = MemorySegment.wrap(pattern);
        MemorySegment data = column.data();
        int length = pattern.length;
        if (function instanceof Equal || function instanceof NotEqual) {
            boolean equal = function instanceof Equal;
            return Optional.of(row -> {
                if (column.isNull(row)) {
                    return false;
                }
                int start = column.start(row);
                boolean same = column.end(row) - start == length && data.equalTo(literal, start, 0, length);
                return same == equal;
            });
        }
        if (function instanceof StartsWith) {
            return Optional.of(row -> !column.isNull(row) && column.end(row) - column.start(row) >= length
                    && data.equalTo(literal, column.start(row), 0, length));
        }
        if (function instanceof EndsWith) {
            return Optional.of(row -> !column.isNull(row) && column.end(row) - column.start(row) >= length
                    && data.equalTo(literal, column.end(row) - length, 0, length));
        }
        if (function instanceof Contains) {
            return Optional.of(row -> !column.isNull(row) && contains(data, column.start(row), column.end(row), literal,
                    pattern));
        }
        return Optional.empty();
    }

    /** Whether {@code data[start, end)} holds {@code pattern}'s bytes somewhere. */
    private static boolean contains(MemorySegment data, int start, int end, MemorySegment literal, byte[] pattern) {
        if (pattern.length == 0) {
            return true;
        }
        byte first = pattern[0];
        for (int at = start, last = end - pattern.length; at <= last; at++) {
            if (data.get(at) == first && data.equalTo(literal, at, 0, pattern.length)) {
                return true;
            }
        }
        return false;
    }

    /** The comparison {@code function} makes of a value and its literal ({@code value op literal}), or null for other functions. */
    private static ComparisonOperator valueFirst(LeafFunction function) {
        if (function instanceof Equal) {
            return ComparisonOperator.EQUAL;
        }
        if (function instanceof NotEqual) {
            return ComparisonOperator.NOT_EQUAL;
        }
        if (function instanceof LessThan) {
            return ComparisonOperator.LESS_THAN;
        }
        if (function instanceof LessOrEqual) {
            return ComparisonOperator.LESS_OR_EQUAL;
        }
        if (function instanceof GreaterThan) {
            return ComparisonOperator.GREATER_THAN;
        }
        if (function instanceof GreaterOrEqual) {
            return ComparisonOperator.GREATER_OR_EQUAL;
        }
        return null;
    }
}
