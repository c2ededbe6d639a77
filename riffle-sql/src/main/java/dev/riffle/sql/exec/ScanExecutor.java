package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.RiffleTable;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.ReadBuilder;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.lake.config.LakeConfig;
import dev.riffle.lake.source.FlussPluginLakeSource;
import dev.riffle.lake.union.UnionRead;
import dev.riffle.lake.union.UnionReader;
import dev.riffle.sql.planner.ReadPlan;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.calcite.DataContext;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;

/**
 * Runs one {@link ReadPlan}: the generated code of a query calls {@link #enumerable} on the
 * instance the plan stashed. Rows are Calcite's values, an {@code Object[]} per row (the value
 * itself for one column). The same executor serves every execution of a prepared statement;
 * {@code ?} parameters are read from the {@link DataContext} each time.
 */
public final class ScanExecutor {
    private final FlussSession session;
    private final ReadPlan plan;
    /** The session's lookuper for this plan, found once: a prepared point query runs it many times. */
    private volatile Lookuper lookuper;

    public ScanExecutor(FlussSession session, ReadPlan plan) {
        this.session = requireNonNull(session, "session is null");
        this.plan = requireNonNull(plan, "plan is null");
    }

    public ReadPlan plan() {
        return plan;
    }

    /** The rows, read lazily when enumerated. */
    public Enumerable<Object> enumerable(DataContext context) {
        boolean scalar = plan.columns().size() == 1;
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object> enumerator() {
                long limit = limit(context);
                return new RowEnumerator(limit == 0 ? RowSource.of(List.of()) : open(context, limit), scalar, limit);
            }
        };
    }

    /** The plan's row limit as bound for this execution ({@code Long.MAX_VALUE}: none). */
    private long limit(DataContext context) {
        if (plan.limit().isEmpty()) {
            return Long.MAX_VALUE;
        }
        ReadPlan.KeyValue limit = plan.limit().get();
        Object value = limit.isParameter() ? context.get("?" + limit.parameter()) : limit.literal();
        if (!(value instanceof Number number) || number.longValue() < 0) {
            throw new IllegalArgumentException("LIMIT must be a number of rows >= 0, got " + value);
        }
        return number.longValue();
    }

    private RowSource open(DataContext context, long limit) {
        if (plan.access() instanceof ReadPlan.Lookup lookup) {
            return RowSource.of(lookup(lookup, context));
        }
        if (plan.access() instanceof ReadPlan.PrefixLookup prefix) {
            return RowSource.of(prefixLookup(prefix, context));
        }
        if (plan.kvLimitScan()) {
            return RowSource.of(kvLimitScan(limit));
        }
        ConditionPredicates conditions = new ConditionPredicates(plan.table().getRowType(), context);
        if (plan.readsLake()) {
            return unionRows(plan.source() == ReadPlan.Source.LAKE, conditions);
        }
        Optional<List<String>> partitions = partitions(conditions);
        if (partitions.isPresent() && partitions.get().isEmpty()) {
            return RowSource.of(List.of());
        }
        return switch (plan.source()) {
            case CHANGELOG -> logRows(true, partitions);
            case LOG, CURRENT -> plan.primaryKeyTable() ? RowSource.of(foldedChangelog(partitions))
                    : logRows(false, partitions);
            case LAKE -> throw new IllegalStateException("lake reads go through the union reader");
        };
    }

    // ---- lookups

    private List<Object[]> lookup(ReadPlan.Lookup lookup, DataContext context) {
        TableInfo info = plan.table();
        Lookuper lookuper = lookuper(List.of());
        List<CompletableFuture<LookupResult>> pending = new ArrayList<>();
        for (List<ReadPlan.KeyValue> key : lookup.keys()) {
            GenericRow row = keyRow(lookup.keyColumns(), key, context);
            if (row != null) {
                pending.add(lookuper.lookup(row));
            }
        }
        List<Object[]> rows = new ArrayList<>();
        for (CompletableFuture<LookupResult> result : pending) {
            for (InternalRow row : FlussSession.await(result, "look up a key of " + info.getTablePath()).getRowList()) {
                rows.add(project(row));
            }
        }
        return rows;
    }

    private List<Object[]> prefixLookup(ReadPlan.PrefixLookup prefix, DataContext context) {
        TableInfo info = plan.table();
        GenericRow row = keyRow(prefix.prefixColumns(), prefix.prefix(), context);
        if (row == null) {
            return List.of();
        }
        Lookuper lookuper = lookuper(prefix.prefixColumns());
        List<Object[]> rows = new ArrayList<>();
        for (InternalRow found : FlussSession.await(lookuper.lookup(row), "prefix-look up " + info.getTablePath())
                .getRowList()) {
            rows.add(project(found));
        }
        return rows;
    }

    private Lookuper lookuper(List<String> columns) {
        Lookuper known = lookuper;
        if (known == null) {
            known = session.lookuper(plan.table(), columns);
            lookuper = known;
        }
        return known;
    }

    /** The key as Fluss wants it, or null when a value is SQL NULL (which equals nothing). */
    private GenericRow keyRow(List<String> columns, List<ReadPlan.KeyValue> values, DataContext context) {
        RowType rowType = plan.table().getRowType();
        GenericRow row = new GenericRow(columns.size());
        for (int i = 0; i < columns.size(); i++) {
            ReadPlan.KeyValue value = values.get(i);
            Object sql = value.isParameter() ? context.get("?" + value.parameter()) : value.literal();
            int column = rowType.getFieldIndex(columns.get(i));
            Object fluss = FlussValues.toFluss(sql, rowType.getTypeAt(column), columns.get(i));
            if (fluss == null) {
                return null;
            }
            row.setField(i, fluss);
        }
        return row;
    }

    private Object[] project(InternalRow row) {
        RowType rowType = plan.table().getRowType();
        Object[] out = new Object[plan.columns().size()];
        for (int i = 0; i < out.length; i++) {
            int column = plan.columns().get(i);
            out[i] = FlussValues.toSql(row, column, rowType.getTypeAt(column));
        }
        return out;
    }

    /** Fluss's limit scan of the KV store, bucket by bucket, until {@code limit} rows. */
    private List<Object[]> kvLimitScan(long limit) {
        TableInfo info = plan.table();
        List<TableBucket> buckets = new ArrayList<>();
        if (info.isPartitioned()) {
            for (PartitionInfo partition : FlussSession.await(session.admin().listPartitionInfos(info.getTablePath()),
                    "list the partitions of " + info.getTablePath())) {
                for (int b = 0; b < info.getNumBuckets(); b++) {
                    buckets.add(new TableBucket(info.getTableId(), partition.getPartitionId(), b));
                }
            }
        } else {
            for (int b = 0; b < info.getNumBuckets(); b++) {
                buckets.add(new TableBucket(info.getTableId(), b));
            }
        }
        List<Object[]> rows = new ArrayList<>();
        int perBucket = (int) Math.min(limit, Integer.MAX_VALUE);
        for (TableBucket bucket : buckets) {
            if (rows.size() >= limit) {
                break;
            }
            try (BatchScanner scanner = session.table(info.getTablePath()).newScan().limit(perBucket)
                    .createBatchScanner(bucket)) {
                CloseableIterator<InternalRow> polled;
                while ((polled = scanner.pollBatch(java.time.Duration.ofSeconds(30))) != null) {
                    try (CloseableIterator<InternalRow> batch = polled) {
                        while (batch.hasNext() && rows.size() < limit) {
                            rows.add(project(batch.next()));
                        }
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("Limit scan of " + info.getTablePath() + " bucket " + bucket
                        + " failed: " + e.getMessage(), e);
            }
        }
        return rows;
    }

    // ---- log and lake reads

    /** Names of the data columns the plan reads (at least one: Riffle's reads need a column). */
    private List<String> dataColumns(List<Integer> positions) {
        List<String> names = plan.table().getRowType().getFieldNames();
        List<String> data = new ArrayList<>();
        for (int position : positions) {
            if (position < names.size() && !data.contains(names.get(position))) {
                data.add(names.get(position));
            }
        }
        if (data.isEmpty()) {
            data.add(names.get(0));
        }
        return data;
    }

    /**
     * The partitions a log read is limited to: those whose key values satisfy the conditions the
     * scan absorbed (on a log read they are all on partition keys); empty when it reads them all.
     */
    private Optional<List<String>> partitions(ConditionPredicates conditions) {
        if (plan.filters().isEmpty()) {
            return Optional.empty();
        }
        TableInfo info = plan.table();
        List<PartitionInfo> all = FlussSession.await(session.admin().listPartitionInfos(info.getTablePath()),
                "list the partitions of " + info.getTablePath());
        return Optional.of(conditions.matchingPartitions(all, plan.filters()));
    }

    private static ReadBuilder inPartitions(ReadBuilder read, Optional<List<String>> partitions) {
        return partitions.map(names -> read.partitions(names.toArray(String[]::new))).orElse(read);
    }

    /** A bounded read of the log (changelog columns after the data ones when {@code changelog}). */
    private RowSource logRows(boolean changelog, Optional<List<String>> partitions) {
        RiffleTable table = session.riffle().table(plan.table().getTablePath());
        List<String> data = dataColumns(plan.columns());
        ReadBuilder read = inPartitions(table.read().columns(data), partitions);
        if (changelog || plan.primaryKeyTable()) {
            read = read.changelog();
        }
        BoundedLogReader reader = read.createReader();
        int[] positions = outputPositions(data, changelog);
        return new RowSource() {
            @Override
            BatchRows nextBatch() {
                if (!reader.hasNext()) {
                    return null;
                }
                try (LogBatch batch = reader.next()) {
                    return BatchRows.copyOf(batch.root(), positions);
                }
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    /** For each output column, its index in the batches read ({@code data} then the changelog columns). */
    private int[] outputPositions(List<String> data, boolean changelog) {
        List<String> names = plan.table().getRowType().getFieldNames();
        int[] positions = new int[plan.columns().size()];
        for (int i = 0; i < positions.length; i++) {
            int column = plan.columns().get(i);
            positions[i] = column < names.size() ? data.indexOf(names.get(column))
                    : data.size() + (column - names.size());
        }
        return positions;
    }

    private RowSource unionRows(boolean lakeOnly, ConditionPredicates conditions) {
        TableInfo info = plan.table();
        LakeConfig lake = session.lake().orElseThrow(() -> new IllegalStateException("Table " + info.getTablePath()
                + " is datalake-enabled, but the cluster names no lake (datalake.format and its options)"));
        FlussPluginLakeSource source = FlussPluginLakeSource.create(lake.format(), lake.options(), info.getTablePath(),
                info.getRowType());
        List<String> data = dataColumns(plan.columns());
        UnionRead read = UnionRead.of(session.riffle(), source, session.riffle().table(info.getTablePath())).columns(data);
        if (lakeOnly) {
            read = read.lakeOnly();
        }
        if (!plan.filters().isEmpty()) {
            read = read.filter(conditions.predicate(plan.filters()));
        }
        UnionReader reader;
        try {
            reader = read.createReader();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read " + info.getTablePath() + ": " + e.getMessage(), e);
        }
        int[] positions = outputPositions(data, false);
        return new RowSource() {
            @Override
            BatchRows nextBatch() {
                if (!reader.hasNext()) {
                    return null;
                }
                try (VectorSchemaRoot batch = reader.next()) {
                    return BatchRows.copyOf(batch, positions);
                }
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }

    /**
     * The current state of a PK table from its changelog: replayed in log order per bucket (a key
     * lives in one bucket), the last {@code +I}/{@code +U} of a key wins, {@code -U}/{@code -D}
     * remove it. Exact as of the offsets captured when the read starts, as long as the log still
     * holds every change since the table was created (log retention).
     */
    private List<Object[]> foldedChangelog(Optional<List<String>> partitions) {
        TableInfo info = plan.table();
        List<String> names = info.getRowType().getFieldNames();
        List<String> data = dataColumns(plan.columns());
        List<String> read = new ArrayList<>(data);
        for (String key : info.getPrimaryKeys()) {
            if (!read.contains(key)) {
                read.add(key);
            }
        }
        int[] keyAt = info.getPrimaryKeys().stream().mapToInt(read::indexOf).toArray();
        int changeTypeAt = read.size();
        int[] positions = outputPositions(data, false);
        Map<Object, Object[]> state = new LinkedHashMap<>();
        try (BoundedLogReader reader = inPartitions(session.riffle().table(info.getTablePath()).read().columns(read)
                .changelog(), partitions).createReader()) {
            while (reader.hasNext()) {
                try (LogBatch batch = reader.next()) {
                    VectorSchemaRoot root = batch.root();
                    List<IntFunction<Object>> columns = new ArrayList<>();
                    for (int i = 0; i < root.getFieldVectors().size(); i++) {
                        columns.add(ArrowValues.reader(root.getVector(i)));
                    }
                    for (int row = 0; row < root.getRowCount(); row++) {
                        Object key = key(columns, keyAt, row);
                        String type = (String) columns.get(changeTypeAt).apply(row);
                        if (type.startsWith("-")) {
                            state.remove(key);
                        } else {
                            Object[] values = new Object[positions.length];
                            for (int i = 0; i < positions.length; i++) {
                                values[i] = columns.get(positions[i]).apply(row);
                            }
                            state.put(key, values);
                        }
                    }
                }
            }
        }
        return new ArrayList<>(state.values());
    }

    private static Object key(List<IntFunction<Object>> columns, int[] keyAt, int row) {
        if (keyAt.length == 1) {
            return keyPart(columns.get(keyAt[0]).apply(row));
        }
        Object[] parts = new Object[keyAt.length];
        for (int i = 0; i < keyAt.length; i++) {
            parts[i] = keyPart(columns.get(keyAt[i]).apply(row));
        }
        return Arrays.asList(parts);
    }

    private static Object keyPart(Object value) {
        return value instanceof ByteString bytes ? ByteBuffer.wrap(bytes.getBytes()) : value;
    }

    /** Rows in batches; a null batch ends the source. */
    abstract static class RowSource implements AutoCloseable {
        abstract BatchRows nextBatch();

        @Override
        public void close() throws Exception {}

        static RowSource of(List<Object[]> rows) {
            return new RowSource() {
                private boolean done;

                @Override
                BatchRows nextBatch() {
                    if (done) {
                        return null;
                    }
                    done = true;
                    return new BatchRows(rows);
                }
            };
        }
    }

    /** One batch's rows, already Calcite values (Arrow buffers are released as soon as a batch is read). */
    record BatchRows(List<Object[]> rows) {
        static BatchRows copyOf(VectorSchemaRoot root, int[] positions) {
            List<IntFunction<Object>> readers = new ArrayList<>();
            for (int position : positions) {
                readers.add(ArrowValues.reader(root.getVector(position)));
            }
            List<Object[]> rows = new ArrayList<>(root.getRowCount());
            for (int row = 0; row < root.getRowCount(); row++) {
                Object[] values = new Object[positions.length];
                for (int i = 0; i < values.length; i++) {
                    values[i] = readers.get(i).apply(row);
                }
                rows.add(values);
            }
            return new BatchRows(rows);
        }
    }

    /** Walks a source's batches; stops (and closes the source) after {@code limit} rows. */
    private static final class RowEnumerator implements Enumerator<Object> {
        private final RowSource source;
        private final boolean scalar;
        private final long limit;
        private List<Object[]> batch = List.of();
        private int index = -1;
        private long returned;
        private Object current;
        private boolean closed;

        RowEnumerator(RowSource source, boolean scalar, long limit) {
            this.source = source;
            this.scalar = scalar;
            this.limit = limit;
        }

        @Override
        public Object current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            if (closed || returned >= limit) {
                close();
                return false;
            }
            while (index + 1 >= batch.size()) {
                BatchRows next = source.nextBatch();
                if (next == null) {
                    close();
                    return false;
                }
                batch = next.rows();
                index = -1;
            }
            Object[] row = batch.get(++index);
            current = scalar ? row[0] : row;
            returned++;
            return true;
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("A Fluss scan cannot be rewound");
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                source.close();
            } catch (Exception e) {
                throw new IllegalStateException("Closing a Fluss read failed: " + e.getMessage(), e);
            }
        }
    }
}
