package dev.riffle.core.scan;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidOffsetsException;
import dev.riffle.core.exception.InvalidReadException;
import dev.riffle.core.exception.UnsupportedTableException;
import dev.riffle.core.log.ArrowBatchDecoder;
import dev.riffle.core.log.LogBatchHeader;
import dev.riffle.core.rpc.FetchedRecords;
import dev.riffle.core.rpc.LogFetcher;
import dev.riffle.core.rpc.RetryingAdmin;
import dev.riffle.core.schema.TableSchemas;
import dev.riffle.core.types.ArrowTypeMapping;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampMilliTZVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.types.RowType;

/**
 * An unbounded scanner over a Fluss table's log that returns Arrow batches: the Arrow
 * counterpart of Fluss's {@code LogScanner}. Subscribe buckets at offsets, then {@link #poll}.
 * Fluss stores and ships the log as Arrow already; this scanner decodes those batches straight
 * into vectors, with no detour through rows.
 *
 * <pre>{@code
 * try (ArrowLogScanner scanner = riffle.table("shop.orders").read().columns("id", "amount").createScanner()) {
 *     scanner.subscribe(0, 0L);
 *     for (LogBatch batch : scanner.poll(Duration.ofSeconds(1))) {
 *         try (batch) {
 *             System.out.println(batch.bucket() + " @" + batch.baseOffset() + ": " + batch.rowCount());
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>For a read that ends, create a {@link dev.riffle.core.read.BoundedLogReader} on the scanner.
 * While one is active the scanner belongs to it: subscribing, unsubscribing, polling or creating
 * a second reader fails until the reader is closed.
 *
 * <p>With {@code changelogColumns}, every batch ends with {@code _change_type} ({@code +A} for
 * log tables; {@code +I}, {@code -U}, {@code +U}, {@code -D} for primary-key tables),
 * {@code _log_offset} and {@code _commit_timestamp}.
 *
 * <p>Memory: batches come from a child allocator of the one given; the scanner closes it, so close
 * every batch before the scanner. Not thread-safe: use a scanner from one thread.
 */
public final class ArrowLogScanner implements AutoCloseable {
    public static final String CHANGE_TYPE_COLUMN = "_change_type";
    public static final String LOG_OFFSET_COLUMN = "_log_offset";
    public static final String COMMIT_TIMESTAMP_COLUMN = "_commit_timestamp";
    /**
     * Arrow bytes one poll decodes at most (past one batch): what a reader holds between polls,
     * whatever the compression ratio of the data.
     */
    private static final long DECODED_BYTES_PER_POLL = 4L << 20;

    private final FlussConnection connection;
    private final TableInfo table;
    private final Projection projection;
    private final boolean changelogColumns;
    private final BufferAllocator allocator;
    private final LogFetcher fetcher;
    private final ArrowBatchDecoder decoder;
    private final ArrowBatchDecoder fullDecoder;
    private final TableSchemas schemas;
    /** Whole-row decoders for batches written with another schema id, by that id. */
    private final Map<Integer, ArrowBatchDecoder> writerDecoders = new HashMap<>();
    private final Schema schema;
    /**
     * Whether a batch written with the table's current schema comes out as Fluss stored it (every
     * column in table order, nothing added): such batches are kept undecoded until asked for.
     */
    private final boolean keepsStored;
    private final Map<TableBucket, Long> positions = new LinkedHashMap<>();
    private final Map<Long, String> partitionNames = new HashMap<>();
    /** Fetched answers not yet decoded, in the order they arrived. */
    private final ArrayDeque<UndecodedRecords> undecoded = new ArrayDeque<>();
    private Object owner;
    private boolean closed;

