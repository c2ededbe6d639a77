package dev.riffle.sql.exec;

import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.sql.plan.ReadPlan;
import java.util.List;
import java.util.Optional;
import org.apache.calcite.DataContext;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.RowType;

/** The values of one execution: literals as planned, {@code ?} parameters from the {@link DataContext}. */
final class Bindings {
    private Bindings() {}

    /**
     * Calcite's value of a literal or a bound parameter, timestamps with every digit they were
     * given with (a literal's {@code TimestampString}, a parameter's {@link ExactParameters}).
     */
    static Object value(ReadPlan.KeyValue value, DataContext context) {
        return value.isParameter() ? ExactParameters.value(context, value.parameter()) : value.literal();
    }

    /** The plan's row limit as bound for this execution ({@code Long.MAX_VALUE}: none). */
    static long limit(ReadPlan plan, DataContext context) {
        return plan.limit().isEmpty() ? Long.MAX_VALUE : count(plan.limit().get(), context, "LIMIT");
    }

    /** A row count bound for this execution ({@code clause} names it in the error: LIMIT, OFFSET, ...). */
    static long count(ReadPlan.KeyValue value, DataContext context, String clause) {
        Object bound = value(value, context);
        if (!(bound instanceof Number number) || number.longValue() < 0) {
            throw new InvalidReadException(clause + " must be a number of rows >= 0, got " + bound);
        }
        return number.longValue();
    }

    /**
     * A key as Fluss wants it, or empty when a value is SQL NULL or has more digits than its
     * column holds (either equals nothing).
     */
    static Optional<GenericRow> keyRow(RowType rowType, List<String> columns, List<ReadPlan.KeyValue> values,
            DataContext context) {
        GenericRow row = new GenericRow(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            int column = rowType.getFieldIndex(columns.get(i));
            Object value = value(values.get(i), context);
            if (!FlussValues.holds(value, rowType.getTypeAt(column))) {
                return Optional.empty();
            }
            Object fluss = FlussValues.comparand(value, rowType.getTypeAt(column), columns.get(i));
            if (fluss == null) {
                return Optional.empty();
            }
            row.setField(i, fluss);
        }
        return Optional.of(row);
    }
}
