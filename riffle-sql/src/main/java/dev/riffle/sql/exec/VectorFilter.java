package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.ComparisonOperator;
import dev.riffle.sql.plan.VectorCondition;
import dev.riffle.sql.plan.VectorExpression;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.TransferPair;

/**
 * The rows of each batch of a scan for which a {@link VectorCondition} is true, as a batch of
 * their own: the condition is evaluated over the whole batch in SQL's three-valued logic, then the
 * kept rows are copied, in order, into new vectors (the batch itself when every row is kept). The
 * copied batch lives until the next batch or {@link #close()}, whichever comes first.
 *
 * <pre>{@code
 * try (VectorFilter residual = new VectorFilter(condition, allocator)) {
 *     VectorFilter.Kept kept = residual.apply(batch, rows);
 *     groups.add(kept.batch(), kept.rows());
 * }
 * }</pre>
 */
final class VectorFilter implements AutoCloseable {
    private static final byte FALSE = 0;
    private static final byte TRUE = 1;
    private static final byte UNKNOWN = 2;

    private final VectorCondition condition;
    private final BufferAllocator allocator;
    private VectorSchemaRoot copied;

    /** The first {@code rows} rows of {@code batch} are the kept ones. */
    record Kept(VectorSchemaRoot batch, int rows) {}

    /** @param allocator where the kept rows are copied to */
    VectorFilter(VectorCondition condition, BufferAllocator allocator) {
        this.condition = requireNonNull(condition, "condition is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** The rows among the first {@code rows} of {@code batch} for which the condition is true. */
    Kept apply(VectorSchemaRoot batch, int rows) {
        releaseCopy();
        byte[] truth = truth(condition, batch, rows);
        int kept = 0;
        for (int row = 0; row < rows; row++) {
            if (truth[row] == TRUE) {
                kept++;
            }
        }
        if (kept == rows || kept == 0) {
            return new Kept(batch, kept);
        }
        List<Field> fields = new ArrayList<>();
        List<FieldVector> vectors = new ArrayList<>();
        try {
            for (FieldVector from : batch.getFieldVectors()) {
                TransferPair pair = from.getTransferPair(allocator);
                FieldVector to = (FieldVector) pair.getTo();
                vectors.add(to);
                fields.add(to.getField());
                to.setInitialCapacity(Math.max(kept, 1));
                to.allocateNew();
                int at = 0;
                for (int row = 0; row < rows; row++) {
                    if (truth[row] == TRUE) {
                        pair.copyValueSafe(row, at++);
                    }
                }
                to.setValueCount(kept);
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        copied = new VectorSchemaRoot(fields, vectors, kept);
        return new Kept(copied, kept);
    }

    @Override
    public void close() {
        releaseCopy();
    }

    private void releaseCopy() {
        if (copied != null) {
            copied.close();
            copied = null;
        }
    }

    /** Per row: {@link #TRUE}, {@link #FALSE} or {@link #UNKNOWN}. */
    private static byte[] truth(VectorCondition condition, VectorSchemaRoot batch, int rows) {
        byte[] truth = new byte[rows];
        if (condition instanceof VectorCondition.Comparison comparison) {
            ExpressionValues left = ExpressionValues.convert(ExpressionValues.of(comparison.left(), batch, rows),
                    comparison.left().type(), comparison.type(), rows);
            ExpressionValues right = ExpressionValues.convert(ExpressionValues.of(comparison.right(), batch, rows),
                    comparison.right().type(), comparison.type(), rows);
            boolean integral = left.longs() != null;
            for (int row = 0; row < rows; row++) {
                if (left.nulls()[row] || right.nulls()[row]) {
                    truth[row] = UNKNOWN;
                    continue;
                }
                // Java's comparisons of primitives, as Calcite's generated code compares them.
                boolean holds;
                if (integral) {
                    holds = comparison.comparator().holds(Long.compare(left.longs()[row], right.longs()[row]));
                } else {
                    double a = left.doubles()[row];
                    double b = right.doubles()[row];
                    // A NaN is neither less, equal nor greater (Java's <, == and > are all false): only <> holds.
                    holds = Double.isNaN(a) || Double.isNaN(b) ? comparison.comparator() == ComparisonOperator.NOT_EQUAL
                            : comparison.comparator().holds(a < b ? -1 : a > b ? 1 : 0);
                }
                truth[row] = holds ? TRUE : FALSE;
            }
        } else if (condition instanceof VectorCondition.NullCheck check) {
            // A column of any type is null or not; only a computed operand needs computing.
            if (check.operand() instanceof VectorExpression.Column column) {
                FieldVector vector = batch.getVector(column.index());
                for (int row = 0; row < rows; row++) {
                    truth[row] = vector.isNull(row) != check.negated() ? TRUE : FALSE;
                }
            } else {
                boolean[] nulls = ExpressionValues.of(check.operand(), batch, rows).nulls();
                for (int row = 0; row < rows; row++) {
                    truth[row] = nulls[row] != check.negated() ? TRUE : FALSE;
                }
            }
        } else if (condition instanceof VectorCondition.Negation negation) {
            byte[] operand = truth(negation.operand(), batch, rows);
            for (int row = 0; row < rows; row++) {
                truth[row] = operand[row] == UNKNOWN ? UNKNOWN : operand[row] == TRUE ? FALSE : TRUE;
            }
        } else {
            VectorCondition.Junction junction = (VectorCondition.Junction) condition;
            // AND: false if any operand is false, else unknown if any is; OR the other way round.
            byte decisive = junction.all() ? FALSE : TRUE;
            Arrays.fill(truth, junction.all() ? TRUE : FALSE);
            for (VectorCondition operand : junction.operands()) {
                byte[] values = truth(operand, batch, rows);
                for (int row = 0; row < rows; row++) {
                    if (truth[row] == decisive) {
                        continue;
                    }
                    if (values[row] == decisive) {
                        truth[row] = decisive;
                    } else if (values[row] == UNKNOWN) {
                        truth[row] = UNKNOWN;
                    }
                }
            }
        }
        return truth;
    }
}
