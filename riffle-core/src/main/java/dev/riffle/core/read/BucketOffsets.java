package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;

/**
 * The earliest or latest offsets of a table's buckets, asked of the bucket leaders the way every
 * read asks for its start and stop: a leader that is gone is looked up anew and asked again, each
 * try bounded. For callers that need offsets without a read (tiering, lag), rather than Fluss's
 * {@code Admin.listOffsets}, whose futures in 0.9.1 never complete when the request to a stopped
 * leader fails.
 *
 * <pre>{@code
 * Map<Integer, Long> ends = BucketOffsets.of(connection, table).latest(Optional.empty(), List.of(0, 1, 2));
 * }</pre>
 */
public final class BucketOffsets {
    private final TableInfo table;
    private final OffsetsResolver resolver;

    private BucketOffsets(FlussConnection connection, TableInfo table) {
        this.table = table;
        this.resolver = new OffsetsResolver(connection, table);
    }

    public static BucketOffsets of(FlussConnection connection, TableInfo table) {
        return new BucketOffsets(requireNonNull(connection, "connection is null"), requireNonNull(table, "table is null"));
    }

    /** The log end offset (high watermark) of each bucket, by bucket number. */
    public Map<Integer, Long> latest(Optional<Partition> partition, List<Integer> buckets) {
        return byNumber(resolver.stop(StoppingOffsets.latest(), scope(partition, buckets)));
    }

    /** The first offset each bucket still holds, by bucket number. */
    public Map<Integer, Long> earliest(Optional<Partition> partition, List<Integer> buckets) {
        return byNumber(resolver.start(StartingOffsets.earliest(), scope(partition, buckets)));
    }

    /** A partition of the table: its id (for buckets) and name (for the request). */
    public record Partition(long id, String name) {
        public Partition {
            requireNonNull(name, "name is null");
        }
    }

    private List<ScopedBucket> scope(Optional<Partition> partition, List<Integer> buckets) {
        requireNonNull(partition, "partition is null");
        if (partition.isPresent() != table.isPartitioned()) {
            throw new IllegalArgumentException("Table " + table.getTablePath() + (table.isPartitioned()
                    ? " is partitioned: name the partition" : " is not partitioned"));
        }
        List<ScopedBucket> scope = new ArrayList<>();
        for (int bucket : buckets) {
            scope.add(new ScopedBucket(new TableBucket(table.getTableId(), partition.map(Partition::id).orElse(null),
                    bucket), partition.map(Partition::name)));
        }
        return scope;
    }

    private static Map<Integer, Long> byNumber(Map<TableBucket, Long> offsets) {
        Map<Integer, Long> result = new LinkedHashMap<>();
        offsets.forEach((bucket, offset) -> result.put(bucket.getBucket(), offset));
        return result;
    }
}
