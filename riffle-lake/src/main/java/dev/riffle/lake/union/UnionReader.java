package dev.riffle.lake.union;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.lake.source.LakeBatchReader;
import dev.riffle.lake.source.LakeScan;
import dev.riffle.lake.source.LakeSplit;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.Text;

/**
 * One table out of its lake snapshot and the Fluss log past the offsets that snapshot records:
 * every row exactly once. Batches are Arrow roots in the requested columns; the caller owns and
 * closes each one.
 *
 * <p>Log tables concatenate: the lake snapshot, then each bucket's log from its recorded offset.
 * Primary-key tables merge: the log tail (read as a changelog) is folded by key, newest record
 * first wins, {@code -U}/{@code -D} delete; lake rows whose key the tail touched are dropped, and
 * the tail's surviving rows follow. Memory grows with the log tail, not with the table.
 *
 * <pre>{@code
 * try (UnionReader rows = UnionRead.of(riffle, lakeSource, "shop.orders").createReader()) {
 *     while (rows.hasNext()) {
 *         try (VectorSchemaRoot batch = rows.next()) { ... }
 *     }
 * }
 * }</pre>
 */
public final class UnionReader implements Iterator<VectorSchemaRoot>, AutoCloseable {
    private final Schema schema;
    private final int outputColumns;
    private final Optional<LakeScan> lake;
    private final Optional<BoundedLogReader> log;
    private final BufferAllocator allocator;
    private final Optional<int[]> keyColumns;
    private final RowFilter lakeFilter;
    private final RowFilter logFilter;
    private final Iterator<LakeSplit> splits;
    private LakeBatchReader lakeBatches;
    private final long tailRowsInMemory;
    private final java.util.function.Supplier<BoundedLogReader> tailReplay;
    private Map<Object, TailRow> tail;
    private List<VectorSchemaRoot> tailBatches;
    private boolean replayTail;
    private BoundedLogReader replay;
    private final ArrayDeque<VectorSchemaRoot> ready = new ArrayDeque<>();
    private Phase phase;
    private long rowsRead;
    private boolean closed;

    private enum Phase { TAIL, LAKE, REPLAY, LOG, DONE }

    /**
     * @param keyColumns for primary-key tables, the positions of the key among the read columns;
     *     the log reader then reads the changelog, and both sides carry the key columns after the
     *     {@code outputColumns} requested ones
     */
    UnionReader(Schema schema, int outputColumns, Optional<LakeScan> lake, Optional<BoundedLogReader> log,
            BufferAllocator allocator, Optional<int[]> keyColumns, RowFilter lakeFilter, RowFilter logFilter,
            long tailRowsInMemory, java.util.function.Supplier<BoundedLogReader> tailReplay) {
        this.schema = requireNonNull(schema, "schema is null");
        this.outputColumns = outputColumns;
        this.lake = requireNonNull(lake, "lake is null");
        this.log = requireNonNull(log, "log is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.keyColumns = requireNonNull(keyColumns, "keyColumns is null");
        this.lakeFilter = requireNonNull(lakeFilter, "lakeFilter is null");
        this.logFilter = requireNonNull(logFilter, "logFilter is null");
        this.tailRowsInMemory = tailRowsInMemory;
        this.tailReplay = requireNonNull(tailReplay, "tailReplay is null");
        this.splits = lake.map(l -> l.splits().iterator()).orElse(List.<LakeSplit>of().iterator());
        this.phase = keyColumns.isPresent() ? Phase.TAIL : Phase.LAKE;
    }

    /** The schema of every batch: the requested columns. */
    public Schema schema() {
        return schema;
    }

    /** The lake snapshot read, if the table had one. */
    public Optional<Long> lakeSnapshotId() {
        return lake.map(LakeScan::snapshotId);
    }

    /**
     * Where the log part of this read stops in each bucket (the offsets captured when it was
     * created); empty for a lake-only read. A caller that continues later with a log read from
     * these offsets sees every change exactly once.
     */
    public java.util.Map<org.apache.fluss.metadata.TableBucket, Long> logStopOffsets() {
        return log.map(BoundedLogReader::stopOffsets).orElse(java.util.Map.of());
    }

    public long rowsRead() {
        return rowsRead;
    }

    @Override
    public boolean hasNext() {
        try {
            while (ready.isEmpty() && phase != Phase.DONE && !closed) {
                step();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Union read failed: " + e.getMessage(), e);
        }
        return !ready.isEmpty();
    }

    @Override
    public VectorSchemaRoot next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The union read has ended");
        }
        VectorSchemaRoot batch = ready.poll();
        rowsRead += batch.getRowCount();
        return batch;
    }

