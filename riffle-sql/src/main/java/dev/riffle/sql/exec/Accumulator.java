package dev.riffle.sql.exec;

import dev.riffle.core.types.ArrowColumnMemory;
import dev.riffle.sql.plan.AggregatePlan.Aggregation;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * One aggregate's state for every group, folded a batch at a time from its argument vector. The
 * arithmetic is Calcite's: a sum adds in its result type's Java type (an {@code INTEGER} sum
 * wraps as an {@code int}, a {@code REAL} sum rounds as a {@code float}), minimum and maximum
 * compare Calcite's values with {@code compareTo}, nulls are skipped, and an aggregate over no
 * value is null (a count 0, {@code $SUM0} 0).
 */
abstract class Accumulator {
    /** Makes room for {@code groups} groups. */
    abstract void ensure(int groups);

    abstract void add(VectorSchemaRoot batch, int[] groupOfRow, int rows);

    /** The group's result as a Calcite value of the aggregate's type. */
    abstract Object result(int group);

    /**
     * An empty accumulator of the same aggregate that reads columns the way this one decided to,
     * for a second set of groups that {@link #absorb} merges back.
     */
    abstract Accumulator sibling();

    /**
     * Folds {@code other}'s state (a {@link #sibling}'s) into this one's: its group {@code g} is
     * this one's {@code groupMap[g]}, for which {@link #ensure} made room.
     */
    abstract void absorb(Accumulator other, int[] groupMap, int otherGroups);

    static Accumulator of(Aggregation aggregation) {
        int argument = aggregation.argument();
        return switch (aggregation.function()) {
            case COUNT_ROWS -> new CountRows();
            case COUNT -> new CountValues(argument);
            case COUNT_DISTINCT -> new CountDistinct(argument);
            case SUM, SUM0 -> sum(aggregation, aggregation.function() == dev.riffle.sql.plan.AggregatePlan.Function.SUM0);
            case MIN -> new Extreme(argument, true);
            case MAX -> new Extreme(argument, false);
        };
    }

    private static Accumulator sum(Aggregation aggregation, boolean zeroWhenEmpty) {
        SqlTypeName type = aggregation.result();
        return switch (type) {
            case TINYINT, SMALLINT, INTEGER, BIGINT -> new IntegerSum(aggregation.argument(), type, zeroWhenEmpty);
            case REAL -> new RealSum(aggregation.argument(), zeroWhenEmpty);
            case FLOAT, DOUBLE -> new DoubleSum(aggregation.argument(), zeroWhenEmpty);
            case DECIMAL -> new DecimalSum(aggregation.argument(), zeroWhenEmpty);
            default -> throw new IllegalArgumentException("No vectorized SUM of " + type);
        };
    }

    private static final class CountRows extends Accumulator {
        private long[] counts = new long[0];

        @Override
        void ensure(int groups) {
            if (counts.length < groups) {
                counts = Arrays.copyOf(counts, Math.max(groups, counts.length * 2));
            }
        }

        @Override
        void add(VectorSchemaRoot batch, int[] groupOfRow, int rows) {
            for (int row = 0; row < rows; row++) {
                counts[groupOfRow[row]]++;
            }
        }

        @Override
        Object result(int group) {
            return counts[group];
        }

        @Override
        Accumulator sibling() {
            return new CountRows();
        }

        @Override
        void absorb(Accumulator other, int[] groupMap, int otherGroups) {
            long[] theirs = ((CountRows) other).counts;
            for (int group = 0; group < otherGroups; group++) {
                counts[groupMap[group]] += theirs[group];
            }
        }
    }

    private static final class CountValues extends Accumulator {
        private final int argument;
        private long[] counts = new long[0];

        CountValues(int argument) {
            this.argument = argument;
        }

        @Override
        void ensure(int groups) {
            if (counts.length < groups) {
                counts = Arrays.copyOf(counts, Math.max(groups, counts.length * 2));
            }
        }

