package dev.riffle.core.read;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.fetch.LogFetcher;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.Projection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;

/**
 * Describes a bounded read of one table; each step returns a new builder, and the terminal calls
 * create the resources.
 *
 * <pre>{@code
 * try (ArrowReader rows = riffle.table("shop.orders").read()
 *         .columns("id", "amount")
 *         .from(StartingOffsets.earliest())
 *         .until(StoppingOffsets.latest())
 *         .toArrowReader()) {
 *     while (rows.loadNextBatch()) {
 *         System.out.println(rows.getVectorSchemaRoot().contentToTSVString());
 *     }
 * }
 * }</pre>
 *
 * <p>Partitioned tables: the partitions read are those that exist when the reader is created
 * (all of them, or the ones named with {@link #partitions}); partitions created later are not
 * read.
 */
public final class ReadBuilder {
    private final FlussConnection connection;
    private final TableInfo table;
    private final BufferAllocator allocator;
    private final Optional<List<String>> columns;
    private final boolean changelog;
    private final StartingOffsets from;
    private final StoppingOffsets until;
    private final Optional<Set<Integer>> buckets;
    private final Optional<Set<String>> partitions;
    private final Optional<Duration> timeout;
    private final LogFetcher.Config fetchConfig;

    public ReadBuilder(FlussConnection connection, TableInfo table, BufferAllocator allocator) {
        this(connection, table, allocator, Optional.empty(), false, StartingOffsets.earliest(), StoppingOffsets.latest(),
                Optional.empty(), Optional.empty(), Optional.empty(), LogFetcher.Config.DEFAULT);
    }

