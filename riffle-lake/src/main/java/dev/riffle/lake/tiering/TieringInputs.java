package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;

/**
 * Everything {@link TieringPlanner} needs to know about a table, gathered beforehand by
 * {@link TieringInputsFetcher}: the table, what the lake holds per bucket, and per partition the
 * log's end offsets and (where they matter) the KV snapshots.
 *
 * <pre>{@code
 * TieringInputs inputs = new TieringInputs(table, Map.of(new TableBucket(tableId, 0), 120L),
 *         List.of(TieringInputs.PartitionOffsets.unpartitioned(Map.of(0, 150L, 1, 90L), Optional.empty())));
 * }</pre>
 *
 * @param lakeOffsets per bucket, the log offset up to which the table's latest lake snapshot holds
 *     it (exclusive); empty for a table never tiered
 * @param partitions one entry without a partition for a table that is not partitioned, else one
 *     per partition
 */
record TieringInputs(TableInfo table, Map<TableBucket, Long> lakeOffsets, List<PartitionOffsets> partitions) {

    TieringInputs {
        requireNonNull(table, "table is null");
        lakeOffsets = Map.copyOf(requireNonNull(lakeOffsets, "lakeOffsets is null"));
        partitions = List.copyOf(requireNonNull(partitions, "partitions is null"));
        if (!table.isPartitioned() && (partitions.size() != 1 || partitions.get(0).partition().isPresent())) {
            throw new IllegalArgumentException("Table " + table.getTablePath() + " is not partitioned: its inputs are"
                    + " one entry without a partition, got " + partitions);
        }
        Set<Long> seen = new HashSet<>();
        for (PartitionOffsets partition : partitions) {
            if (table.isPartitioned() && partition.partition().isEmpty()) {
                throw new IllegalArgumentException("Table " + table.getTablePath() + " is partitioned: every entry of"
                        + " its inputs names a partition");
            }
            if (partition.partition().isPresent() && !seen.add(partition.partition().get().id())) {
                throw new IllegalArgumentException("Partition " + partition.partition().get() + " of "
                        + table.getTablePath() + " appears twice in the inputs");
            }
        }
    }

    /** A partition of a partitioned table. */
    record Partition(long id, String name) {
        Partition {
            requireNonNull(name, "name is null");
        }
    }

    /**
     * One partition's (or an unpartitioned table's) buckets.
     *
     * @param latestOffsets per bucket id, the log's end offset (exclusive); a bucket not listed has
     *     nothing
     * @param kvSnapshots the latest KV snapshots, for a primary-key table that has a bucket the lake
     *     never held (see {@link TieringPlanner#needsKvSnapshots}); otherwise empty
     */
    record PartitionOffsets(Optional<Partition> partition, Map<Integer, Long> latestOffsets,
            Optional<KvSnapshots> kvSnapshots) {
        PartitionOffsets {
            requireNonNull(partition, "partition is null");
            latestOffsets = Map.copyOf(requireNonNull(latestOffsets, "latestOffsets is null"));
            requireNonNull(kvSnapshots, "kvSnapshots is null");
        }

        static PartitionOffsets unpartitioned(Map<Integer, Long> latestOffsets, Optional<KvSnapshots> kvSnapshots) {
            return new PartitionOffsets(Optional.empty(), latestOffsets, kvSnapshots);
        }

        Optional<Long> partitionId() {
            return partition.map(Partition::id);
        }

        Optional<String> partitionName() {
            return partition.map(Partition::name);
        }
    }
}
