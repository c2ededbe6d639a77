package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidOffsetsException;
import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.core.exception.LogExpiredException;
import dev.riffle.core.exception.PartitionNotFoundException;
import dev.riffle.core.filter.BatchFilter;
import dev.riffle.core.filter.PartitionPruning;
import dev.riffle.core.filter.PredicateColumns;
import dev.riffle.core.kv.KvLimitScan;
import dev.riffle.core.kv.KvSnapshot;
import dev.riffle.core.kv.KvSnapshotReader;
import dev.riffle.core.merge.KeyedMergeReader;
import dev.riffle.core.reader.RowsReader;
import dev.riffle.core.reader.SelectingReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.rpc.LogFetcher;
import dev.riffle.core.rpc.RetryingAdmin;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.Projection;
import dev.riffle.core.types.ArrowTypeMapping;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.metadata.KvSnapshots;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.predicate.Predicate;
import org.apache.fluss.types.RowType;

/**
 * Riffle's read façade: describes one read of a table by what it asks for ({@link ReadIntent}),
 * with columns, a row filter and a limit, and picks the reader that serves it. Each step returns
 * a new builder and checks what it is given; {@link #createReader()} makes the reader.
 *
 * <pre>{@code
 * try (TableReader rows = riffle.table("shop.orders").read()
 *         .columns("id", "amount")
 *         .filter(new PredicateBuilder(rowType).greaterThan(1, 100L))
 *         .limit(1000)
 *         .createReader()) {
 *     while (rows.hasNext()) {
 *         try (ReadBatch batch = rows.next()) {
 *             System.out.println(batch.root().contentToTSVString());
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Which reader serves which intent:
 * <ul>
 *   <li>{@link ReadIntent#CURRENT} (the default): a datalake-enabled table's lake snapshot and the
 *       log past it ({@link LakeReads}); a primary-key table's changes merged by key (its KV
 *       store's limit scan for a bare {@code limit}); a log table's log up to the latest offsets.
 *   <li>{@link #log()} and {@link #changelog()}: the log between {@link #from} and {@link #until}
 *       ({@link BoundedLogReader}).
 *   <li>{@link #lake()}: the lake snapshot alone.
 * </ul>
 * A filter is applied exactly once, by the reader that can apply it best (partitions it rules out
 * are not read; the lake prunes what it can); a limit ends the read once that many rows passed.
 *
 * <p>Partitioned tables: the partitions read are those that exist when the reader is created
 * (all of them, those named with {@link #partitions}, or those the filter leaves); partitions
 * created later are not read.
 */
public final class ReadBuilder {
    private final FlussConnection connection;
    private final TableInfo table;
    private final BufferAllocator allocator;
    private final Supplier<LakeReads> lake;
    private final Spec spec;

    /** Everything a read asks for, as one value. */
    private record Spec(ReadIntent intent, Optional<List<String>> columns, Optional<Predicate> filter,
            OptionalLong limit, StartingOffsets from, StoppingOffsets until, Optional<Set<Integer>> buckets,
            Optional<Set<String>> partitions, Optional<Duration> timeout, LogFetcher.Config fetchConfig,
            long tailRowsInMemory, boolean throughLake) {

        static Spec defaults() {
            return new Spec(ReadIntent.CURRENT, Optional.empty(), Optional.empty(), OptionalLong.empty(),
                    StartingOffsets.earliest(), StoppingOffsets.latest(), Optional.empty(), Optional.empty(),
                    Optional.empty(), LogFetcher.Config.DEFAULT, KeyedMergeReader.DEFAULT_TAIL_ROWS_IN_MEMORY, true);
        }

        Spec throughLake(boolean value) {
            return new Spec(intent, columns, filter, limit, from, until, buckets, partitions, timeout, fetchConfig,
                    tailRowsInMemory, value);
        }

        Spec intent(ReadIntent value) {
            return new Spec(value, columns, filter, limit, from, until, buckets, partitions, timeout, fetchConfig,
                    tailRowsInMemory, throughLake);
        }

        Spec columns(List<String> value) {
            return new Spec(intent, Optional.of(List.copyOf(value)), filter, limit, from, until, buckets, partitions,
                    timeout, fetchConfig, tailRowsInMemory, throughLake);
        }

        Spec filter(Predicate value) {
            return new Spec(intent, columns, Optional.of(value), limit, from, until, buckets, partitions, timeout,
                    fetchConfig, tailRowsInMemory, throughLake);
        }

        Spec limit(long value) {
            return new Spec(intent, columns, filter, OptionalLong.of(value), from, until, buckets, partitions, timeout,
                    fetchConfig, tailRowsInMemory, throughLake);
        }

        Spec from(StartingOffsets value) {
            return new Spec(intent, columns, filter, limit, value, until, buckets, partitions, timeout, fetchConfig,
                    tailRowsInMemory, throughLake);
        }

        Spec until(StoppingOffsets value) {
            return new Spec(intent, columns, filter, limit, from, value, buckets, partitions, timeout, fetchConfig,
                    tailRowsInMemory, throughLake);
        }

        Spec buckets(Set<Integer> value) {
            return new Spec(intent, columns, filter, limit, from, until, Optional.of(Set.copyOf(value)), partitions,
                    timeout, fetchConfig, tailRowsInMemory, throughLake);
        }

        Spec partitions(Set<String> value) {
            return new Spec(intent, columns, filter, limit, from, until, buckets,
                    Optional.of(new LinkedHashSet<>(value)), timeout, fetchConfig, tailRowsInMemory, throughLake);
        }

        Spec timeout(Duration value) {
            return new Spec(intent, columns, filter, limit, from, until, buckets, partitions, Optional.of(value),
                    fetchConfig, tailRowsInMemory, throughLake);
        }

        Spec fetchConfig(LogFetcher.Config value) {
            return new Spec(intent, columns, filter, limit, from, until, buckets, partitions, timeout, value,
                    tailRowsInMemory, throughLake);
        }

        Spec tailRowsInMemory(long value) {
            return new Spec(intent, columns, filter, limit, from, until, buckets, partitions, timeout, fetchConfig,
                    value, throughLake);
        }

        boolean readsRange() {
            return intent == ReadIntent.LOG || intent == ReadIntent.CHANGELOG;
        }
    }

