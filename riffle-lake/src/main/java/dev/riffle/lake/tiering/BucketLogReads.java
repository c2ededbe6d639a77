package dev.riffle.lake.tiering;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.log.LogBatchHeader;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.BucketOffsets;
import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.read.StoppingOffsets;
import dev.riffle.core.rpc.FetchedRecords;
import dev.riffle.core.rpc.LogFetcher;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import java.time.Duration;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarCharVector;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.LogFormat;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataTypeRoot;

/**
 * Every read of a Fluss log the tiering makes through riffle-core, in one place: reading a bucket
 * span as Arrow batches, looking whether a range of offsets holds records at all, and (for
 * {@link TieringStatus}) finding when the oldest untiered record was committed. Also what those
 * reads can do ({@link #arrowLimitation}), so a reader is chosen before anything is read. When
 * riffle-core's read API changes, this class is what changes.
 *
 * <pre>{@code
 * BucketLogReads reads = new BucketLogReads(connection, serviceAllocator);
 * if (BucketLogReads.arrowLimitation(table).isEmpty()) {
 *     reads.readBatches(table, span, batch -> {
 *         for (int i = 0; i < batch.rowCount(); i++) {
 *             writer.write(batch.at(i));
 *         }
 *     });
 * }
 * }</pre>
 *
 * <p>Memory: every Arrow read gets its own child of the allocator given here, closed when the read
 * ends, so a leak shows up on that allocator.
 */
final class BucketLogReads {
    /** The id Fluss gives a table's schema when it is created; a table altered since has a higher one. */