    /**
     * @param allocator the parent of the scanner's own allocator
     * @throws IllegalArgumentException for a primary-key table without {@code changelogColumns}
     *     (its log is a changelog: rows alone would be wrong), or a table whose log format is not
     *     Arrow
     */
    public ArrowLogScanner(FlussConnection connection, TableInfo table, Projection projection,
            boolean changelogColumns, BufferAllocator allocator, LogFetcher.Config fetchConfig) {
        this.connection = requireNonNull(connection, "connection is null");
        this.table = requireNonNull(table, "table is null");
        this.projection = requireNonNull(projection, "projection is null");
        this.changelogColumns = changelogColumns;
        if (table.hasPrimaryKey() && !changelogColumns) {
            throw new InvalidReadException("Table " + table.getTablePath() + " has a primary key "
                    + table.getPrimaryKeys() + ": its log is a changelog of upserts and deletes, not a list of rows."
                    + " Read it with the changelog reader (read().changelog(), or --changelog on the command line)");
        }
        String logFormat = String.valueOf(table.getTableConfig().getLogFormat());
        if (!"ARROW".equals(logFormat)) {
            throw new UnsupportedTableException("Table " + table.getTablePath() + " uses log format " + logFormat
                    + "; Riffle reads tables whose log format is ARROW (the Fluss default)");
        }
        this.allocator = requireNonNull(allocator, "allocator is null")
                .newChildAllocator("scanner " + table.getTablePath(), 0, Long.MAX_VALUE);
        RowType fetched = projection.fetchedRowType();
        this.decoder = new ArrowBatchDecoder(this.allocator, ArrowTypeMapping.toArrowSchema(fetched));
        this.fullDecoder = projection.pushdown()
                ? new ArrowBatchDecoder(this.allocator, ArrowTypeMapping.toArrowSchema(table.getRowType()))
                : decoder;
        this.schemas = TableSchemas.of(connection, table);
        // Fluss 0.9 projects each batch by position within the batch's own schema: a column added
        // later is missing from older batches (the server refuses the fetch), so such a projection
        // is applied here instead.
        boolean serverProjects = projection.pushdown() && schemas.positionsStable(projection.fetched());
        this.fetcher = new LogFetcher(connection, table,
                serverProjects ? projection.serverProjection() : Optional.empty(), fetchConfig);
        this.schema = outputSchema(decoder.schema(), projection, changelogColumns);
        this.keepsStored = !changelogColumns && !projection.pushdown()
                && Arrays.equals(projection.outputOrder(), identity()) && decoder.schema().equals(schema);
    }

    /** The schema of every batch this scanner returns. */
    public Schema schema() {
        return schema;
    }

