package dev.riffle.lake.union;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.scan.Projection;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.lake.source.LakeScan;
import dev.riffle.lake.source.LakeSource;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateBuilder;
import org.apache.fluss.types.RowType;

/**
 * Describes a union read of one table (lake snapshot + Fluss log tail); {@link #createReader()}
 * pins the lake snapshot and the log's stop offsets.
 *
 * <pre>{@code
 * UnionRead.of(riffle, lakeSource, riffle.table("shop.orders")).columns(List.of("id", "amount")).createReader()
 * }</pre>
 *
 * <p>The lake snapshot is Fluss's readable one ({@code getReadableLakeSnapshot}); with none yet,
 * the read is the Fluss log alone.
 */
public final class UnionRead {
    private final Riffle riffle;
    private final LakeSource lake;
    private final RiffleTable table;
    private final Optional<List<String>> columns;
    private final boolean lakeOnly;
    private final Optional<Predicate> filter;
    private final long tailRowsInMemory;

    /** Up to this many log-tail rows of a primary-key table are held in memory; past it, only their keys. */
    public static final long DEFAULT_TAIL_ROWS_IN_MEMORY = 200_000;

    private UnionRead(Riffle riffle, LakeSource lake, RiffleTable table, Optional<List<String>> columns,
            boolean lakeOnly, Optional<Predicate> filter, long tailRowsInMemory) {
        this.riffle = requireNonNull(riffle, "riffle is null");
        this.lake = requireNonNull(lake, "lake is null");
        this.table = requireNonNull(table, "table is null");
        this.columns = requireNonNull(columns, "columns is null");
        this.lakeOnly = lakeOnly;
        this.filter = requireNonNull(filter, "filter is null");
        this.tailRowsInMemory = tailRowsInMemory;
    }

    public static UnionRead of(Riffle riffle, LakeSource lake, RiffleTable table) {
        return new UnionRead(riffle, lake, table, Optional.empty(), false, Optional.empty(), DEFAULT_TAIL_ROWS_IN_MEMORY);
    }

    /** Only these columns, in this order. */
    public UnionRead columns(List<String> names) {
        TableInfo info = table.info();
        Projection.of(info.getRowType(), names, info.getTablePath());
        return new UnionRead(riffle, lake, table, Optional.of(List.copyOf(names)), lakeOnly, filter, tailRowsInMemory);
    }

    /** The lake snapshot alone, without the log past it. */
    public UnionRead lakeOnly() {
        return new UnionRead(riffle, lake, table, columns, true, filter, tailRowsInMemory);
    }

    /**
     * How many rows of a primary-key table's log tail may be held in memory for the merge (default
     * {@value #DEFAULT_TAIL_ROWS_IN_MEMORY}). A longer tail keeps only its keys and where their
     * newest records are, and is read a second time to emit those records: memory then grows with
     * the number of keys the tail touched, not with its rows or the table.
     */
    public UnionRead tailRowsInMemory(long rows) {
        if (rows < 0) {
            throw new IllegalArgumentException("tail rows in memory must be >= 0, got " + rows);
        }
        return new UnionRead(riffle, lake, table, columns, lakeOnly, filter, rows);
    }

    /**
     * Only rows matching {@code predicate} (built over the table's row type, e.g. with
     * {@code new PredicateBuilder(table.info().getRowType())}). The lake applies what it can; the
     * rest, and every row from the log, is checked here, after the primary-key merge.
     */
    public UnionRead filter(Predicate predicate) {
        return new UnionRead(riffle, lake, table, columns, lakeOnly, Optional.of(predicate), tailRowsInMemory);
    }

