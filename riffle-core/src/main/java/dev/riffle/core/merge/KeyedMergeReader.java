package dev.riffle.core.merge;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.BatchFilter;
import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.core.types.ArrowBufferBytes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.fluss.metadata.TableBucket;

/**
 * A primary-key table's rows as of the tail's stop offsets: older rows (a lake snapshot, a KV
 * snapshot, or nothing) with the newer changes of the log tail applied by key. Every key appears
 * at most once: the newest record of a key in the tail wins, and {@code -U}/{@code -D} remove it.
 *
 * <pre>{@code
 * TableReader current = new KeyedMergeReader(base, changelogTail, keys, filter, outputSchema,
 *         KeyedMergeReader.DEFAULT_TAIL_ROWS_IN_MEMORY, replayTail, allocator);
 * }</pre>
 *
 * <p>Order: the whole tail is folded first (newest record per key); then the base rows whose key
 * the tail did not touch; then the tail's surviving rows. The base's batches must carry the read
 * columns in the same order as the tail's data columns; the first {@code outputSchema} columns are
 * handed out. {@code filter} applies to the tail's rows after the fold (a key's newest record is
 * what must match); the base is expected to be filtered already.
 *
 * <p>Memory grows with the tail, not with the table: up to {@code tailRowsInMemory} tail rows are
 * kept; past that only each key's position is kept, and the tail is read a second time (the log
 * below the stop offsets never changes) to emit each key's newest record.
 */
public final class KeyedMergeReader implements TableReader {
    /** Up to this many tail rows are held in memory for the merge; past it, only their keys. */
    public static final long DEFAULT_TAIL_ROWS_IN_MEMORY = 200_000;

    private final TableReader base;
    private final BoundedLogReader tail;
    private final int[] keyColumns;
    private final BatchFilter filter;
    private final Schema schema;
    private final long tailRowsInMemory;
    private final Supplier<BoundedLogReader> tailReplay;
    private final BufferAllocator allocator;
    private final ArrayDeque<VectorSchemaRoot> ready = new ArrayDeque<>();
    private Map<Object, TailRow> folded;
    private List<VectorSchemaRoot> tailBatches;
    private boolean replayTail;
    private BoundedLogReader replay;
    private Phase phase = Phase.FOLD;
    private long rows;
    private long bytes;
    private boolean closed;

    private enum Phase { FOLD, BASE, REPLAY, DONE }

