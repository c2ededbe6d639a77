package dev.riffle.sql.exec;

import dev.riffle.sql.plan.PushedCondition;
import dev.riffle.sql.plan.ReadPlan;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.DataContext;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateBuilder;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataTypeRoot;
import org.apache.fluss.types.RowType;

/**
 * Turns the conditions a scan absorbed into a Fluss {@link Predicate} over the table's row type,
 * binding {@code ?} parameters from the execution's {@link DataContext}.
 */
final class ConditionPredicates {
    private final RowType rowType;
    private final PredicateBuilder builder;
    private final DataContext context;
    private final InternalRow.FieldGetter[] getters;
    private final boolean hasLtz;

    ConditionPredicates(RowType rowType, DataContext context) {
        this.rowType = rowType;
        this.builder = new PredicateBuilder(rowType);
        this.context = context;
        this.getters = new InternalRow.FieldGetter[rowType.getFieldCount()];
        boolean ltz = false;
        for (int i = 0; i < getters.length; i++) {
            getters[i] = InternalRow.createFieldGetter(rowType.getTypeAt(i), i);
            ltz |= rowType.getTypeAt(i).getTypeRoot() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
        }
        this.hasLtz = ltz;
    }

    /** All conditions, as one predicate. */
    Predicate predicate(List<PushedCondition> conditions) {
        List<Predicate> predicates = new ArrayList<>();
        for (PushedCondition condition : conditions) {
            predicates.add(predicate(condition));
        }
        return PredicateBuilder.and(predicates);
    }

    /**
     * A constant as Fluss 0.9.1's predicates compare it: they read a TIMESTAMP_LTZ cell with
     * {@code getTimestampNtz} ({@code LeafPredicate#get}), so the constant is the same instant as
     * a {@link TimestampNtz}, or every comparison fails with a ClassCastException. The lake is not
     * given these conjuncts (riffle-lake's {@code LakePushdown}); the rows are checked with them.
     */
    private static Object asPredicatesRead(Object constant) {
        return constant instanceof TimestampLtz ltz
                ? TimestampNtz.fromMillis(ltz.getEpochMillisecond(), ltz.getNanoOfMillisecond()) : constant;
    }

    /**
     * A row of the table as Fluss 0.9.1's predicates can test it: a row whose TIMESTAMP_LTZ cells
     * are {@link TimestampLtz} objects (what a lookup returns) has them as the same instants in
     * {@link TimestampNtz}s, which {@code getTimestampNtz} then reads (see {@link #asPredicatesRead(Object)}).
     * Arrow rows need no copy: their view reads either kind.
     */
    InternalRow testable(InternalRow row) {
        if (!hasLtz) {
            return row;
        }
        GenericRow copy = new GenericRow(rowType.getFieldCount());
        for (int i = 0; i < getters.length; i++) {
            copy.setField(i, asPredicatesRead(getters[i].getFieldOrNull(row)));
        }
        return copy;
    }

    private Predicate predicate(PushedCondition condition) {
        if (condition instanceof PushedCondition.AllOf all) {
            return PredicateBuilder.and(all.children().stream().map(this::predicate).toList());
        }
        if (condition instanceof PushedCondition.AnyOf any) {
            return PredicateBuilder.or(any.children().stream().map(this::predicate).toList());
        }
        PushedCondition.Leaf leaf = (PushedCondition.Leaf) condition;
        int column = rowType.getFieldIndex(leaf.column());
        List<Object> values = new ArrayList<>();
        for (ReadPlan.KeyValue value : leaf.values()) {
            Object fluss = FlussValues.comparand(Bindings.value(value, context), rowType.getTypeAt(column),
                    leaf.column());
            if (fluss == null) {
                // a comparison with NULL holds for no row
                return PredicateBuilder.and(builder.isNull(column), builder.isNotNull(column));
            }
            values.add(asPredicatesRead(fluss));
        }
        return switch (leaf.op()) {
            case EQ -> builder.equal(column, values.get(0));
            case NE -> builder.notEqual(column, values.get(0));
            case LT -> builder.lessThan(column, values.get(0));
            case LE -> builder.lessOrEqual(column, values.get(0));
            case GT -> builder.greaterThan(column, values.get(0));
            case GE -> builder.greaterOrEqual(column, values.get(0));
            case IN -> builder.in(column, values);
            case IS_NULL -> builder.isNull(column);
            case IS_NOT_NULL -> builder.isNotNull(column);
            case STARTS_WITH -> builder.startsWith(column, values.get(0));
            case ENDS_WITH -> builder.endsWith(column, values.get(0));
            case CONTAINS -> builder.contains(column, values.get(0));
        };
    }
}
