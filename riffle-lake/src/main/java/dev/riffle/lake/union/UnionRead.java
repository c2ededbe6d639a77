package dev.riffle.lake.union;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.RiffleTable;
import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.core.filter.BatchFilter;
import dev.riffle.core.filter.PredicateColumns;
import dev.riffle.core.merge.KeyedMergeReader;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.BucketRef;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.read.StartingOffsets;
import dev.riffle.core.reader.ConcatReader;
import dev.riffle.core.reader.EmptyReader;
import dev.riffle.core.reader.SelectingReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.Projection;
import dev.riffle.core.types.ArrowTypeMapping;
import dev.riffle.lake.source.LakeScan;
import dev.riffle.lake.source.LakeSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.LakeSnapshot;
import org.apache.fluss.exception.LakeTableSnapshotNotExistException;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.predicate.PredicateBuilder;
import org.apache.fluss.types.RowType;

/**
 * Describes a union read of one table (lake snapshot + Fluss log tail); {@link #createReader()}
 * pins the lake snapshot and the log's stop offsets. The read façade
 * ({@code riffle.table(..).read()}) reaches it through {@link dev.riffle.lake.read.PluginLakeReads};
 * this builder is for a caller that brings its own {@link LakeSource}.
 *
 * <pre>{@code
 * try (TableReader rows = UnionRead.of(riffle, lakeSource, riffle.table("shop.orders"))
 *         .columns(List.of("id", "amount")).createReader()) { ... }
 * }</pre>
 *
 * <p>Per bucket: the lake snapshot Fluss registered as readable ({@code getReadableLakeSnapshot})
 * up to the log offset it records, then the Fluss log from that offset to the stop offset. Log
 * tables concatenate; primary-key tables merge the log tail over the snapshot by key
 * ({@link KeyedMergeReader}). Every row appears exactly once. With no snapshot yet the read is the
 * Fluss log alone.
 *
 * <p>Filters: the conjuncts the lake can evaluate go into its scan (it prunes files and reports
 * which it applied exactly); the rest are checked on the lake's rows; the log tail's rows are
 * checked after the merge (a key's newest record is what must match). Each row is tested once.
 */
public final class UnionRead {
    private final Riffle riffle;
    private final LakeSource lake;
    private final TableInfo table;
    private final Optional<List<String>> columns;
    private final boolean lakeOnly;
    private final Optional<Predicate> filter;
    private final long tailRowsInMemory;

    private UnionRead(Riffle riffle, LakeSource lake, TableInfo table, Optional<List<String>> columns,
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
        return of(riffle, lake, table.info());
    }

    public static UnionRead of(Riffle riffle, LakeSource lake, TableInfo table) {
        return new UnionRead(riffle, lake, table, Optional.empty(), false, Optional.empty(),
                KeyedMergeReader.DEFAULT_TAIL_ROWS_IN_MEMORY);
    }

    /** Only these columns, in this order. */
    public UnionRead columns(List<String> names) {
        Projection.of(table.getRowType(), names, table.getTablePath());
        return new UnionRead(riffle, lake, table, Optional.of(List.copyOf(names)), lakeOnly, filter, tailRowsInMemory);
    }

    /** The lake snapshot alone, without the log past it. */
    public UnionRead lakeOnly() {
        return new UnionRead(riffle, lake, table, columns, true, filter, tailRowsInMemory);
    }

    /**
     * How many rows of a primary-key table's log tail the merge may hold in memory (default
     * {@value KeyedMergeReader#DEFAULT_TAIL_ROWS_IN_MEMORY}, and at most
     * {@value KeyedMergeReader#TAIL_BYTES_IN_MEMORY} bytes of Arrow buffers whatever the limit); a
     * longer tail keeps only its keys and is read a second time.
     */
    public UnionRead tailRowsInMemory(long rows) {
        if (rows < 0) {
            throw new InvalidReadException("Tail rows in memory must be >= 0, got " + rows);
        }
        return new UnionRead(riffle, lake, table, columns, lakeOnly, filter, rows);
    }

    /** Only rows matching {@code predicate}, built over the table's row type. */
    public UnionRead filter(Predicate predicate) {
        return new UnionRead(riffle, lake, table, columns, lakeOnly, Optional.of(predicate), tailRowsInMemory);
    }