        @Override
        void add(VectorSchemaRoot batch, int[] groupOfRow, int rows) {
            FieldVector vector = batch.getVector(argument);
            if (vector.getNullCount() == 0) { // one pass over the validity bits instead of a check per row
                for (int row = 0; row < rows; row++) {
                    counts[groupOfRow[row]]++;
                }
                return;
            }
            for (int row = 0; row < rows; row++) {
                if (!vector.isNull(row)) {
                    counts[groupOfRow[row]]++;
                }
            }
        }

        @Override
        Object result(int group) {
            return counts[group];
        }

        @Override
        Accumulator sibling() {
            return new CountValues(argument);
        }

        @Override
        void absorb(Accumulator other, int[] groupMap, int otherGroups) {
            long[] theirs = ((CountValues) other).counts;
            for (int group = 0; group < otherGroups; group++) {
                counts[groupMap[group]] += theirs[group];
            }
        }
    }

    /**
     * Distinct non-null values per group: integer columns by their primitive value in one table of
     * {@code (group, value)} pairs, without an object per row; other columns as Calcite values in a
     * set per group, whose equality is the one Calcite's own aggregate uses.
     */
    private static final class CountDistinct extends Accumulator {
        private final int argument;
        private long[] counts = new long[0];
        private final GroupValueSet integers = new GroupValueSet();
        private Set<?>[] values = new Set<?>[0];
        /** Whether values are counted by their primitive value: decided by the first batch, kept for the read. */
        private Boolean byInteger;

        CountDistinct(int argument) {
            this.argument = argument;
        }