    /**
     * @param base the older rows, in the read columns (owned and closed by this reader)
     * @param tail the changelog after the base, in the read columns then the changelog columns
     * @param keyColumns where the primary key sits among the read columns
     * @param filter the rows to keep, over the read columns
     * @param outputSchema the first columns of the read columns, which are handed out
     * @param tailReplay a second read of the same tail, for tails too long to hold
     */
    public KeyedMergeReader(TableReader base, BoundedLogReader tail, int[] keyColumns, BatchFilter filter,
            Schema outputSchema, long tailRowsInMemory, Supplier<BoundedLogReader> tailReplay,
            BufferAllocator allocator) {
        this.base = requireNonNull(base, "base is null");
        this.tail = requireNonNull(tail, "tail is null");
        this.keyColumns = keyColumns.clone();
        this.filter = requireNonNull(filter, "filter is null");
        this.schema = requireNonNull(outputSchema, "outputSchema is null");
        if (tailRowsInMemory < 0) {
            throw new IllegalArgumentException("tail rows in memory must be >= 0, got " + tailRowsInMemory);
        }
        this.tailRowsInMemory = tailRowsInMemory;
        this.tailReplay = requireNonNull(tailReplay, "tailReplay is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public boolean hasNext() {
        while (ready.isEmpty() && phase != Phase.DONE && !closed) {
            switch (phase) {
                case FOLD -> fold();
                case BASE -> baseStep();
                case REPLAY -> replayStep();
                case DONE -> { }
            }
        }
        return !ready.isEmpty();
    }

    @Override
    public ReadBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The merged read has ended");
        }
        VectorSchemaRoot batch = ready.poll();
        rows += batch.getRowCount();
        bytes += ArrowBufferBytes.of(batch);
        return ReadBatch.of(batch);
    }

    @Override
    public ReadProgress progress() {
        ReadProgress log = tail.progress();
        return new ReadProgress(rows, bytes, log.bucketsDone(), log.buckets(), base.progress().lakeFiles());
    }

    @Override
    public Map<TableBucket, Long> logStartOffsets() {
        return tail.startOffsets();
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return tail.stopOffsets();
    }

    @Override
    public Optional<Long> lakeSnapshotId() {
        return base.lakeSnapshotId();
    }

    @Override
    public BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        ready.forEach(VectorSchemaRoot::close);
        ready.clear();
        try {
            if (tailBatches != null) {
                tailBatches.forEach(VectorSchemaRoot::close);
            }
            if (replay != null) {
                replay.close();
            }
        } finally {
            try {
                tail.close();
            } finally {
                base.close();
            }
        }
    }

    /** The whole tail, folded by key: the newest record of each key, and where it is. */
    private void fold() {
        folded = new HashMap<>();
        tailBatches = new ArrayList<>();
        long retained = 0;
        while (tail.hasNext()) {
            try (LogBatch batch = tail.next()) {
                VectorSchemaRoot root = batch.root();
                int typeIndex = changeTypeIndex(root);
                VarCharVector types = (VarCharVector) root.getVector(typeIndex);
                int batchIndex = -1;
                VectorSchemaRoot data = root;
                if (!replayTail) {
                    batchIndex = tailBatches.size();
                    data = dataColumns(root, typeIndex);
                    tailBatches.add(data);
                    retained += root.getRowCount();
                }
                for (int row = 0; row < batch.rowCount(); row++) {
                    folded.put(KeyValues.of(data, keyColumns, row), new TailRow(batchIndex, row,
                            ChangeKinds.removes(types, row), batch.bucket(), batch.baseOffset() + row));
                }
                if (!replayTail && retained > tailRowsInMemory) {
                    replayTail = true;
                    tailBatches.forEach(VectorSchemaRoot::close);
                    tailBatches.clear();
                }
            }
        }
        phase = Phase.BASE;
    }

    private void baseStep() {
        if (!base.hasNext()) {
            emitTail();
            return;
        }
        try (ReadBatch batch = base.next()) {
            VectorSchemaRoot rows = batch.root();
            if (folded.isEmpty() && rows.getFieldVectors().size() == schema.getFields().size()) {
                ready.add(transfer(rows));
                return;
            }
            int[] kept = new int[rows.getRowCount()];
            int count = 0;
            for (int row = 0; row < rows.getRowCount(); row++) {
                if (!folded.containsKey(KeyValues.of(rows, keyColumns, row))) {
                    kept[count++] = row;
                }
            }
            // A batch the tail did not touch is handed on as it is.
            emit(count == rows.getRowCount() && rows.getFieldVectors().size() == schema.getFields().size()
                    ? transfer(rows) : copy(rows, kept, count));
        }
    }

    /** The tail's newest record per key, in the order the tail was read. */
    private void emitTail() {
        if (replayTail) {
            phase = Phase.REPLAY;
            return;
        }
        List<List<TailRow>> byBatch = new ArrayList<>();
        tailBatches.forEach(b -> byBatch.add(new ArrayList<>()));
        folded.values().forEach(row -> {
            if (!row.removed()) {
                byBatch.get(row.batch()).add(row);
            }
        });
        for (int b = 0; b < tailBatches.size(); b++) {
            List<TailRow> survivors = byBatch.get(b);
            if (survivors.isEmpty()) {
                continue;
            }
            survivors.sort((x, y) -> Integer.compare(x.row(), y.row()));
            VectorSchemaRoot data = tailBatches.get(b);
            IntPredicate matches = filter.bind(data);
            int[] kept = new int[survivors.size()];
            int count = 0;
            for (TailRow row : survivors) {
                if (matches.test(row.row())) {
                    kept[count++] = row.row();
                }
            }
            emit(copy(data, kept, count));
        }
        tailBatches.forEach(VectorSchemaRoot::close);
        tailBatches = null;
        folded = null;
        phase = Phase.DONE;
    }

    /** The second read of a long tail, a batch at a time: each key's newest record, found by its offset. */
    private void replayStep() {
        if (replay == null) {
            replay = tailReplay.get();
        }
        if (!replay.hasNext()) {
            replay.close();
            replay = null;
            folded = null;
            phase = Phase.DONE;
            return;
        }
        try (LogBatch batch = replay.next()) {
            VectorSchemaRoot root = batch.root();
            IntPredicate matches = filter.bind(root);
            int[] kept = new int[batch.rowCount()];
            int count = 0;
            for (int row = 0; row < batch.rowCount(); row++) {
                TailRow newest = folded.get(KeyValues.of(root, keyColumns, row));
                if (newest != null && !newest.removed() && newest.offset() == batch.baseOffset() + row
                        && newest.bucket().equals(batch.bucket()) && matches.test(row)) {
                    kept[count++] = row;
                }
            }
            emit(copy(root, kept, count));
        }
    }

    private static int changeTypeIndex(VectorSchemaRoot root) {
        List<Field> fields = root.getSchema().getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(ArrowLogScanner.CHANGE_TYPE_COLUMN)) {
                return i;
            }
        }
        throw new IllegalArgumentException("The tail of a keyed merge must be a changelog read (no "
                + ArrowLogScanner.CHANGE_TYPE_COLUMN + " column in " + fields + ")");
    }

    /** The data columns of a changelog batch (before its change type), moved into a root of their own. */
    private VectorSchemaRoot dataColumns(VectorSchemaRoot root, int typeIndex) {
        List<FieldVector> vectors = new ArrayList<>(typeIndex);
        for (int i = 0; i < typeIndex; i++) {
            TransferPair pair = root.getVector(i).getTransferPair(allocator);
            pair.transfer();
            vectors.add((FieldVector) pair.getTo());
        }
        return new VectorSchemaRoot(vectors);
    }

    private VectorSchemaRoot transfer(VectorSchemaRoot from) {
        List<FieldVector> vectors = new ArrayList<>(schema.getFields().size());
        for (int i = 0; i < schema.getFields().size(); i++) {
            TransferPair pair = from.getVector(i).getTransferPair(allocator);
            pair.transfer();
            vectors.add((FieldVector) pair.getTo());
        }
        return new VectorSchemaRoot(schema.getFields(), vectors, from.getRowCount());
    }

    /** Rows {@code kept[0..count)} of {@code from}'s output columns, in a new root. */
    private VectorSchemaRoot copy(VectorSchemaRoot from, int[] kept, int count) {
        VectorSchemaRoot to = VectorSchemaRoot.create(schema, allocator);
        if (count == 0) {
            return to;
        }
        try {
            to.allocateNew();
            for (int i = 0; i < schema.getFields().size(); i++) {
                FieldVector target = to.getVector(i);
                TransferPair pair = from.getVector(i).makeTransferPair(target);
                for (int row = 0; row < count; row++) {
                    pair.copyValueSafe(kept[row], row);
                }
                target.setValueCount(count);
            }
            to.setRowCount(count);
            return to;
        } catch (RuntimeException e) {
            to.close();
            throw e;
        }
    }

    private void emit(VectorSchemaRoot batch) {
        if (batch.getRowCount() == 0) {
            batch.close();
        } else {
            ready.add(batch);
        }
    }

    /** Where a key's newest tail record is, and whether it removes the key. */
    private record TailRow(int batch, int row, boolean removed, TableBucket bucket, long offset) {}
}