    private ReadBuilder(FlussConnection connection, TableInfo table, BufferAllocator allocator,
            Optional<List<String>> columns, boolean changelog, StartingOffsets from, StoppingOffsets until,
            Optional<Set<Integer>> buckets, Optional<Set<String>> partitions, Optional<Duration> timeout,
            LogFetcher.Config fetchConfig) {
        this.connection = requireNonNull(connection, "connection is null");
        this.table = requireNonNull(table, "table is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.columns = columns;
        this.changelog = changelog;
        this.from = requireNonNull(from, "from is null");
        this.until = requireNonNull(until, "until is null");
        this.buckets = buckets;
        this.partitions = partitions;
        this.timeout = timeout;
        this.fetchConfig = requireNonNull(fetchConfig, "fetchConfig is null");
    }

    /** Only these columns, in this order (checked when the reader is created). */
    public ReadBuilder columns(String... names) {
        return columns(Arrays.asList(names));
    }

    public ReadBuilder columns(List<String> names) {
        Projection.of(table.getRowType(), names, table.getTablePath()); // fail here, not at the first batch
        return new ReadBuilder(connection, table, allocator, Optional.of(List.copyOf(names)), changelog, from, until,
                buckets, partitions, timeout, fetchConfig);
    }

    /**
     * Read the changelog: rows carry {@code _change_type}, {@code _log_offset} and
     * {@code _commit_timestamp}. Required for primary-key tables.
     */
    public ReadBuilder changelog() {
        return new ReadBuilder(connection, table, allocator, columns, true, from, until, buckets, partitions, timeout,
                fetchConfig);
    }

    public ReadBuilder from(StartingOffsets start) {
        if (start instanceof StartingOffsets.Explicit explicit) {
            checkBuckets(explicit.offsets().keySet(), "start");
        }
        return new ReadBuilder(connection, table, allocator, columns, changelog, start, until, buckets, partitions,
                timeout, fetchConfig);
    }

    public ReadBuilder until(StoppingOffsets stop) {
        if (stop instanceof StoppingOffsets.Explicit explicit) {
            checkBuckets(explicit.offsets().keySet(), "stop");
        }
        return new ReadBuilder(connection, table, allocator, columns, changelog, from, stop, buckets, partitions,
                timeout, fetchConfig);
    }

    /** Offsets must name buckets the table has, with a partition exactly when it is partitioned. */
    private void checkBuckets(Set<BucketRef> buckets, String kind) {
        for (BucketRef bucket : buckets) {
            if (bucket.partition().isPresent() && !table.isPartitioned()) {
                throw new IllegalArgumentException("A " + kind + " offset names partition '" + bucket.partition().get()
                        + "', but table " + table.getTablePath() + " is not partitioned; name buckets alone");
            }
            if (bucket.partition().isEmpty() && table.isPartitioned()) {
                throw new IllegalArgumentException("A " + kind + " offset names bucket " + bucket + " without a partition,"
                        + " but table " + table.getTablePath() + " is partitioned; name PARTITION/BUCKET");
            }
            if (bucket.bucket() >= table.getNumBuckets()) {
                throw new IllegalArgumentException("A " + kind + " offset names bucket " + bucket.bucket() + ", but table "
                        + table.getTablePath() + " has buckets 0.." + (table.getNumBuckets() - 1));
            }
        }
    }

    /** Only these buckets (default: all, or those an explicit stop names). */
    public ReadBuilder buckets(int... bucketIds) {
        Set<Integer> chosen = new LinkedHashSet<>();
        for (int bucket : bucketIds) {
            if (bucket < 0 || bucket >= table.getNumBuckets()) {
                throw new IllegalArgumentException("Bucket " + bucket + " does not exist: table " + table.getTablePath()
                        + " has buckets 0.." + (table.getNumBuckets() - 1));
            }
            chosen.add(bucket);
        }
        return new ReadBuilder(connection, table, allocator, columns, changelog, from, until, Optional.of(chosen),
                partitions, timeout, fetchConfig);
    }

    /** Only these partitions of a partitioned table (default: every partition that exists now). */
    public ReadBuilder partitions(String... names) {
        if (!table.isPartitioned()) {
            throw new IllegalArgumentException("Table " + table.getTablePath() + " is not partitioned");
        }
        return new ReadBuilder(connection, table, allocator, columns, changelog, from, until, buckets,
                Optional.of(new LinkedHashSet<>(Arrays.asList(names))), timeout, fetchConfig);
    }

    /** Fail the read if it is not done within {@code limit}. */
    public ReadBuilder timeout(Duration limit) {
        return new ReadBuilder(connection, table, allocator, columns, changelog, from, until, buckets, partitions,
                Optional.of(limit), fetchConfig);
    }

    public ReadBuilder fetchConfig(LogFetcher.Config config) {
        return new ReadBuilder(connection, table, allocator, columns, changelog, from, until, buckets, partitions,
                timeout, config);
    }

    /** A scanner with this builder's table, columns and changelog choice, nothing subscribed. */
    public ArrowLogScanner createScanner() {
        Projection projection = columns.map(c -> Projection.of(table.getRowType(), c, table.getTablePath()))
                .orElseGet(() -> Projection.all(table.getRowType()));
        return new ArrowLogScanner(connection, table, projection, changelog, allocator, fetchConfig);
    }

    /**
     * Captures the stop offsets, subscribes every bucket in scope at its start offset, and returns
     * the reader; it owns its scanner.
     */
    public BoundedLogReader createReader() {
        ArrowLogScanner scanner = createScanner();
        try {
            Admin admin = connection.getOrCreateAdmin();
            List<ScopedBucket> scope = scope(admin);
            OffsetsResolver offsets = new OffsetsResolver(admin, table);
            // Stop offsets first: rows that arrive while the start offsets are listed stay out.
            Map<TableBucket, Long> stops = offsets.stop(until, scope);
            Map<TableBucket, Long> starts = offsets.start(from, scope);
            for (ScopedBucket bucket : scope) {
                bucket.partitionName().ifPresent(name -> scanner.knowPartition(bucket.bucket().getPartitionId(), name));
                scanner.subscribe(bucket.bucket(), starts.get(bucket.bucket()));
            }
            return BoundedLogReader.create(scanner, true, stops, timeout, scope.isEmpty());
        } catch (RuntimeException e) {
            scanner.close();
            throw e;
        }
    }

    /** {@link #createReader()} as an {@link ArrowReader}. */
    public ArrowReader toArrowReader() {
        return createReader().toArrowReader();
    }

    private List<ScopedBucket> scope(Admin admin) {
        List<ScopedBucket> scope = crossProduct(admin);
        if (until instanceof StoppingOffsets.Explicit explicit && buckets.isEmpty() && partitions.isEmpty()) {
            // No scope given: read exactly the buckets that have a stop offset.
            scope.removeIf(bucket -> !explicit.offsets().containsKey(bucket.ref()));
        }
        return scope;
    }

    private List<ScopedBucket> crossProduct(Admin admin) {
        Set<Integer> bucketIds = buckets.orElseGet(this::bucketsFromExplicitStop);
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
        } catch (Exception e) {
            throw new IllegalStateException("Cannot list the partitions of " + table.getTablePath() + ": " + e.getMessage(), e);
        }
        Set<String> wanted = partitions.orElseGet(() -> partitionsFromExplicitOffsets(existing));
        for (String name : wanted) {
            if (existing.stream().noneMatch(p -> p.getPartitionName().equals(name))) {
                throw new IllegalArgumentException("Partition '" + name + "' does not exist in " + table.getTablePath()
                        + "; partitions: " + existing.stream().map(PartitionInfo::getPartitionName).sorted().toList());
            }
        }
        for (PartitionInfo partition : existing) {
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

    private Set<Integer> bucketsFromExplicitStop() {
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

    private Set<String> partitionsFromExplicitOffsets(List<PartitionInfo> existing) {
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