    public TableInfo table() {
        return table;
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    /** Subscribes a bucket of a non-partitioned table, starting at {@code offset}. */
    public void subscribe(int bucket, long offset) {
        if (table.isPartitioned()) {
            throw new InvalidReadException("Table " + table.getTablePath()
                    + " is partitioned: subscribe with a partition id");
        }
        subscribe(new TableBucket(table.getTableId(), bucket), offset);
    }

    /** Subscribes a bucket of one partition, starting at {@code offset}. */
    public void subscribe(long partitionId, int bucket, long offset) {
        if (!table.isPartitioned()) {
            throw new InvalidReadException("Table " + table.getTablePath() + " is not partitioned");
        }
        subscribe(new TableBucket(table.getTableId(), partitionId, bucket), offset);
    }

    /** Subscribes a bucket, or moves an existing subscription to {@code offset}. */
    public void subscribe(TableBucket bucket, long offset) {
        checkUsable("subscribe");
        requireNonNull(bucket, "bucket is null");
        if (bucket.getTableId() != table.getTableId()) {
            throw new InvalidReadException(bucket + " is not a bucket of table " + table.getTablePath());
        }
        if (bucket.getBucket() < 0 || bucket.getBucket() >= table.getNumBuckets()) {
            throw new InvalidReadException("Bucket " + bucket.getBucket() + " does not exist: table "
                    + table.getTablePath() + " has buckets 0.." + (table.getNumBuckets() - 1));
        }
        if (offset < 0) {
            throw new InvalidOffsetsException("Offset must be >= 0, got " + offset + " for bucket " + bucket.getBucket());
        }
        positions.put(bucket, offset);
        dropUndecoded(bucket);
        fetcher.assign(bucket, offset);
    }

    public void unsubscribe(TableBucket bucket) {
        checkUsable("unsubscribe");
        removeSubscription(bucket);
    }

    /** Subscribed buckets and the offset each will return next. */
    public Map<TableBucket, Long> subscriptions() {
        return Map.copyOf(positions);
    }

    /**
     * Returns the batches that arrived, waiting up to {@code timeout} for some. An empty list means
     * nothing arrived in time. Every returned batch must be closed by the caller.
     */
    public List<LogBatch> poll(Duration timeout) throws InterruptedException {
        checkUsable("poll");
        return pollBatches(timeout);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        fetcher.close();
        positions.clear();
        undecoded.clear();
        allocator.close();
    }

    // ---- used by the bounded reader that owns this scanner for a while ----

    /** Gives the scanner to {@code reader} until {@link #release}; fails if another reader has it. */
    public void acquire(Object reader) {
        requireNonNull(reader, "reader is null");
        if (closed) {
            throw new IllegalStateException("The scanner of " + table.getTablePath() + " is closed");
        }
        if (owner != null) {
            throw new IllegalStateException("The scanner of " + table.getTablePath()
                    + " already has an active bounded reader; close that reader first");
        }
        owner = reader;
    }

    public void release(Object reader) {
        if (owner == reader) {
            owner = null;
            fetcher.fetchWithoutStops();
        }
    }

    /**
     * On behalf of the reader that holds the scanner: fetches of {@code bucket} end at
     * {@code stopOffset} (exclusive), until the reader releases the scanner.
     */
    public void fetchUntilAsOwner(Object reader, TableBucket bucket, long stopOffset) {
        checkOwner(reader);
        fetcher.fetchUntil(bucket, stopOffset);
    }

    /** Polls on behalf of the reader that holds the scanner. */
    public List<LogBatch> pollAsOwner(Object reader, Duration timeout) throws InterruptedException {
        checkOwner(reader);
        return pollBatches(timeout);
    }

    /** Unsubscribes on behalf of the reader that holds the scanner. */
    public void unsubscribeAsOwner(Object reader, TableBucket bucket) {
        checkOwner(reader);
        removeSubscription(bucket);
    }

    private void removeSubscription(TableBucket bucket) {
        positions.remove(bucket);
        dropUndecoded(bucket);
        fetcher.unassign(bucket);
    }

    private void dropUndecoded(TableBucket bucket) {
        undecoded.removeIf(pending -> pending.records.bucket().equals(bucket));
    }

    private void checkOwner(Object reader) {
        if (owner != reader) {
            throw new IllegalStateException("This reader no longer holds the scanner of " + table.getTablePath());
        }
        if (closed) {
            throw new IllegalStateException("The scanner of " + table.getTablePath() + " is closed");
        }
    }

    private void checkUsable(String action) {
        if (closed) {
            throw new IllegalStateException("Cannot " + action + ": the scanner of " + table.getTablePath() + " is closed");
        }
        if (owner != null) {
            throw new IllegalStateException("Cannot " + action + " while a bounded reader is active on the scanner of "
                    + table.getTablePath() + "; close the reader first");
        }
    }

    private List<LogBatch> pollBatches(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean fetchedAny = false;
            if (undecoded.isEmpty()) {
                // Only once the last answers are decoded: the fetcher bounds the bytes it holds, and
                // asking it for more now would hand this scanner another buffer's worth to hold.
                List<FetchedRecords> fetched = fetcher.poll(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
                for (FetchedRecords records : fetched) {
                    undecoded.add(new UndecodedRecords(records));
                }
                fetchedAny = !fetched.isEmpty();
            }
            List<LogBatch> batches = new ArrayList<>();
            try {
                decodeUpTo(DECODED_BYTES_PER_POLL, batches);
            } catch (RuntimeException e) {
                batches.forEach(LogBatch::close);
                throw e;
            }
            // Responses that held only empty batches still move positions: return so the caller sees it.
            if (!batches.isEmpty() || fetchedAny || System.nanoTime() >= deadline) {
                return batches;
            }
        }
    }

    /**
     * Decodes the fetched batches in order until {@code budget} bytes of Arrow are decoded (at least
     * one batch) or none is left. Fetch sizes bound compressed bytes; a batch of well-compressed rows
     * can be many times larger decoded, so decoding everything that arrived would hold an amount of
     * memory that depends on the data. Decoding as the caller asks keeps it to about {@code budget}.
     */
    private void decodeUpTo(long budget, List<LogBatch> out) {
        long decoded = 0;
        while (decoded < budget && !undecoded.isEmpty()) {
            UndecodedRecords next = undecoded.peek();
            TableBucket bucket = next.records.bucket();
            Long position = positions.get(bucket);
            if (position == null || position != next.position) {
                undecoded.poll(); // unsubscribed or moved since this was fetched
                continue;
            }
            if (!next.headers.hasNext()) {
                undecoded.poll();
                continue;
            }
            LogBatchHeader header = next.headers.next();
            long after = Math.max(position, header.nextOffset());
            next.position = after;
            positions.put(bucket, after);
            if (header.recordCount() == 0 || header.lastOffset() < position) {
                continue;
            }
            LogBatch batch = decode(next.records, header, position);
            out.add(batch);
            decoded += batch.bufferBytes();
        }
    }

    private LogBatch decode(FetchedRecords records, LogBatchHeader header, long position) {
        TableBucket bucket = records.bucket();
        if (keepsStored && !records.serverProjected() && header.schemaId() == table.getSchemaId()
                && position <= header.baseOffset()) {
            return LogBatch.stored(bucket, partitionName(bucket), header.baseOffset(), header.commitTimestamp(), schema,
                    fullDecoder.read(records.records(), header), fullDecoder::load);
        }
        // A server-projected batch holds the fetched columns whatever schema wrote it: the
        // projection is pushed only when those columns sit at the same positions in every schema.
        VectorSchemaRoot root;
        if (records.serverProjected()) {
            root = outputRoot(decoder.decode(records.records(), header), projection.outputOrder(), records, header);
        } else {
            VectorSchemaRoot whole = decodeWhole(records, header);
            root = projection.pushdown()
                    ? outputRoot(projectHere(whole), identity(), records, header)
                    : outputRoot(whole, projection.outputOrder(), records, header);
        }
        LogBatch batch = new LogBatch(bucket, partitionName(bucket), header.baseOffset(), header.commitTimestamp(), root);
        int skip = (int) Math.max(0, position - header.baseOffset());
        if (skip == 0) {
            return batch;
        }
        try (batch) {
            return batch.slice(skip, batch.rowCount() - skip);
        }
    }

    /** One FetchLog answer for one bucket, decoded a batch at a time; {@code position} is where its next batch starts. */
    private static final class UndecodedRecords {
        final FetchedRecords records;
        final Iterator<LogBatchHeader> headers;
        long position;

        UndecodedRecords(FetchedRecords records) {
            this.records = records;
            this.headers = records.batches().iterator();
            this.position = records.fetchOffset();
        }
    }

    /**
     * Every column of the batch, in the table's current schema: a batch written with another schema
     * id is decoded with that schema and its columns mapped by id (added columns null).
     */
    private VectorSchemaRoot decodeWhole(FetchedRecords records, LogBatchHeader header) {
        if (header.schemaId() == table.getSchemaId()) {
            return fullDecoder.decode(records.records(), header);
        }
        ArrowBatchDecoder writerDecoder = writerDecoders.computeIfAbsent((int) header.schemaId(), id ->
                new ArrowBatchDecoder(allocator, ArrowTypeMapping.toArrowSchema(schemas.schema(id).getRowType())));
        return schemas.mappingFrom(header.schemaId()).adapt(writerDecoder.decode(records.records(), header), allocator);
    }

    /** Keeps the requested columns of a batch that holds every column (in output order). */
    private VectorSchemaRoot projectHere(VectorSchemaRoot full) {
        List<FieldVector> all = full.getFieldVectors();
        List<FieldVector> kept = new ArrayList<>(projection.requested().length);
        boolean[] keep = new boolean[all.size()];
        for (int index : projection.requested()) {
            kept.add(all.get(index));
            keep[index] = true;
        }
        for (int i = 0; i < all.size(); i++) {
            if (!keep[i]) {
                all.get(i).close();
            }
        }
        return new VectorSchemaRoot(kept);
    }

    private int[] identity() {
        int[] order = new int[projection.requested().length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        return order;
    }

    private VectorSchemaRoot outputRoot(VectorSchemaRoot fetched, int[] order, FetchedRecords records,
            LogBatchHeader header) {
        List<FieldVector> vectors = new ArrayList<>(schema.getFields().size());
        List<FieldVector> fetchedVectors = fetched.getFieldVectors();
        for (int index : order) {
            vectors.add(fetchedVectors.get(index));
        }
        int rows = fetched.getRowCount();
        if (changelogColumns) {
            try {
                vectors.add(changeTypes(records, header, rows));
                vectors.add(logOffsets(header, rows));
                vectors.add(commitTimestamps(header, rows));
            } catch (RuntimeException e) {
                vectors.forEach(FieldVector::close);
                fetchedVectors.forEach(FieldVector::close);
                throw e;
            }
        }
        VectorSchemaRoot root = new VectorSchemaRoot(schema.getFields(), vectors, rows);
        return root;
    }

    // The three changelog columns are written straight into their buffers (no value is ever null):
    // Arrow's per-value setters cost more than the rest of decoding a changelog batch.
    private FieldVector changeTypes(FetchedRecords records, LogBatchHeader header, int rows) {
        VarCharVector vector = (VarCharVector) schema.findField(CHANGE_TYPE_COLUMN).createVector(allocator);
        try {
            vector.allocateNew((long) ChangeTypes.SHORT_STRING_LENGTH * rows, rows);
            allValid(vector, rows);
            ArrowBuf offsets = vector.getOffsetBuffer();
            ArrowBuf data = vector.getDataBuffer();
            ByteBuffer types = records.records();
            offsets.setInt(0, 0);
            for (int i = 0; i < rows; i++) {
                byte[] text = ChangeTypes.shortString(header.appendOnly()
                        ? ChangeTypes.APPEND_ONLY : types.get(header.changeTypesPosition() + i));
                data.setBytes((long) i * ChangeTypes.SHORT_STRING_LENGTH, text);
                offsets.setInt((long) (i + 1) * BaseVariableWidthVector.OFFSET_WIDTH,
                        (i + 1) * ChangeTypes.SHORT_STRING_LENGTH);
            }
            vector.setLastSet(rows - 1);
            vector.setValueCount(rows);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    private FieldVector logOffsets(LogBatchHeader header, int rows) {
        BigIntVector vector = (BigIntVector) schema.findField(LOG_OFFSET_COLUMN).createVector(allocator);
        try {
            vector.allocateNew(rows);
            allValid(vector, rows);
            ArrowBuf data = vector.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                data.setLong((long) i * BigIntVector.TYPE_WIDTH, header.baseOffset() + i);
            }
            vector.setValueCount(rows);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    private FieldVector commitTimestamps(LogBatchHeader header, int rows) {
        TimeStampMilliTZVector vector =
                (TimeStampMilliTZVector) schema.findField(COMMIT_TIMESTAMP_COLUMN).createVector(allocator);
        try {
            vector.allocateNew(rows);
            allValid(vector, rows);
            ArrowBuf data = vector.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                data.setLong((long) i * TimeStampMilliTZVector.TYPE_WIDTH, header.commitTimestamp());
            }
            vector.setValueCount(rows);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    /** Marks the first {@code rows} values valid, a byte at a time. */
    private static void allValid(FieldVector vector, int rows) {
        ArrowBuf validity = vector.getValidityBuffer();
        int fullBytes = rows / 8;
        validity.setOne(0, fullBytes);
        if (rows % 8 != 0) {
            validity.setByte(fullBytes, (1 << (rows % 8)) - 1);
        }
    }

    private Optional<String> partitionName(TableBucket bucket) {
        Long partitionId = bucket.getPartitionId();
        if (partitionId == null) {
            return Optional.empty();
        }
        String name = partitionNames.get(partitionId);
        if (name == null) {
            try {
                for (PartitionInfo info : RetryingAdmin.of(connection).listPartitionInfos(table.getTablePath())
                        .get(30, TimeUnit.SECONDS)) {
                    partitionNames.put(info.getPartitionId(), info.getPartitionName());
                }
            } catch (Exception e) {
                throw new IllegalStateException("Cannot list the partitions of " + table.getTablePath(), e);
            }
            name = partitionNames.get(partitionId);
        }
        return Optional.ofNullable(name);
    }

    /** Known partition names, so a reader that already listed them saves a round trip. */
    public void knowPartition(long partitionId, String name) {
        partitionNames.put(partitionId, requireNonNull(name, "name is null"));
    }

    private static Schema outputSchema(Schema fetched, Projection projection, boolean changelogColumns) {
        List<Field> fields = new ArrayList<>();
        for (int index : projection.outputOrder()) {
            fields.add(fetched.getFields().get(index));
        }
        if (changelogColumns) {
            for (Field field : fields) {
                if (field.getName().equals(CHANGE_TYPE_COLUMN) || field.getName().equals(LOG_OFFSET_COLUMN)
                        || field.getName().equals(COMMIT_TIMESTAMP_COLUMN)) {
                    throw new InvalidReadException("Column " + field.getName()
                            + " clashes with a changelog column Riffle adds; leave it out of the projection");
                }
            }
            fields.add(new Field(CHANGE_TYPE_COLUMN, FieldType.notNullable(ArrowType.Utf8.INSTANCE), null));
            fields.add(new Field(LOG_OFFSET_COLUMN, FieldType.notNullable(new ArrowType.Int(64, true)), null));
            fields.add(new Field(COMMIT_TIMESTAMP_COLUMN,
                    FieldType.notNullable(new ArrowType.Timestamp(org.apache.arrow.vector.types.TimeUnit.MILLISECOND, "UTC")), null));
        }
        return new Schema(fields);
    }
}
