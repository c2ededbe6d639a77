package dev.riffle.sql.exec;

import dev.riffle.sql.plan.AggregatePlan;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The groups of a hash aggregate, folded batch by batch: each batch's rows are first given their
 * group numbers ({@link GroupNumbers}, one pass over the key vectors), then each aggregate reads
 * its argument vector once ({@link Accumulator}). Rows never exist as objects; only the groups do.
 */
final class HashAggregation {
    private final AggregatePlan plan;
    private final GroupNumbers groups;
    private final Accumulator[] accumulators;
    private int[] groupOfRow = new int[0];

    HashAggregation(AggregatePlan plan) {
        this(plan, GroupNumbers.of(plan.groupColumns()),
                plan.aggregations().stream().map(Accumulator::of).toArray(Accumulator[]::new));
    }

    private HashAggregation(AggregatePlan plan, GroupNumbers groups, Accumulator[] accumulators) {
        this.plan = plan;
        this.groups = groups;
        this.accumulators = accumulators;
        for (Accumulator accumulator : accumulators) {
            accumulator.ensure(groups.count());
        }
    }

    /**
     * An empty aggregation of the same plan that reads columns the way this one decided to, for a
     * share of the batches that {@link #absorb} merges back.
     */
    HashAggregation sibling() {
        Accumulator[] siblings = new Accumulator[accumulators.length];
        for (int i = 0; i < accumulators.length; i++) {
            siblings[i] = accumulators[i].sibling();
        }
        return new HashAggregation(plan, groups.sibling(), siblings);
    }

    /**
     * Folds a {@link #sibling}'s groups into these: its groups this one lacks are added after this
     * one's, and each aggregate combines the two states (sums add, counts add, distinct values
     * unite, the better extreme stays, this one's on a tie).
     */
    void absorb(HashAggregation other) {
        int[] groupMap = groups.absorb(other.groups);
        for (int i = 0; i < accumulators.length; i++) {
            accumulators[i].ensure(groups.count());
            accumulators[i].absorb(other.accumulators[i], groupMap, groupMap.length);
        }
    }

    /** Folds the first {@code rows} rows of {@code batch}, whose vectors are the aggregate's input columns in order. */
    void add(VectorSchemaRoot batch, int rows) {
        if (groupOfRow.length < rows) {
            groupOfRow = new int[rows];
        }
        groups.number(batch, rows, groupOfRow);
        for (Accumulator accumulator : accumulators) {
            accumulator.ensure(groups.count());
            accumulator.add(batch, groupOfRow, rows);
        }
    }

    /** How many groups there are so far. */
    int count() {
        return groups.count();
    }

    /**
     * The groups that meet the plan's {@code HAVING} conditions as Calcite rows: key values, then
     * aggregates (the value itself when there is one column). A group that fails a condition is
     * never made a row.
     */
    List<Object> rows() {
        int keys = plan.groupColumns().size();
        int width = keys + accumulators.length;
        List<AggregatePlan.GroupCondition> having = plan.having();
        Object[] keyValues = new Object[Math.max(keys, 1)];
        List<Object> rows = new ArrayList<>(having.isEmpty() ? groups.count() : 16);
        for (int group = 0; group < groups.count(); group++) {
            if (!having.isEmpty()) {
                groups.keyValues(group, keyValues);
                if (!meets(having, group, keyValues, keys)) {
                    continue;
                }
            }
            Object[] row = new Object[width];
            groups.keyValues(group, row);
            for (int i = 0; i < accumulators.length; i++) {
                row[keys + i] = accumulators[i].result(group);
            }
            rows.add(width == 1 ? row[0] : row);
        }
        return rows;
    }

    private boolean meets(List<AggregatePlan.GroupCondition> having, int group, Object[] keyValues, int keys) {
        for (AggregatePlan.GroupCondition condition : having) {
            int field = condition.field();
            Object value = field < keys ? keyValues[field] : accumulators[field - keys].result(group);
            if (!condition.test(value)) {
                return false;
            }
        }
        return true;
    }
}
