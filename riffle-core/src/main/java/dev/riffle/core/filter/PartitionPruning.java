package dev.riffle.core.filter;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateBuilder;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.RowType;

/**
 * Which partitions of a table can hold rows a filter keeps: the filter's conjuncts that read only
 * partition keys are tested against each partition's values, so whole partitions are skipped
 * without reading them. Conjuncts on other columns prune nothing here.
 *
 * <pre>{@code
 * List<PartitionInfo> left = PartitionPruning.of(table, filter).keep(allPartitions);
 * }</pre>
 */
public final class PartitionPruning {
    private final RowType rowType;
    private final Optional<Predicate> partitionFilter;

    private PartitionPruning(RowType rowType, Optional<Predicate> partitionFilter) {
        this.rowType = rowType;
        this.partitionFilter = partitionFilter;
    }

    /** The pruning a filter over {@code table}'s row type allows (none for unpartitioned tables). */
    public static PartitionPruning of(TableInfo table, Optional<Predicate> filter) {
        requireNonNull(table, "table is null");
        requireNonNull(filter, "filter is null");
        if (!table.isPartitioned() || filter.isEmpty()) {
            return new PartitionPruning(table.getRowType(), Optional.empty());
        }
        Set<Integer> partitionFields = new HashSet<>();
        for (String key : table.getPartitionKeys()) {
            partitionFields.add(table.getRowType().getFieldIndex(key));
        }
        List<Predicate> onPartitionKeys = new ArrayList<>();
        for (Predicate conjunct : PredicateBuilder.splitAnd(filter.get())) {
            if (partitionFields.containsAll(PredicateColumns.of(conjunct))) {
                onPartitionKeys.add(conjunct);
            }
        }
        return new PartitionPruning(table.getRowType(), onPartitionKeys.isEmpty()
                ? Optional.empty() : Optional.of(PredicateBuilder.and(onPartitionKeys)));
    }

    /** Whether the filter rules out any partition at all. */
    public boolean prunes() {
        return partitionFilter.isPresent();
    }

    /** The partitions whose values the filter's partition-key conjuncts accept. */
    public List<PartitionInfo> keep(List<PartitionInfo> partitions) {
        if (partitionFilter.isEmpty()) {
            return partitions;
        }
        List<PartitionInfo> kept = new ArrayList<>();
        for (PartitionInfo partition : partitions) {
            Map<String, Object> values = PredicateBuilder.convertSpecToInternal(
                    partition.getPartitionSpec().getSpecMap(), rowType);
            GenericRow row = new GenericRow(rowType.getFieldCount());
            values.forEach((column, value) -> row.setField(rowType.getFieldIndex(column), value));
            if (partitionFilter.get().test(row)) {
                kept.add(partition);
            }
        }
        return kept;
    }
}