    /** Writes every remaining row as an Arrow IPC stream; returns the number of rows. */
    public long writeArrowStream(OutputStream out) throws IOException {
        long rows = 0;
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            while (hasNext()) {
                try (VectorSchemaRoot batch = next()) {
                    for (int i = 0; i < batch.getFieldVectors().size(); i++) {
                        batch.getVector(i).makeTransferPair(root.getVector(i)).transfer();
                    }
                    root.setRowCount(batch.getRowCount());
                    writer.writeBatch();
                    rows += batch.getRowCount();
                }
            }
            writer.end();
        }
        return rows;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        ready.forEach(VectorSchemaRoot::close);
        ready.clear();
        if (tailBatches != null) {
            tailBatches.forEach(VectorSchemaRoot::close);
        }
        if (replay != null) {
            replay.close();
        }
        try {
            if (lakeBatches != null) {
                lakeBatches.close();
            }
        } finally {
            log.ifPresent(BoundedLogReader::close);
            lake.ifPresent(LakeScan::close);
        }
    }

    private void step() throws IOException {
        switch (phase) {
            case TAIL -> readTail();
            case LAKE -> readLake();
            case REPLAY -> replayStep();
            case LOG -> readLog();
            case DONE -> { }
        }
    }

    /**
     * Primary-key tables: the whole log tail first, folded by key (newest record wins). Small tails
     * stay in memory; once the tail passes {@code tailRowsInMemory} rows only the keys are kept
     * (with where each key's newest record is), and the tail is read a second time to emit them.
     * The second read sees the same records: the log below the stop offsets never changes.
     */
    private void readTail() {
        tail = new HashMap<>();
        tailBatches = new ArrayList<>();
        int[] keys = keyColumns.orElseThrow();
        long retained = 0;
        while (log.isPresent() && log.get().hasNext()) {
            try (LogBatch batch = log.get().next()) {
                VectorSchemaRoot root = batch.root();
                int typeIndex = changeTypeIndex(root);
                FieldVector types = root.getVector(typeIndex);
                int batchIndex = -1;
                if (!replayTail) {
                    batchIndex = tailBatches.size();
                    // Keep only the data columns (requested, then extra key columns) of the tail.
                    tailBatches.add(new VectorSchemaRoot(root.getFieldVectors().subList(0, typeIndex).stream()
                            .map(v -> transfer(v)).toList()));
                    retained += root.getRowCount();
                }
                VectorSchemaRoot data = replayTail ? root : tailBatches.get(batchIndex);
                for (int row = 0; row < batch.rowCount(); row++) {
                    String type = types.getObject(row).toString();
                    boolean deleted = type.equals("-D") || type.equals("-U");
                    tail.put(key(data, keys, row), new TailRow(batchIndex, row, deleted, batch.bucket(),
                            batch.baseOffset() + row));
                }
                if (!replayTail && retained > tailRowsInMemory) {
                    replayTail = true;
                    tailBatches.forEach(VectorSchemaRoot::close);
                    tailBatches.clear();
                }
            }
        }
        phase = Phase.LAKE;
    }

    private static int changeTypeIndex(VectorSchemaRoot root) {
        return root.getSchema().getFields().indexOf(root.getSchema().findField(ArrowLogScanner.CHANGE_TYPE_COLUMN));
    }

    private void readLake() throws IOException {
        if (lakeBatches == null) {
            if (!splits.hasNext()) {
                phase = keyColumns.isPresent() ? Phase.DONE : Phase.LOG;
                if (keyColumns.isPresent()) {
                    emitTail();
                }
                return;
            }
            lakeBatches = lake.orElseThrow().read(splits.next(), allocator);
        }
        Optional<VectorSchemaRoot> batch = lakeBatches.next();
        if (batch.isEmpty()) {
            lakeBatches.close();
            lakeBatches = null;
            return;
        }
        if (keyColumns.isEmpty() && lakeFilter.acceptsAll() && batch.get().getFieldVectors().size() == outputColumns) {
            ready.add(batch.get());
            return;
        }
        try (VectorSchemaRoot rows = batch.get()) {
            RowFilter.Bound matches = lakeFilter.bind(rows);
            VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
            int count = 0;
            for (int row = 0; row < rows.getRowCount(); row++) {
                boolean superseded = keyColumns.isPresent() && tail.containsKey(key(rows, keyColumns.get(), row));
                if (!superseded && matches.test(row)) {
                    copyRow(rows, row, out, count++);
                }
            }
            out.setRowCount(count);
            emit(out);
        }
    }

    private void emitTail() {
        if (replayTail) {
            phase = Phase.REPLAY;
            return;
        }
        // Newest record per key, in the order the tail was read.
        List<List<TailRow>> byBatch = new ArrayList<>();
        tailBatches.forEach(b -> byBatch.add(new ArrayList<>()));
        tail.values().forEach(row -> {
            if (!row.deleted()) {
                byBatch.get(row.batch()).add(row);
            }
        });
        for (int b = 0; b < tailBatches.size(); b++) {
            List<TailRow> rows = byBatch.get(b);
            if (rows.isEmpty()) {
                continue;
            }
            rows.sort((x, y) -> Integer.compare(x.row(), y.row()));
            RowFilter.Bound matches = logFilter.bind(tailBatches.get(b));
            VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
            int count = 0;
            for (TailRow row : rows) {
                if (matches.test(row.row())) {
                    copyRow(tailBatches.get(b), row.row(), out, count++);
                }
            }
            out.setRowCount(count);
            emit(out);
        }
        tailBatches.forEach(VectorSchemaRoot::close);
        tailBatches = null;
        tail = null;
    }

    /** The second read of a large tail, a batch at a time: each key's newest record, found by its offset. */
    private void replayStep() {
        if (replay == null) {
            replay = tailReplay.get();
        }
        if (!replay.hasNext()) {
            replay.close();
            replay = null;
            tail = null;
            phase = Phase.DONE;
            return;
        }
        int[] keys = keyColumns.orElseThrow();
        try (LogBatch batch = replay.next()) {
            VectorSchemaRoot root = batch.root();
            RowFilter.Bound matches = logFilter.bind(root);
            VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
            int count = 0;
            for (int row = 0; row < batch.rowCount(); row++) {
                TailRow newest = tail.get(key(root, keys, row));
                if (newest != null && !newest.deleted() && newest.offset() == batch.baseOffset() + row
                        && newest.bucket().equals(batch.bucket()) && matches.test(row)) {
                    copyRow(root, row, out, count++);
                }
            }
            out.setRowCount(count);
            emit(out);
        }
    }

    private void readLog() {
        if (log.isEmpty() || !log.get().hasNext()) {
            phase = Phase.DONE;
            return;
        }
        try (LogBatch batch = log.get().next()) {
            VectorSchemaRoot root = batch.root();
            if (!logFilter.acceptsAll()) {
                RowFilter.Bound matches = logFilter.bind(root);
                VectorSchemaRoot out = VectorSchemaRoot.create(schema, allocator);
                int count = 0;
                for (int row = 0; row < root.getRowCount(); row++) {
                    if (matches.test(row)) {
                        copyRow(root, row, out, count++);
                    }
                }
                out.setRowCount(count);
                emit(out);
                return;
            }
            List<FieldVector> vectors = new ArrayList<>();
            for (int i = 0; i < outputColumns; i++) {
                vectors.add(transfer(root.getVector(i)));
            }
            emit(new VectorSchemaRoot(schema.getFields(), vectors, root.getRowCount()));
        }
    }

    private void emit(VectorSchemaRoot batch) {
        if (batch.getRowCount() == 0) {
            batch.close();
        } else {
            ready.add(batch);
        }
    }

    private FieldVector transfer(FieldVector from) {
        var pair = from.getTransferPair(allocator);
        pair.transfer();
        return (FieldVector) pair.getTo();
    }

    private void copyRow(VectorSchemaRoot from, int row, VectorSchemaRoot to, int target) {
        for (int i = 0; i < outputColumns; i++) {
            to.getVector(i).copyFromSafe(row, target, from.getVector(i));
        }
        to.setRowCount(target + 1);
    }

    /** A key value with the same equality whichever side (lake or log) it came from. */
    private static Object key(VectorSchemaRoot root, int[] keys, int row) {
        if (keys.length == 1) {
            return keyPart(root.getVector(keys[0]).getObject(row));
        }
        Object[] parts = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
            parts[i] = keyPart(root.getVector(keys[i]).getObject(row));
        }
        return Arrays.asList(parts);
    }

    private static Object keyPart(Object value) {
        if (value instanceof Text text) {
            return text.toString();
        }
        if (value instanceof byte[] bytes) {
            return ByteBuffer.wrap(bytes);
        }
        return value;
    }

    private record TailRow(int batch, int row, boolean deleted, org.apache.fluss.metadata.TableBucket bucket,
            long offset) {}
}