    /** Column types {@link ArrowBatchRecord}'s row view shows a lake writer; nested types it does not. */
    private static final Set<DataTypeRoot> VIEWABLE_TYPES = EnumSet.of(DataTypeRoot.BOOLEAN, DataTypeRoot.TINYINT,
            DataTypeRoot.SMALLINT, DataTypeRoot.INTEGER, DataTypeRoot.BIGINT, DataTypeRoot.FLOAT, DataTypeRoot.DOUBLE,
            DataTypeRoot.CHAR, DataTypeRoot.STRING, DataTypeRoot.BINARY, DataTypeRoot.BYTES, DataTypeRoot.DECIMAL,
            DataTypeRoot.DATE, DataTypeRoot.TIME_WITHOUT_TIME_ZONE, DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
            DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration RECORD_CHECK_LIMIT = Duration.ofSeconds(30);

    /** Takes each Arrow batch of a span while it is open; the batch is freed when this returns. */
    @FunctionalInterface
    interface BatchConsumer {
        void accept(ArrowBatchRecord batch) throws Exception;
    }

    private final FlussConnection connection;
    private final BufferAllocator allocator;

    /**
     * @param allocator the parent of every allocator these reads create (the tiering service's)
     */
    BucketLogReads(Connection connection, BufferAllocator allocator) {
        this.connection = (FlussConnection) requireNonNull(connection, "connection is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /**
     * Why Riffle's Arrow reader cannot hand this table's log records to a lake writer, if it cannot:
     * a log format other than ARROW, or a column type the row view does not show. (Batches written
     * with an older schema come back in the current one, added columns null.)
     */
    static Optional<String> arrowLimitation(TableInfo table) {
        requireNonNull(table, "table is null");
        LogFormat format = table.getTableConfig().getLogFormat();
        if (format != LogFormat.ARROW) {
            return Optional.of("its log format is " + format + "; Riffle's Arrow reader reads ARROW logs");
        }
        for (DataField field : table.getRowType().getFields()) {
            if (!VIEWABLE_TYPES.contains(field.getType().getTypeRoot())) {
                return Optional.of("column '" + field.getName() + "' is " + field.getType()
                        + "; the Arrow row view shows scalar columns only");
            }
        }
        return Optional.empty();
    }

    /**
     * Reads the span's records (a primary-key table's as its changelog) as Arrow batches, in offset
     * order, and hands each to {@code consumer}; a batch that crosses the span's stop is sliced.
     * Only for tables without an {@link #arrowLimitation}.
     */
    void readBatches(TableInfo table, BucketSpan.LogRange span, BatchConsumer consumer) throws Exception {
        requireNonNull(table, "table is null");
        requireNonNull(span, "span is null");
        requireNonNull(consumer, "consumer is null");
        boolean changelog = table.hasPrimaryKey();
        int fields = table.getRowType().getFieldCount();
        BucketRef ref = new BucketRef(span.partitionName(), span.bucket().getBucket());
        try (BufferAllocator spanAllocator = allocator.newChildAllocator(
                "tiering " + table.getTablePath() + " " + ref, 0, Long.MAX_VALUE)) {
            ReadBuilder read = new ReadBuilder(connection, table, spanAllocator);
            read = (changelog ? read.changelog() : read.log())
                    .from(span.from().map(from -> StartingOffsets.explicit(Map.of(ref, from)))
                            .orElse(StartingOffsets.earliest()))
                    .until(StoppingOffsets.explicit(Map.of(ref, span.stop())));
            try (BoundedLogReader reader = read.createLogReader()) {
                while (reader.hasNext()) {
                    try (LogBatch batch = reader.next()) {
                        Optional<VarCharVector> changeTypes = changelog
                                ? Optional.of((VarCharVector) batch.root().getVector(ArrowLogScanner.CHANGE_TYPE_COLUMN))
                                : Optional.empty();
                        consumer.accept(new ArrowBatchRecord(batch.root(), fields, batch.baseOffset(),
                                batch.commitTimestamp(), changeTypes));
                    }
                }
            }
        }
    }

    /**
     * Whether the bucket's offsets from {@code from} (or the first offset the log still holds) to
     * {@code stop} (exclusive) hold any record, rather than only batches without records (a
     * primary-key write that changed nothing still takes an offset). Reads batch headers only, so
     * it works for every log format and schema.
     *
     * @throws IllegalStateException when the bucket does not answer within 30 s
     */
    boolean holdsRecords(TableInfo table, TableBucket bucket, Optional<String> partitionName, Optional<Long> from,
            long stop) throws Exception {
        requireNonNull(table, "table is null");
        requireNonNull(bucket, "bucket is null");
        requireNonNull(partitionName, "partitionName is null");
        long start = from.isPresent() ? from.get() : earliestOffset(table, bucket, partitionName);
        if (start >= stop) {
            return false;
        }
        long deadline = System.nanoTime() + RECORD_CHECK_LIMIT.toNanos();
        try (LogFetcher fetcher = new LogFetcher(connection, table, Optional.empty(), LogFetcher.Config.DEFAULT)) {
            fetcher.assign(bucket, start);
            while (true) {
                for (FetchedRecords fetched : fetcher.poll(POLL)) {
                    for (LogBatchHeader header : fetched.batches()) {
                        if (header.baseOffset() >= stop) {
                            return false;
                        }
                        if (header.lastOffset() >= start && header.recordCount() > 0) {
                            return true;
                        }
                    }
                }
                if (fetcher.position(bucket).orElse(start) >= stop) {
                    return false;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Bucket " + bucket.getBucket() + " of " + table.getTablePath()
                            + " did not show within " + RECORD_CHECK_LIMIT.toSeconds() + " s whether offsets [" + start
                            + ", " + stop + ") hold records");
                }
            }
        }
    }

    private long earliestOffset(TableInfo table, TableBucket bucket, Optional<String> partitionName) throws Exception {
        Map<Integer, Long> earliest = BucketOffsets.of(connection, table).earliest(partitionName.map(name ->
                new BucketOffsets.Partition(bucket.getPartitionId(), name)), List.of(bucket.getBucket()));
        return Math.max(0, earliest.getOrDefault(bucket.getBucket(), 0L));
    }

    /**
     * When the record at each given offset was committed, oldest first: read from {@code riffle}
     * (the caller's connection and allocator), one record per bucket.
     *
     * @return empty when none of the buckets has a record at its offset any more
     */
    static Optional<Long> oldestCommitTimestamp(Riffle riffle, TableInfo table, Map<BucketRef, Long> offsets) {
        requireNonNull(riffle, "riffle is null");
        requireNonNull(table, "table is null");
        if (offsets.isEmpty()) {
            return Optional.empty();
        }
        Map<BucketRef, Long> stops = new HashMap<>();
        offsets.forEach((bucket, offset) -> stops.put(bucket, offset + 1));
        long oldest = Long.MAX_VALUE;
        String first = table.getRowType().getFieldNames().get(0);
        try (BoundedLogReader reader = riffle.table(table.getTablePath()).changelog().columns(first)
                .from(StartingOffsets.explicit(offsets)).until(StoppingOffsets.explicit(stops))
                .timeout(RECORD_CHECK_LIMIT).createLogReader()) {
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    oldest = Math.min(oldest, batch.commitTimestamp());
                }
            }
        }
        return oldest == Long.MAX_VALUE ? Optional.empty() : Optional.of(oldest);
    }
}
