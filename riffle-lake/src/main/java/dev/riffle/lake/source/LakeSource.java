package dev.riffle.lake.source;

import java.io.IOException;
import java.util.List;
import org.apache.fluss.predicate.Predicate;

/**
 * The lake side of one table, as the union read needs it: plan the splits of a lake snapshot with
 * a projection and filters pushed down, then read each split as Arrow.
 *
 * <p>Paimon is the first implementation ({@link FlussPluginLakeSource}, through Fluss's lake
 * plugin); Iceberg or Lance slot in behind the same interface.
 *
 * <pre>{@code
 * LakeSource lake = FlussPluginLakeSource.create(lakeStorage, tablePath);
 * try (LakeScan scan = lake.plan(snapshotId, new int[] {0, 2}, List.of())) {
 *     for (LakeSplit split : scan.splits()) {
 *         try (LakeBatchReader batches = scan.read(split, allocator)) { ... }
 *     }
 * }
 * }</pre>
 */
public interface LakeSource {

    /**
     * The splits of lake snapshot {@code snapshotId}.
     *
     * @param projection top-level field positions of the Fluss table to read, in output order
     * @param filters predicates over the Fluss table's row type to push down; the scan reports
     *     which ones the lake applied exactly, which only prune (inexact), and which it ignored
     */
    LakeScan plan(long snapshotId, int[] projection, List<Predicate> filters) throws IOException;
}