    /** A read of {@code table}'s current rows; datalake-enabled tables find their lake side on the classpath. */
    public ReadBuilder(FlussConnection connection, TableInfo table, BufferAllocator allocator) {
        this(connection, table, allocator, () -> LakeReads.forConnection(connection), Spec.defaults());
    }

    /** A read of {@code table}'s current rows, with the given lake side for datalake-enabled tables. */
    public ReadBuilder(FlussConnection connection, TableInfo table, BufferAllocator allocator,
            Supplier<LakeReads> lake) {
        this(connection, table, allocator, lake, Spec.defaults());
    }

    private ReadBuilder(FlussConnection connection, TableInfo table, BufferAllocator allocator,
            Supplier<LakeReads> lake, Spec spec) {
        this.connection = requireNonNull(connection, "connection is null");
        this.table = requireNonNull(table, "table is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.lake = requireNonNull(lake, "lake is null");
        this.spec = requireNonNull(spec, "spec is null");
    }

    private ReadBuilder with(Spec next) {
        return new ReadBuilder(connection, table, allocator, lake, next);
    }

    /** What this read asks for. */
    public ReadIntent intent() {
        return spec.intent();
    }

    // ---- what to read

    /**
     * The log between {@link #from} and {@link #until} (default: earliest to latest), never the
     * lake. Primary-key tables' logs are changelogs: read them with {@link #changelog()}.
     */
    public ReadBuilder log() {
        if (table.hasPrimaryKey()) {
            throw new InvalidReadException("Table " + table.getTablePath() + " has a primary key "
                    + table.getPrimaryKeys() + ": its log is a changelog of upserts and deletes, not a list of rows."
                    + " Read its changes with read().changelog(), or its rows with read()");
        }
        return with(spec.intent(ReadIntent.LOG));
    }

    /**
     * Every change between {@link #from} and {@link #until}: rows carry {@code _change_type},
     * {@code _log_offset} and {@code _commit_timestamp} after the data columns (unless
     * {@link #columns} places them).
     */
    public ReadBuilder changelog() {
        return with(spec.intent(ReadIntent.CHANGELOG));
    }

    /**
     * The current rows from Fluss alone, even for a datalake-enabled table (a primary-key table's
     * rows by key, a log table's log): what SQL's {@code t$log} reads.
     */
    public ReadBuilder withoutLake() {
        if (spec.intent() != ReadIntent.CURRENT) {
            throw new InvalidReadException("withoutLake() chooses how the current rows are read; this read of "
                    + table.getTablePath() + " asks for " + spec.intent() + " rows");
        }
        return with(spec.throughLake(false));
    }

    /** The lake snapshot alone, without the log past it (datalake-enabled tables). */
    public ReadBuilder lake() {
        checkNoRange("A lake read");
        checkDatalake("read from the lake alone");
        if (spec.partitions().isPresent()) {
            throw partitionsNeedLog();
        }
        return with(spec.intent(ReadIntent.LAKE));
    }

    // ---- shaping the rows

    /**
     * Only these columns, in this order. A changelog read may name {@code _change_type},
     * {@code _log_offset} and {@code _commit_timestamp} among them; those it does not name follow
     * the named columns.
     */
    public ReadBuilder columns(String... names) {
        return columns(Arrays.asList(names));
    }

    /** As {@link #columns(String...)}. */
    public ReadBuilder columns(List<String> names) {
        requireNonNull(names, "names is null");
        // Fail here, not at the first batch.
        Projection.of(table.getRowType(), dataColumns(names, true), table.getTablePath());
        return with(spec.columns(names));
    }

    /**
     * Only rows that satisfy {@code predicate}, built over the table's row type (e.g. with
     * {@code new PredicateBuilder(table.getRowType())}); a changelog read's predicate may also test
     * the changelog columns, built over {@link ChangelogColumns#rowType}.
     */
    public ReadBuilder filter(Predicate predicate) {
        requireNonNull(predicate, "predicate is null");
        return with(spec.filter(predicate));
    }

    /** At most {@code rows} rows (after the filter). */
    public ReadBuilder limit(long rows) {
        if (rows < 0) {
            throw new InvalidReadException("A row limit must be >= 0, got " + rows);
        }
        return with(spec.limit(rows));
    }

    // ---- where in the log

    /** Where a log or changelog read starts in each bucket (default: the earliest offset). */
    public ReadBuilder from(StartingOffsets start) {
        requireNonNull(start, "start is null");
        if (!(start instanceof StartingOffsets.Earliest)) {
            checkRange("start");
        }
        if (start instanceof StartingOffsets.Explicit explicit) {
            checkBuckets(explicit.offsets().keySet(), "start");
        }
        if (start instanceof StartingOffsets.Listed listed) {
            checkBuckets(listed.offsets().keySet(), "start");
        }
        return with(spec.from(start));
    }

    /** Where a log or changelog read stops in each bucket, exclusive (default: the latest offsets when it starts). */
    public ReadBuilder until(StoppingOffsets stop) {
        requireNonNull(stop, "stop is null");
        if (!(stop instanceof StoppingOffsets.Latest)) {
            checkRange("stop");
        }
        if (stop instanceof StoppingOffsets.Explicit explicit) {
            checkBuckets(explicit.offsets().keySet(), "stop");
        }
        return with(spec.until(stop));
    }

    /** Only these buckets of a log or changelog read (default: all, or those an explicit stop names). */
    public ReadBuilder buckets(int... bucketIds) {
        checkRange("bucket choice");
        Set<Integer> chosen = new LinkedHashSet<>();
        for (int bucket : bucketIds) {
            if (bucket < 0 || bucket >= table.getNumBuckets()) {
                throw new InvalidReadException("Bucket " + bucket + " does not exist: table "
                        + table.getTablePath() + " has buckets 0.." + (table.getNumBuckets() - 1));
            }
            chosen.add(bucket);
        }
        return with(spec.buckets(chosen));
    }

    /** Only these partitions of a partitioned table (default: every partition that exists now). */
    public ReadBuilder partitions(String... names) {
        if (!table.isPartitioned()) {
            throw new InvalidReadException("Table " + table.getTablePath() + " is not partitioned");
        }
        if (spec.intent() == ReadIntent.LAKE
                || (spec.intent() == ReadIntent.CURRENT && datalake() && spec.throughLake())) {
            throw partitionsNeedLog();
        }
        return with(spec.partitions(new LinkedHashSet<>(Arrays.asList(names))));
    }

    /** Fail the read if it is not done within {@code limit}. */
    public ReadBuilder timeout(Duration limit) {
        return with(spec.timeout(requireNonNull(limit, "limit is null")));
    }

    public ReadBuilder fetchConfig(LogFetcher.Config config) {
        return with(spec.fetchConfig(requireNonNull(config, "config is null")));
    }

    /**
     * How many rows of a primary-key table's log tail the merge by key may hold in memory
     * (default {@value KeyedMergeReader#DEFAULT_TAIL_ROWS_IN_MEMORY}, and at most
     * {@value KeyedMergeReader#TAIL_BYTES_IN_MEMORY} bytes of Arrow buffers whatever the limit); a
     * longer tail keeps only its keys and is read twice.
     */
    public ReadBuilder tailRowsInMemory(long rows) {
        if (rows < 0) {
            throw new InvalidReadException("Tail rows in memory must be >= 0, got " + rows);
        }
        return with(spec.tailRowsInMemory(rows));
    }

    // ---- terminal calls

    /** Which reader {@link #createReader()} will use (decided without reading anything). */
    public ReadPath path() {
        return ReadPath.choose(table, spec.intent(), spec.throughLake(), spec.filter().isPresent(),
                spec.limit().isPresent());
    }

    /**
     * Where a log or changelog read made now would stop in each bucket it covers (partition
     * pruning applied), captured once: a read cut into parts, each given some of these buckets and
     * their offsets with {@link #until}, reads every row of the whole read once, whoever reads the
     * parts and whenever.
     *
     * @throws InvalidReadException for a read that is not a log or changelog read
     */
    public Map<BucketRef, Long> stopOffsets() {
        return offsetsByBucket(true);
    }

    /**
     * Where a log or changelog read made now would start in each bucket it covers (its
     * {@link #from}: the earliest offsets unless told), asked of the bucket leaders with the same
     * retries as a read's own start; {@link #stopOffsets} is its pair.
     *
     * @throws InvalidReadException for a read that is not a log or changelog read
     */
    public Map<BucketRef, Long> startOffsets() {
        return offsetsByBucket(false);
    }

    private Map<BucketRef, Long> offsetsByBucket(boolean stops) {
        ReadPath path = path();
        if (path != ReadPath.LOG_SCAN && path != ReadPath.CHANGELOG_SCAN) {
            throw new InvalidReadException("Only log and changelog reads start and stop at offsets; this read of "
                    + table.getTablePath() + " is a " + path);
        }
        Admin admin = RetryingAdmin.of(connection);
        List<ScopedBucket> scope = scope(admin, spec.filter(), spec.until());
        OffsetsResolver offsets = new OffsetsResolver(connection, table);
        Map<TableBucket, Long> found = stops ? offsets.stop(spec.until(), scope) : offsets.start(spec.from(), scope);
        Map<BucketRef, Long> byRef = new LinkedHashMap<>();
        for (ScopedBucket bucket : scope) {
            byRef.put(bucket.ref(), found.get(bucket.bucket()));
        }
        return byRef;
    }

    /** The reader this read asks for; close it when done. */
    public TableReader createReader() {
        checkColumns();
        return switch (path()) {
            case LOG_SCAN -> logReader(false);
            case CHANGELOG_SCAN -> logReader(true);
            case LAKE_SCAN -> lakeReader(true);
            case UNION_SCAN -> lakeReader(false);
            case SNAPSHOT_SCAN -> CurrentRowsReader.open(this::snapshotReader, CURRENT_ROWS_ATTEMPTS, CURRENT_ROWS_PAUSE);
            case KV_LIMIT_SCAN -> kvLimitScan(spec.columns().orElse(allColumns()), spec.limit().getAsLong());
        };
    }

    /** {@link #createReader()} as an {@link ArrowReader}. */
    public ArrowReader toArrowReader() {
        return createReader().toArrowReader();
    }

    /**
     * The bounded log reader of a log or changelog read (or the current rows of a log table
     * without a lake), whose batches keep their bucket and offsets. Filters and limits belong to
     * {@link #createReader()}.
     */
    public BoundedLogReader createLogReader() {
        if (spec.filter().isPresent() || spec.limit().isPresent()) {
            throw new InvalidReadException("createLogReader() reads whole batches of the log; a filter or a limit"
                    + " needs createReader()");
        }
        ReadPath path = path();
        boolean changelog = path == ReadPath.CHANGELOG_SCAN;
        if (!changelog && path != ReadPath.LOG_SCAN) {
            throw new InvalidReadException("createLogReader() reads the log; this read of " + table.getTablePath()
                    + " asks for " + spec.intent() + " rows, which are not the log alone: use createReader()");
        }
        List<String> data = dataColumns(spec.columns().orElse(table.getRowType().getFieldNames()), changelog);
        return boundedLog(data, changelog, spec.from(), spec.until(), Optional.empty());
    }

    /** A scanner with this read's table, columns and changelog choice, nothing subscribed. */
    public ArrowLogScanner createScanner() {
        boolean changelog = spec.intent() == ReadIntent.CHANGELOG;
        List<String> data = dataColumns(spec.columns().orElse(table.getRowType().getFieldNames()), changelog);
        return scanner(data, changelog);
    }

    // ---- the readers

    /** The log (or changelog) in the read's columns, filtered and limited. */
    private TableReader logReader(boolean changelog) {
        List<String> requested = spec.columns().orElse(changelog ? withChangelogColumns(allColumns())
                : allColumns());
        List<String> data = readColumns(dataColumns(requested, changelog), List.of());
        // An unfiltered limit needs its first rows only: fetches sized for them (a filter may skip many).
        LogFetcher.Config fetch = spec.limit().isPresent() && spec.filter().isEmpty()
                ? spec.fetchConfig().forRows(spec.limit().getAsLong()) : spec.fetchConfig();
        BoundedLogReader log = boundedLog(data, changelog, spec.from(), spec.until(), spec.filter(), fetch);
        List<String> layout = new ArrayList<>(data);
        if (changelog) {
            layout.addAll(CHANGELOG_COLUMNS);
        }
        List<String> output = changelog ? withChangelogColumns(requested) : requested;
        if (spec.filter().isEmpty() && spec.limit().isEmpty() && layout.equals(output)) {
            return log;
        }
        return new SelectingReader(log, batchFilter(layout), spec.limit().orElse(Long.MAX_VALUE),
                positions(layout, output));
    }

    /**
     * A primary-key table's rows by key as of the stop offsets: each bucket's latest KV snapshot,
     * with the changelog from the snapshot's log offset merged over it by key (newest wins). The
     * snapshots are looked up before the stop offsets are captured, so no snapshot covers more
     * than the read stops at. A bucket without a snapshot yet replays its changelog from offset 0,
     * which is whole only while none of its log has expired: if its log starts later, the read
     * fails rather than answer without the keys that lived in the expired segments.
     */
    private TableReader snapshotReader() {
        List<String> requested = spec.columns().orElse(allColumns());
        List<String> read = readColumns(requested, table.getPrimaryKeys());
        Admin admin = RetryingAdmin.of(connection);
        List<ScopedBucket> scope = scope(admin, spec.filter());
        Map<TableBucket, KvSnapshot> snapshots = latestSnapshots(admin, scope);
        Map<BucketRef, Long> starts = new LinkedHashMap<>();
        for (ScopedBucket bucket : scope) {
            KvSnapshot snapshot = snapshots.get(bucket.bucket());
            starts.put(bucket.ref(), snapshot == null ? 0L : snapshot.logOffset());
        }
        BoundedLogReader tail;
        try {
            tail = boundedLog(read, true, StartingOffsets.explicit(starts), StoppingOffsets.latest(), spec.filter());
        } catch (InvalidOffsetsException e) {
            throw new LogExpiredException("Cannot read the current rows of " + table.getTablePath() + " from Fluss: "
                    + e.getMessage() + ". Its log has expired (table.log.ttl) past what its KV snapshots cover;"
                    + " wait for the next KV snapshot (kv.snapshot.interval), or read the table through its lake", e);
        }
        TableReader base = null;
        try {
            int[] readFields = fieldIndexes(read);
            int[] all = new int[read.size()];
            Arrays.setAll(all, i -> i);
            List<KvSnapshot> inScope = scope.stream().map(bucket -> snapshots.get(bucket.bucket()))
                    .filter(Objects::nonNull).toList();
            // The buckets' snapshots are read on their own threads from now on, while the merge folds the tail.
            base = new SelectingReader(new KvSnapshotReader(connection, table, inScope, readFields,
                    tail.allocator(), KvSnapshotReader.defaultThreads()), batchFilter(read), Long.MAX_VALUE, all);
            int[] keys = table.getPrimaryKeys().stream().mapToInt(read::indexOf).toArray();
            Schema output = ArrowTypeMapping.toArrowSchema(table.getRowType().project(fieldIndexes(requested)));
            Supplier<BoundedLogReader> replay = () -> boundedLogAt(read, tail.startOffsets(), tail.stopOffsets());
            return limited(new KeyedMergeReader(base, tail, keys, batchFilter(read), output,
                    spec.tailRowsInMemory(), replay, tail.allocator()));
        } catch (RuntimeException e) {
            if (base != null) {
                base.close();
            }
            tail.close();
            throw e;
        }
    }

    /** Each bucket's latest completed KV snapshot, for the buckets in scope that have one. */
    private Map<TableBucket, KvSnapshot> latestSnapshots(Admin admin, List<ScopedBucket> scope) {
        Map<TableBucket, KvSnapshot> snapshots = new HashMap<>();
        Set<Optional<String>> partitions = new LinkedHashSet<>();
        scope.forEach(bucket -> partitions.add(bucket.partitionName()));
        for (Optional<String> partition : partitions) {
            KvSnapshots latest;
            try {
                latest = (partition.isPresent()
                        ? admin.getLatestKvSnapshots(table.getTablePath(), partition.get())
                        : admin.getLatestKvSnapshots(table.getTablePath())).get(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while looking up the KV snapshots of "
                        + table.getTablePath(), e);
            } catch (Exception e) {
                throw new IllegalStateException("Cannot look up the KV snapshots of " + table.getTablePath()
                        + partition.map(p -> " partition " + p).orElse("") + ": " + e.getMessage(), e);
            }
            for (TableBucket bucket : latest.getTableBuckets()) {
                OptionalLong id = latest.getSnapshotId(bucket.getBucket());
                OptionalLong offset = latest.getLogOffset(bucket.getBucket());
                if (id.isPresent() && offset.isPresent()) {
                    snapshots.put(bucket, new KvSnapshot(bucket, id.getAsLong(), offset.getAsLong()));
                }
            }
        }
        return snapshots;
    }

    private TableReader lakeReader(boolean lakeOnly) {
        List<String> requested = spec.columns().orElse(allColumns());
        TableReader rows = lake.get().open(new LakeRequest(connection, table, requested, spec.filter(), lakeOnly,
                spec.tailRowsInMemory(), allocator));
        return limited(rows);
    }

    private TableReader kvLimitScan(List<String> requested, long limit) {
        List<TableBucket> buckets = new ArrayList<>();
        for (ScopedBucket bucket : scope(RetryingAdmin.of(connection), Optional.empty())) {
            buckets.add(bucket.bucket());
        }
        // One row past the limit, so that the answer knows whether rows were left (truncated()).
        int rows = (int) Math.min(limit, Integer.MAX_VALUE - 1) + 1;
        return limited(new RowsReader(KvLimitScan.rows(connection, table, buckets, rows), table.getRowType(),
                fieldIndexes(requested), allocator));
    }

    private TableReader limited(TableReader reader) {
        if (spec.limit().isEmpty()) {
            return reader;
        }
        int[] all = new int[reader.schema().getFields().size()];
        Arrays.setAll(all, i -> i);
        return new SelectingReader(reader, BatchFilter.all(), spec.limit().getAsLong(), all);
    }

    /**
     * Captures the stop offsets, subscribes every bucket in scope at its start offset, and returns
     * the reader; it owns its scanner.
     */
    private BoundedLogReader boundedLog(List<String> data, boolean changelog, StartingOffsets from,
            StoppingOffsets until, Optional<Predicate> prune) {
        return boundedLog(data, changelog, from, until, prune, spec.fetchConfig());
    }

    private BoundedLogReader boundedLog(List<String> data, boolean changelog, StartingOffsets from,
            StoppingOffsets until, Optional<Predicate> prune, LogFetcher.Config fetch) {
        ArrowLogScanner scanner = scanner(data, changelog, fetch);
        try {
            Admin admin = RetryingAdmin.of(connection);
            List<ScopedBucket> scope = scope(admin, prune, until);
            OffsetsResolver offsets = new OffsetsResolver(connection, table);
            // Stop offsets first: rows that arrive while the start offsets are listed stay out.
            Map<TableBucket, Long> stops = offsets.stop(until, scope);
            Map<TableBucket, Long> starts = offsets.start(from, scope);
            for (ScopedBucket bucket : scope) {
                bucket.partitionName().ifPresent(name -> scanner.knowPartition(bucket.bucket().getPartitionId(), name));
                scanner.subscribe(bucket.bucket(), starts.get(bucket.bucket()));
            }
            return BoundedLogReader.create(scanner, true, stops, spec.timeout(), scope.isEmpty());
        } catch (RuntimeException e) {
            scanner.close();
            throw e;
        }
    }

    /** The same read again, from known start offsets to known stop offsets. */
    private BoundedLogReader boundedLogAt(List<String> data, Map<TableBucket, Long> starts,
            Map<TableBucket, Long> stops) {
        ArrowLogScanner scanner = scanner(data, true);
        try {
            starts.forEach(scanner::subscribe);
            return BoundedLogReader.create(scanner, true, stops, spec.timeout());
        } catch (RuntimeException e) {
            scanner.close();
            throw e;
        }
    }

    private ArrowLogScanner scanner(List<String> data, boolean changelog) {
        return scanner(data, changelog, spec.fetchConfig());
    }

    private ArrowLogScanner scanner(List<String> data, boolean changelog, LogFetcher.Config fetch) {
        Projection projection = data.equals(allColumns()) ? Projection.all(table.getRowType())
                : Projection.of(table.getRowType(), data, table.getTablePath());
        return new ArrowLogScanner(connection, table, projection, changelog, allocator, fetch);
    }

    // ---- columns

    private static final List<String> CHANGELOG_COLUMNS = ChangelogColumns.NAMES;
    /** How often a current-rows read is opened again when the log past its snapshots expires as it starts. */
    private static final int CURRENT_ROWS_ATTEMPTS = 4;
    private static final Duration CURRENT_ROWS_PAUSE = Duration.ofSeconds(1);

    private List<String> allColumns() {
        return table.getRowType().getFieldNames();
    }

    /** The table columns among {@code requested} (a changelog read may also name its own columns). */
    private List<String> dataColumns(List<String> requested, boolean changelog) {
        List<String> data = new ArrayList<>();
        for (String column : requested) {
            if (!(changelog && CHANGELOG_COLUMNS.contains(column))) {
                data.add(column);
            }
        }
        if (data.isEmpty() && !requested.isEmpty()) {
            // Only changelog columns: read the first data column too, since a log read needs one.
            data.add(table.getRowType().getFieldNames().get(0));
        }
        return data;
    }

    /** {@code requested}, then {@code extra} columns and the columns the filter reads that it lacks. */
    private List<String> readColumns(List<String> requested, List<String> extra) {
        List<String> read = new ArrayList<>(requested);
        for (String column : extra) {
            if (!read.contains(column)) {
                read.add(column);
            }
        }
        spec.filter().ifPresent(filter -> {
            List<String> names = table.getRowType().getFieldNames();
            for (int field : PredicateColumns.of(filter)) {
                // Fields past the table's are the changelog columns, which every changelog read has.
                if (field < names.size() && !read.contains(names.get(field))) {
                    read.add(names.get(field));
                }
            }
        });
        return read;
    }

    /** The requested columns with the changelog columns they do not name after them. */
    private static List<String> withChangelogColumns(List<String> requested) {
        List<String> output = new ArrayList<>(requested);
        for (String column : CHANGELOG_COLUMNS) {
            if (!output.contains(column)) {
                output.add(column);
            }
        }
        return output;
    }

    private int[] fieldIndexes(List<String> columns) {
        RowType rowType = table.getRowType();
        return columns.stream().mapToInt(rowType::getFieldIndex).toArray();
    }

    private static int[] positions(List<String> layout, List<String> output) {
        return output.stream().mapToInt(layout::indexOf).toArray();
    }

    /** The read's filter over batches laid out as {@code layout} (table and changelog columns by name). */
    private BatchFilter batchFilter(List<String> layout) {
        List<String> names = ChangelogColumns.rowType(table.getRowType()).getFieldNames();
        int[] positions = new int[names.size()];
        for (int field = 0; field < positions.length; field++) {
            positions[field] = layout.indexOf(names.get(field));
        }
        return BatchFilter.of(spec.filter(), positions);
    }

    // ---- checks

    /** The requested and filtered columns exist (changelog columns only in a changelog read). */
    private void checkColumns() {
        int fields = table.getRowType().getFieldCount();
        if (spec.intent() != ReadIntent.CHANGELOG && spec.filter().isPresent()
                && PredicateColumns.of(spec.filter().get()).stream().anyMatch(f -> f >= fields)) {
            throw new InvalidReadException("The filter tests a changelog column, but this read of "
                    + table.getTablePath() + " is not a changelog read");
        }
        if (spec.columns().isPresent()) {
            Projection.of(table.getRowType(), dataColumns(spec.columns().get(),
                    spec.intent() == ReadIntent.CHANGELOG), table.getTablePath());
        }
    }

    private boolean datalake() {
        return table.getTableConfig().isDataLakeEnabled();
    }

    private void checkRange(String what) {
        if (!spec.readsRange()) {
            throw new InvalidReadException("A " + what + " belongs to a read of the log: the " + spec.intent()
                    + " rows of " + table.getTablePath() + " are read as they are now. Use read().log()"
                    + " (or read().changelog()) to read a range of the log");
        }
    }

    private void checkNoRange(String what) {
        if (!(spec.from() instanceof StartingOffsets.Earliest) || !(spec.until() instanceof StoppingOffsets.Latest)
                || spec.buckets().isPresent()) {
            throw new InvalidReadException(what + " reads the table as it is now: it takes no start, stop or buckets");
        }
    }

    private void checkDatalake(String what) {
        if (!datalake()) {
            throw new InvalidReadException("Table " + table.getTablePath() + " is not datalake-enabled, so it has no"
                    + " lake to " + what + "; read its log with read()");
        }
    }

    private InvalidReadException partitionsNeedLog() {
        return new InvalidReadException("Reads through the lake of " + table.getTablePath() + " take no partition"
                + " list; filter on the partition columns instead (the lake prunes by them)");
    }

    /** Offsets must name buckets the table has, with a partition exactly when it is partitioned. */
    private void checkBuckets(Set<BucketRef> buckets, String kind) {
        for (BucketRef bucket : buckets) {
            if (bucket.partition().isPresent() && !table.isPartitioned()) {
                throw new InvalidReadException("A " + kind + " offset names partition '" + bucket.partition().get()
                        + "', but table " + table.getTablePath() + " is not partitioned; name buckets alone");
            }
            if (bucket.partition().isEmpty() && table.isPartitioned()) {
                throw new InvalidReadException("A " + kind + " offset names bucket " + bucket + " without a partition,"
                        + " but table " + table.getTablePath() + " is partitioned; name PARTITION/BUCKET");
            }
            if (bucket.bucket() >= table.getNumBuckets()) {
                throw new InvalidReadException("A " + kind + " offset names bucket " + bucket.bucket()
                        + ", but table " + table.getTablePath() + " has buckets 0.." + (table.getNumBuckets() - 1));
            }
        }
    }

    // ---- scope

    private List<ScopedBucket> scope(Admin admin, Optional<Predicate> prune) {
        return scope(admin, prune, StoppingOffsets.latest());
    }

    /** The buckets read: every bucket of every partition chosen, narrowed by an explicit stop. */
    private List<ScopedBucket> scope(Admin admin, Optional<Predicate> prune, StoppingOffsets until) {
        List<ScopedBucket> scope = crossProduct(admin, prune, until);
        if (until instanceof StoppingOffsets.Explicit explicit && spec.buckets().isEmpty()
                && spec.partitions().isEmpty()) {
            // No scope given: read exactly the buckets that have a stop offset.
            scope.removeIf(bucket -> !explicit.offsets().containsKey(bucket.ref()));
        }
        return scope;
    }

    private List<ScopedBucket> crossProduct(Admin admin, Optional<Predicate> prune, StoppingOffsets until) {
        Set<Integer> bucketIds = spec.buckets().orElseGet(() -> bucketsFromExplicitStop(until));
        List<ScopedBucket> scope = new ArrayList<>();
        if (!table.isPartitioned()) {
            for (int bucket : bucketIds) {
                scope.add(new ScopedBucket(new TableBucket(table.getTableId(), bucket), Optional.empty()));
            }
            return scope;
        }
        List<PartitionInfo> existing;
        try {
            existing = admin.listPartitionInfos(table.getTablePath()).get(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while listing the partitions of " + table.getTablePath(), e);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot list the partitions of " + table.getTablePath() + ": "
                    + e.getMessage(), e);
        }
        Set<String> wanted = spec.partitions().orElseGet(() -> partitionsFromExplicitOffsets(existing, until));
        for (String name : wanted) {
            if (existing.stream().noneMatch(p -> p.getPartitionName().equals(name))) {
                throw new PartitionNotFoundException("Partition '" + name + "' does not exist in "
                        + table.getTablePath() + "; partitions: "
                        + existing.stream().map(PartitionInfo::getPartitionName).sorted().toList());
            }
        }
        for (PartitionInfo partition : PartitionPruning.of(table, prune).keep(existing)) {
            if (!wanted.contains(partition.getPartitionName())) {
                continue;
            }
            for (int bucket : bucketIds) {
                scope.add(new ScopedBucket(new TableBucket(table.getTableId(), partition.getPartitionId(), bucket),
                        Optional.of(partition.getPartitionName())));
            }
        }
        return scope;
    }

    private Set<Integer> bucketsFromExplicitStop(StoppingOffsets until) {
        Set<Integer> all = new LinkedHashSet<>();
        if (until instanceof StoppingOffsets.Explicit explicit) {
            explicit.offsets().keySet().stream().map(BucketRef::bucket).sorted().forEach(all::add);
            return all;
        }
        for (int b = 0; b < table.getNumBuckets(); b++) {
            all.add(b);
        }
        return all;
    }

    private static Set<String> partitionsFromExplicitOffsets(List<PartitionInfo> existing, StoppingOffsets until) {
        Set<String> names = new LinkedHashSet<>();
        if (until instanceof StoppingOffsets.Explicit explicit) {
            explicit.offsets().keySet().forEach(ref -> ref.partition().ifPresent(names::add));
            if (!names.isEmpty()) {
                return names;
            }
        }
        existing.forEach(p -> names.add(p.getPartitionName()));
        return names;
    }
}