        @Override
        void ensure(int groups) {
            if (counts.length < groups) {
                int size = Math.max(groups, counts.length * 2);
                counts = Arrays.copyOf(counts, size);
                values = Arrays.copyOf(values, size);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        void add(VectorSchemaRoot batch, int[] groupOfRow, int rows) {
            FieldVector vector = batch.getVector(argument);
            if (byInteger == null) {
                byInteger = GroupNumbers.integers(vector);
            }
            if (byInteger) {
                IntegerValues batchValues = IntegerValues.of(vector);
                for (int row = 0; row < rows; row++) {
                    if (!batchValues.isNull(row) && integers.add(groupOfRow[row], batchValues.get(row))) {
                        counts[groupOfRow[row]]++;
                    }
                }
                return;
            }
            CalciteColumn column = CalciteColumn.of(vector);
            for (int row = 0; row < rows; row++) {
                if (!vector.isNull(row)) {
                    int group = groupOfRow[row];
                    if (values[group] == null) {
                        values[group] = new HashSet<>();
                    }
                    if (((Set<Object>) values[group]).add(column.get(row))) {
                        counts[group]++;
                    }
                }
            }
        }

        @Override
        Object result(int group) {
            return counts[group];
        }

        @Override
        Accumulator sibling() {
            CountDistinct sibling = new CountDistinct(argument);
            sibling.byInteger = byInteger;
            return sibling;
        }

        @Override
        @SuppressWarnings("unchecked")
        void absorb(Accumulator other, int[] groupMap, int otherGroups) {
            CountDistinct theirs = (CountDistinct) other;
            theirs.integers.forEach((group, value) -> {
                if (integers.add(groupMap[group], value)) {
                    counts[groupMap[group]]++;
                }
            });
            for (int group = 0; group < otherGroups; group++) {
                if (theirs.values[group] == null) {
                    continue;
                }
                int mine = groupMap[group];
                if (values[mine] == null) {
                    values[mine] = new HashSet<>();
                }
                for (Object value : theirs.values[group]) {
                    if (((Set<Object>) values[mine]).add(value)) {
                        counts[mine]++;
                    }
                }
            }
            if (byInteger == null) {
                byInteger = theirs.byInteger;
            }
        }
    }

    /** State of a sum: whether a group has seen a value. */
    private abstract static class Sum extends Accumulator {
        final int argument;
        final boolean zeroWhenEmpty;
        boolean[] seen = new boolean[0];

        Sum(int argument, boolean zeroWhenEmpty) {
            this.argument = argument;
            this.zeroWhenEmpty = zeroWhenEmpty;
        }

        @Override
        void ensure(int groups) {
            if (seen.length < groups) {
                int size = Math.max(groups, seen.length * 2);
                seen = Arrays.copyOf(seen, size);
                resize(size);
            }
        }

        abstract void resize(int size);

        @Override
        Object result(int group) {
            return seen[group] ? value(group) : zeroWhenEmpty ? value(group) : null;
        }

        /** The sum of the group (its initial zero when it saw no value). */
        abstract Object value(int group);

        @Override
        final void absorb(Accumulator other, int[] groupMap, int otherGroups) {
            Sum theirs = (Sum) other;
            for (int group = 0; group < otherGroups; group++) {
                if (theirs.seen[group]) {
                    int mine = groupMap[group];
                    addSum(mine, theirs, group);
                    seen[mine] = true;
                }
            }
        }

        /** Adds {@code other}'s sum of its {@code group} to this one's sum of {@code mine}. */
        abstract void addSum(int mine, Sum other, int group);
    }

    /**
     * Sums to TINYINT, SMALLINT, INTEGER, BIGINT, added as longs. Calcite adds an INTEGER or BIGINT
     * sum in its own Java type, which wraps (narrowing at the end gives the same bits), but it
     * narrows every partial TINYINT and SMALLINT sum with a range check: those fail the same way.
     */
    private static final class IntegerSum extends Sum {
        private final SqlTypeName type;
        private final boolean checked;
        private final long min;
        private final long max;
        private long[] sums = new long[0];

        IntegerSum(int argument, SqlTypeName type, boolean zeroWhenEmpty) {
            super(argument, zeroWhenEmpty);
            this.type = type;
            this.checked = type == SqlTypeName.TINYINT || type == SqlTypeName.SMALLINT;
            this.min = type == SqlTypeName.TINYINT ? Byte.MIN_VALUE : Short.MIN_VALUE;
            this.max = type == SqlTypeName.TINYINT ? Byte.MAX_VALUE : Short.MAX_VALUE;
        }

        @Override
        void resize(int size) {
            sums = Arrays.copyOf(sums, size);
        }

        @Override
        void add(VectorSchemaRoot batch, int[] groupOfRow, int rows) {
            IntegerValues values = IntegerValues.of(batch.getVector(argument));
            for (int row = 0; row < rows; row++) {
                if (!values.isNull(row)) {
                    int group = groupOfRow[row];
                    long sum = sums[group] + values.get(row);
                    if (checked && (sum < min || sum > max)) {
                        throw new ArithmeticException("Value " + sum + " out of range");
                    }
                    sums[group] = sum;
                    seen[group] = true;
                }
            }
        }

        @Override
        Accumulator sibling() {
            return new IntegerSum(argument, type, zeroWhenEmpty);
        }

        @Override
        void addSum(int mine, Sum other, int group) {
            long sum = sums[mine] + ((IntegerSum) other).sums[group];
            if (checked && (sum < min || sum > max)) {
                throw new ArithmeticException("Value " + sum + " out of range");
            }
            sums[mine] = sum;
        }

        @Override
        Object value(int group) {
            long sum = sums[group];
            return switch (type) {
                case TINYINT -> (byte) sum;
                case SMALLINT -> (short) sum;
                case INTEGER -> (int) sum;
                default -> sum;
            };
        }
    }

    private static final class RealSum extends Sum {
        private float[] sums = new float[0];

        RealSum(int argument, boolean zeroWhenEmpty) {
            super(argument, zeroWhenEmpty);
        }

        @Override
        Accumulator sibling() {
            return new RealSum(argument, zeroWhenEmpty);
        }

        @Override
        void addSum(int mine, Sum other, int group) {
            sums[mine] += ((RealSum) other).sums[group];
        }

        @Override
        void resize(int size) {
            sums = Arrays.copyOf(sums, size);
        }

        @Override
        void add(VectorSchemaRoot batch, int[] groupOfRow, int rows) {
            FieldVector vector = batch.getVector(argument);
            ArrowColumnMemory floats = vector instanceof Float4Vector ? ArrowColumnMemory.of(vector).orElseThrow() : null;
            CalciteColumn column = floats != null ? null : CalciteColumn.of(vector);
            for (int row = 0; row < rows; row++) {
                if (floats != null ? !floats.isNull(row) : !vector.isNull(row)) {
                    int group = groupOfRow[row];
                    sums[group] += floats != null ? floats.getFloat(row) : ((Number) column.get(row)).floatValue();
                    seen[group] = true;
                }
            }
        }

        @Override
        Object value(int group) {
            return sums[group];
        }
    }

    private static final class DoubleSum extends Sum {
        private double[] sums = new double[0];

        DoubleSum(int argument, boolean zeroWhenEmpty) {
            super(argument, zeroWhenEmpty);
        }

        @Override
        Accumulator sibling() {
            return new DoubleSum(argument, zeroWhenEmpty);
        }

        @Override
        void addSum(int mine, Sum other, int group) {
            sums[mine] += ((DoubleSum) other).sums[group];
        }

        @Override
        void resize(int size) {
            sums = Arrays.copyOf(sums, size);
        }

        @Override
        void add(VectorSchemaRoot batch, int[] groupOfRow, int rows) {
            FieldVector vector = batch.getVector(argument);
            ArrowColumnMemory doubles = vector instanceof Float8Vector ? ArrowColumnMemory.of(vector).orElseThrow() : null;
            CalciteColumn column = doubles != null ? null : CalciteColumn.of(vector);
            for (int row = 0; row < rows; row++) {
                if (doubles != null ? !doubles.isNull(row) : !vector.isNull(row)) {
                    int group = groupOfRow[row];
                    sums[group] += doubles != null ? doubles.getDouble(row) : ((Number) column.get(row)).doubleValue();
                    seen[group] = true;
                }
            }
        }

        @Override
        Object value(int group) {
            return sums[group];
        }
    }

    private static final class DecimalSum extends Sum {
        private BigDecimal[] sums = new BigDecimal[0];

        DecimalSum(int argument, boolean zeroWhenEmpty) {
            super(argument, zeroWhenEmpty);
        }

        @Override
        Accumulator sibling() {
            return new DecimalSum(argument, zeroWhenEmpty);
        }

        @Override
        void addSum(int mine, Sum other, int group) {
            BigDecimal theirs = ((DecimalSum) other).sums[group];
            if (theirs != null) {
                sums[mine] = sums[mine] == null ? theirs : sums[mine].add(theirs);
            }
        }

        @Override
        void resize(int size) {
            sums = Arrays.copyOf(sums, size);
        }

        @Override
        void add(VectorSchemaRoot batch, int[] groupOfRow, int rows) {
            FieldVector vector = batch.getVector(argument);
            CalciteColumn column = CalciteColumn.of(vector);
            for (int row = 0; row < rows; row++) {
                if (!vector.isNull(row)) {
                    int group = groupOfRow[row];
                    BigDecimal value = (BigDecimal) column.get(row);
                    sums[group] = sums[group] == null ? value : sums[group].add(value);
                    seen[group] = true;
                }
            }
        }

        @Override
        Object value(int group) {
            return sums[group] == null ? BigDecimal.ZERO : sums[group];
        }
    }

    /**
     * MIN or MAX: the first of the least (greatest) values, as Calcite keeps it. Integer and
     * floating-point columns compare their primitive values (as Calcite's values of those types
     * compare: {@link Double#compare} is {@code Double.compareTo}, and a float widens exactly) and
     * box a value only when it becomes a group's best.
     */
    private static final class Extreme extends Accumulator {
        private final int argument;
        private final boolean least;
        private Object[] best = new Object[0];
        /** The primitive value of {@code best} when the column holds integers. */
        private long[] bestInteger = new long[0];
        /** The primitive value of {@code best} when the column holds floating-point numbers. */
        private double[] bestFloating = new double[0];
        /** How values compare: decided by the first batch, kept for the read. */
        private Comparison comparison;

        private enum Comparison { INTEGER, FLOATING, VALUE }

        Extreme(int argument, boolean least) {
            this.argument = argument;
            this.least = least;
        }

        @Override
        void ensure(int groups) {
            if (best.length < groups) {
                int size = Math.max(groups, best.length * 2);
                best = Arrays.copyOf(best, size);
                bestInteger = Arrays.copyOf(bestInteger, size);
                bestFloating = Arrays.copyOf(bestFloating, size);
            }
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        void add(VectorSchemaRoot batch, int[] groupOfRow, int rows) {
            FieldVector vector = batch.getVector(argument);
            CalciteColumn column = CalciteColumn.of(vector);
            if (comparison == null) {
                comparison = GroupNumbers.integers(vector) ? Comparison.INTEGER
                        : vector instanceof Float8Vector || vector instanceof Float4Vector ? Comparison.FLOATING
                        : Comparison.VALUE;
            }
            if (comparison == Comparison.FLOATING && (vector instanceof Float8Vector || vector instanceof Float4Vector)) {
                addFloating(vector, column, groupOfRow, rows);
                return;
            }
            if (comparison == Comparison.INTEGER) {
                IntegerValues values = IntegerValues.of(vector);
                for (int row = 0; row < rows; row++) {
                    if (values.isNull(row)) {
                        continue;
                    }
                    int group = groupOfRow[row];
                    long value = values.get(row);
                    if (best[group] == null || (least ? value < bestInteger[group] : value > bestInteger[group])) {
                        best[group] = column.get(row);
                        bestInteger[group] = value;
                    }
                }
                return;
            }
            for (int row = 0; row < rows; row++) {
                if (vector.isNull(row)) {
                    continue;
                }
                int group = groupOfRow[row];
                Comparable value = (Comparable) column.get(row);
                Object current = best[group];
                if (current == null || (least ? value.compareTo(current) < 0 : value.compareTo(current) > 0)) {
                    best[group] = value;
                }
            }
        }

        private void addFloating(FieldVector vector, CalciteColumn column, int[] groupOfRow, int rows) {
            ArrowColumnMemory memory = ArrowColumnMemory.of(vector).orElseThrow();
            boolean doubles = vector instanceof Float8Vector;
            for (int row = 0; row < rows; row++) {
                if (memory.isNull(row)) {
                    continue;
                }
                int group = groupOfRow[row];
                double value = doubles ? memory.getDouble(row) : memory.getFloat(row);
                if (best[group] == null || (least ? Double.compare(value, bestFloating[group]) < 0
                        : Double.compare(value, bestFloating[group]) > 0)) {
                    best[group] = column.get(row);
                    bestFloating[group] = value;
                }
            }
        }

        @Override
        Object result(int group) {
            return best[group];
        }

        @Override
        Accumulator sibling() {
            Extreme sibling = new Extreme(argument, least);
            sibling.comparison = comparison;
            return sibling;
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        void absorb(Accumulator other, int[] groupMap, int otherGroups) {
            Extreme theirs = (Extreme) other;
            if (comparison == null) {
                comparison = theirs.comparison;
            }
            for (int group = 0; group < otherGroups; group++) {
                Object value = theirs.best[group];
                if (value == null) {
                    continue;
                }
                int mine = groupMap[group];
                int order = best[mine] == null ? (least ? -1 : 1) : switch (comparison) {
                    case INTEGER -> Long.compare(theirs.bestInteger[group], bestInteger[mine]);
                    case FLOATING -> Double.compare(theirs.bestFloating[group], bestFloating[mine]);
                    case VALUE -> ((Comparable) value).compareTo(best[mine]);
                };
                if (least ? order < 0 : order > 0) {
                    best[mine] = value;
                    bestInteger[mine] = theirs.bestInteger[group];
                    bestFloating[mine] = theirs.bestFloating[group];
                }
            }
        }
    }
}