    public TableReader createReader() {
        RowType rowType = table.getRowType();
        List<String> names = rowType.getFieldNames();
        List<String> requested = columns.orElse(names);
        // Read the requested columns, then the key (a merge needs it on both sides), then what the filter reads.
        List<String> read = new ArrayList<>(requested);
        if (table.hasPrimaryKey()) {
            table.getPrimaryKeys().stream().filter(k -> !read.contains(k)).forEach(read::add);
        }
        filter.ifPresent(f -> PredicateColumns.of(f).stream().map(names::get).filter(c -> !read.contains(c))
                .forEach(read::add));
        int[] readFields = read.stream().mapToInt(rowType::getFieldIndex).toArray();
        int[] positions = new int[rowType.getFieldCount()];
        Arrays.fill(positions, -1);
        for (int i = 0; i < readFields.length; i++) {
            positions[readFields[i]] = i;
        }
        Schema readSchema = ArrowTypeMapping.toArrowSchema(rowType.project(readFields));
        int[] output = new int[requested.size()];
        Arrays.setAll(output, i -> i);

        Admin admin = riffle.admin();
        Optional<LakeSnapshot> snapshot = readableSnapshot(admin);
        if (snapshot.isEmpty() && lakeOnly) {
            throw new InvalidReadException("Table " + table.getTablePath() + " has no lake snapshot yet: nothing has"
                    + " been tiered (is a tiering service running?)");
        }
        TableReader base = snapshot.isPresent()
                ? lakeRows(snapshot.get(), readFields, positions, read, readSchema)
                : new EmptyReader(readSchema, riffle.allocator());
        if (lakeOnly) {
            return new SelectingReader(base, BatchFilter.all(), Long.MAX_VALUE, output);
        }
        try {
            ReadBuilder log = new ReadBuilder(riffle.connection(), table, riffle.allocator(), riffle::lake);
            log = (table.hasPrimaryKey() ? log.changelog() : log.log()).columns(read);
            if (snapshot.isPresent()) {
                log = log.from(StartingOffsets.explicit(startOffsets(admin, snapshot.get())));
            }
            BoundedLogReader tail = log.createLogReader();
            BatchFilter filterRows = BatchFilter.of(filter, positions);
            if (!table.hasPrimaryKey()) {
                TableReader logRows = new SelectingReader(tail, filterRows, Long.MAX_VALUE, output);
                return new ConcatReader(new SelectingReader(base, BatchFilter.all(), Long.MAX_VALUE, output), logRows);
            }
            int[] keys = table.getPrimaryKeys().stream().mapToInt(read::indexOf).toArray();
            Schema outputSchema = ArrowTypeMapping.toArrowSchema(rowType.project(
                    requested.stream().mapToInt(rowType::getFieldIndex).toArray()));
            ReadBuilder replayRead = log;
            Supplier<BoundedLogReader> replay = () -> replayOf(replayRead, tail);
            return new KeyedMergeReader(base, tail, keys, filterRows, outputSchema, tailRowsInMemory, replay,
                    riffle.allocator());
        } catch (RuntimeException e) {
            base.close();
            throw e;
        }
    }

    /** The lake snapshot's rows in the read columns, with the filter conjuncts the lake could not apply checked. */
    private TableReader lakeRows(LakeSnapshot snapshot, int[] readFields, int[] positions, List<String> read,
            Schema readSchema) {
        List<Predicate> conjuncts = filter.map(PredicateBuilder::splitAnd).orElse(List.of());
        List<Predicate> pushable = new ArrayList<>();
        List<Predicate> residual = new ArrayList<>();
        for (Predicate conjunct : conjuncts) {
            (LakePushdown.accepts(conjunct, table.getRowType()) ? pushable : residual).add(conjunct);
        }
        LakeScan scan;
        try {
            scan = lake.plan(snapshot.getSnapshotId(), readFields, pushable);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the lake read of " + table.getTablePath() + ": "
                    + e.getMessage(), e);
        }
        residual.addAll(scan.filters().inexact());
        residual.addAll(scan.filters().notApplied());
        BatchFilter lakeFilter = BatchFilter.of(residual.isEmpty() ? Optional.empty()
                : Optional.of(PredicateBuilder.and(residual)), positions);
        int[] all = new int[read.size()];
        Arrays.setAll(all, i -> i);
        TableReader rows = new LakeSplitsReader(scan, readSchema, snapshot.getTableBucketsOffset(), riffle.allocator());
        return lakeFilter.acceptsAll() ? rows : new SelectingReader(rows, lakeFilter, Long.MAX_VALUE, all);
    }

    /** A second read of the same tail (the log below the stop offsets never changes). */
    private static BoundedLogReader replayOf(ReadBuilder read, BoundedLogReader tail) {
        ArrowLogScanner scanner = read.createScanner();
        try {
            tail.startOffsets().forEach(scanner::subscribe);
            return BoundedLogReader.create(scanner, true, tail.stopOffsets(), Optional.empty());
        } catch (RuntimeException e) {
            scanner.close();
            throw e;
        }
    }

    private Optional<LakeSnapshot> readableSnapshot(Admin admin) {
        try {
            return Optional.of(admin.getReadableLakeSnapshot(table.getTablePath()).get(60, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LakeTableSnapshotNotExistException) {
                return Optional.empty();
            }
            throw new IllegalStateException("Cannot get the lake snapshot of " + table.getTablePath() + ": "
                    + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while getting the lake snapshot of " + table.getTablePath(), e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot get the lake snapshot of " + table.getTablePath() + ": "
                    + e.getMessage(), e);
        }
    }

    /** The log starts where the lake snapshot ends; partitions the log no longer has are left out. */
    private Map<BucketRef, Long> startOffsets(Admin admin, LakeSnapshot snapshot) {
        Map<Long, String> partitions = new HashMap<>();
        if (table.isPartitioned()) {
            try {
                for (PartitionInfo partition : admin.listPartitionInfos(table.getTablePath()).get(60, TimeUnit.SECONDS)) {
                    partitions.put(partition.getPartitionId(), partition.getPartitionName());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while listing the partitions of " + table.getTablePath(), e);
            } catch (Exception e) {
                throw new IllegalStateException("Cannot list the partitions of " + table.getTablePath(), e);
            }
        }
        Map<BucketRef, Long> starts = new HashMap<>();
        for (Map.Entry<TableBucket, Long> entry : snapshot.getTableBucketsOffset().entrySet()) {
            TableBucket bucket = entry.getKey();
            if (bucket.getPartitionId() == null) {
                starts.put(BucketRef.of(bucket.getBucket()), entry.getValue());
            } else if (partitions.containsKey(bucket.getPartitionId())) {
                starts.put(BucketRef.of(partitions.get(bucket.getPartitionId()), bucket.getBucket()), entry.getValue());
            }
        }
        return starts;
    }
}