    public UnionReader createReader() throws IOException {
        TableInfo info = table.info();
        RowType rowType = info.getRowType();
        int[] requested = columns.map(c -> Projection.of(rowType, c, info.getTablePath()).requested())
                .orElseGet(() -> Projection.all(rowType).requested());
        List<Integer> read = new ArrayList<>();
        for (int column : requested) {
            read.add(column);
        }
        Optional<int[]> keys = Optional.empty();
        if (info.hasPrimaryKey()) {
            // The merge needs the key on both sides, requested or not.
            int[] keyPositions = new int[info.getPrimaryKeys().size()];
            for (int k = 0; k < keyPositions.length; k++) {
                int column = rowType.getFieldNames().indexOf(info.getPrimaryKeys().get(k));
                int at = read.indexOf(column);
                if (at < 0) {
                    read.add(column);
                    at = read.size() - 1;
                }
                keyPositions[k] = at;
            }
            keys = Optional.of(keyPositions);
        }
        if (filter.isPresent()) {
            // The filter's columns are read too, requested or not.
            for (int column : PredicateFields.of(filter.get())) {
                if (!read.contains(column)) {
                    read.add(column);
                }
            }
        }
        int[] readColumns = read.stream().mapToInt(Integer::intValue).toArray();
        int[] positions = new int[rowType.getFieldCount()];
        java.util.Arrays.fill(positions, -1);
        for (int i = 0; i < readColumns.length; i++) {
            positions[readColumns[i]] = i;
        }
        List<String> readNames = new ArrayList<>();
        for (int column : readColumns) {
            readNames.add(rowType.getFieldNames().get(column));
        }

        Admin admin = riffle.connection().getAdmin();
        Optional<LakeSnapshot> snapshot = readableSnapshot(admin, info);
        Optional<LakeScan> lakeScan = Optional.empty();
        ReadBuilder log = table.read().columns(readNames);
        if (info.hasPrimaryKey()) {
            log = log.changelog();
        }
        if (snapshot.isEmpty() && lakeOnly) {
            throw new IllegalArgumentException("Table " + info.getTablePath() + " has no lake snapshot yet: nothing has"
                    + " been tiered (is a tiering service running?)");
        }
        RowFilter lakeFilter = RowFilter.all();
        if (snapshot.isPresent()) {
            List<Predicate> conjuncts = filter.map(PredicateBuilder::splitAnd).orElse(List.of());
            LakeScan scan = lake.plan(snapshot.get().getSnapshotId(), readColumns, conjuncts);
            lakeScan = Optional.of(scan);
            List<Predicate> residual = new ArrayList<>(scan.filters().inexact());
            residual.addAll(scan.filters().notApplied());
            lakeFilter = RowFilter.of(residual.isEmpty() ? Optional.empty() : Optional.of(PredicateBuilder.and(residual)),
                    positions);
            log = log.from(StartingOffsets.explicit(startOffsets(admin, info, snapshot.get())));
        }
        Optional<BoundedLogReader> logReader;
        try {
            logReader = lakeOnly ? Optional.empty() : Optional.of(log.createReader());
        } catch (RuntimeException e) {
            lakeScan.ifPresent(LakeScan::close);
            throw e;
        }
        ReadBuilder replayRead = log;
        Map<org.apache.fluss.metadata.TableBucket, Long> starts = logReader.map(BoundedLogReader::startOffsets).orElse(Map.of());
        Map<org.apache.fluss.metadata.TableBucket, Long> stops = logReader.map(BoundedLogReader::stopOffsets).orElse(Map.of());
        java.util.function.Supplier<BoundedLogReader> replay = () -> {
            dev.riffle.core.scan.ArrowLogScanner scanner = replayRead.createScanner();
            try {
                starts.forEach(scanner::subscribe);
                return BoundedLogReader.create(scanner, true, stops, Optional.empty());
            } catch (RuntimeException e) {
                scanner.close();
                throw e;
            }
        };
        return new UnionReader(ArrowTypeMapping.toArrowSchema(rowType.project(requested)), requested.length, lakeScan,
                logReader, riffle.allocator(), keys, lakeFilter, RowFilter.of(filter, positions), tailRowsInMemory,
                replay);
    }

    private static Optional<LakeSnapshot> readableSnapshot(Admin admin, TableInfo info) throws IOException {
        try {
            return Optional.of(admin.getReadableLakeSnapshot(info.getTablePath()).get(60, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return Optional.empty();
            }
            throw new IOException("Cannot get the lake snapshot of " + info.getTablePath() + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (Exception e) {
            throw new IOException("Cannot get the lake snapshot of " + info.getTablePath() + ": " + e.getMessage(), e);
        }
    }

    /** The log starts where the lake snapshot ends; partitions the log no longer has are left out. */
    private static Map<BucketRef, Long> startOffsets(Admin admin, TableInfo info, LakeSnapshot snapshot)
            throws IOException {
        Map<Long, String> partitions = new HashMap<>();
        if (info.isPartitioned()) {
            try {
                for (PartitionInfo partition : admin.listPartitionInfos(info.getTablePath()).get(60, TimeUnit.SECONDS)) {
                    partitions.put(partition.getPartitionId(), partition.getPartitionName());
                }
            } catch (Exception e) {
                throw new IOException("Cannot list the partitions of " + info.getTablePath(), e);
            }
        }
        Map<BucketRef, Long> starts = new HashMap<>();
        snapshot.getTableBucketsOffset().forEach((bucket, offset) -> {
            if (bucket.getPartitionId() == null) {
                starts.put(BucketRef.of(bucket.getBucket()), offset);
            } else if (partitions.containsKey(bucket.getPartitionId())) {
                starts.put(BucketRef.of(partitions.get(bucket.getPartitionId()), bucket.getBucket()), offset);
            }
        });
        return starts;
    }
}
