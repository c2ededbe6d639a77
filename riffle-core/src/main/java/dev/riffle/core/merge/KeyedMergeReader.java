package dev.riffle.core.merge;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.filter.BatchFilter;
import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.ReadProgress;
import dev.riffle.core.reader.SelectedRows;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.scan.ArrowLogScanner;
import dev.riffle.core.scan.LogBatch;
import dev.riffle.core.types.ArrowBufferBytes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Supplier;
import java.util.stream.IntStream;
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
 * <p>Memory grows with the tail, not with the table: up to {@code tailRowsInMemory} tail rows (and
 * at most {@link #TAIL_BYTES_IN_MEMORY} of their Arrow buffers) are kept; past that only each key's
 * position is kept, in a {@link TailKeyIndex} of about 16 bytes per key for a key of one integer
 * column, and the tail is read a second time (the log below the stop offsets never changes) to
 * emit each key's newest record. The merge works a batch at a time on the key columns' Arrow
 * buffers: no object per row.
 */
public final class KeyedMergeReader implements TableReader {
    /** Up to this many tail rows are held in memory for the merge; past it, only their keys. */
    public static final long DEFAULT_TAIL_ROWS_IN_MEMORY = 2_000_000;
    /**
     * Whatever the row limit, the tail rows held in memory take at most this many bytes of Arrow
     * buffers: a read of narrow rows skips the second read of the tail, a read of wide ones stays bounded.
     */
    public static final long TAIL_BYTES_IN_MEMORY = 64L << 20;
    /** The key index is sized up front for the tail's records, but for no more keys than this. */
    private static final long EXPECTED_KEYS_CAP = 1_000_000;

    private final TableReader base;
    private final LogTail tail;
    private final int[] keyColumns;
    private final BatchFilter filter;
    private final Schema schema;
    private final int[] outputColumns;
    private final long tailRowsInMemory;
    private final Supplier<? extends LogTail> tailReplay;
    private final BufferAllocator allocator;
    private final ArrayDeque<VectorSchemaRoot> ready = new ArrayDeque<>();
    private final Map<TableBucket, Integer> bucketIds = new HashMap<>();
    private TailKeyIndex index;
    private List<TailBatch> tailBatches;
    /** The held tail batches of each bucket (by its id in positions). */
    private final List<HeldBatches> heldByBucket = new ArrayList<>();
    private int[] selection = new int[0];
    private boolean replayTail;
    private LogTail replay;
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
    public KeyedMergeReader(TableReader base, LogTail tail, int[] keyColumns, BatchFilter filter,
            Schema outputSchema, long tailRowsInMemory, Supplier<? extends LogTail> tailReplay,
            BufferAllocator allocator) {
        this.base = requireNonNull(base, "base is null");
        this.tail = requireNonNull(tail, "tail is null");
        this.keyColumns = keyColumns.clone();
        this.filter = requireNonNull(filter, "filter is null");
        this.schema = requireNonNull(outputSchema, "outputSchema is null");
        this.outputColumns = IntStream.range(0, outputSchema.getFields().size()).toArray();
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
                tailBatches.forEach(b -> b.data().close());
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

    /** The whole tail, folded by key: where each key's newest record is, and whether it removes the key. */
    private void fold() {
        tailBatches = new ArrayList<>();
        long retained = 0;
        long retainedBytes = 0;
        boolean[] removes = new boolean[0];
        while (tail.hasNext()) {
            try (LogBatch batch = tail.next()) {
                VectorSchemaRoot root = batch.root();
                int rowCount = batch.rowCount();
                if (rowCount == 0) {
                    continue;
                }
                int typeIndex = changeTypeIndex(root);
                VarCharVector types = (VarCharVector) root.getVector(typeIndex);
                if (removes.length < rowCount) {
                    removes = new boolean[rowCount];
                }
                for (int row = 0; row < rowCount; row++) {
                    removes[row] = ChangeKinds.removes(types, row);
                }
                if (index == null) {
                    index = TailKeyIndex.forKeys(root, keyColumns, Math.min(tailRows(), EXPECTED_KEYS_CAP));
                }
                long first = firstPosition(batch);
                if (replayTail) {
                    index.put(root, first, removes, position -> { });
                    continue;
                }
                TailBatch held = new TailBatch(dataColumns(root, typeIndex), first, new long[(rowCount + 63) / 64]);
                tailBatches.add(held);
                heldByBucket(first).add(held);
                for (int row = 0; row < rowCount; row++) {
                    if (removes[row]) {
                        held.drop(row);
                    }
                }
                index.put(held.data(), first, removes, this::supersede);
                retained += rowCount;
                retainedBytes += ArrowBufferBytes.of(held.data());
                if (retained > tailRowsInMemory || retainedBytes > TAIL_BYTES_IN_MEMORY) {
                    replayTail = true;
                    tailBatches.forEach(b -> b.data().close());
                    tailBatches.clear();
                    heldByBucket.clear();
                }
            }
        }
        phase = Phase.BASE;
    }

    /** The position of the batch's first record; its rows follow at consecutive positions. */
    private long firstPosition(LogBatch batch) {
        Integer id = bucketIds.get(batch.bucket());
        if (id == null) {
            id = bucketIds.size();
            bucketIds.put(batch.bucket(), id);
        }
        TailPositions.of(id, batch.baseOffset() + batch.rowCount() - 1);
        return TailPositions.of(id, batch.baseOffset());
    }

    /** How many records the tail holds, from its start and stop offsets. */
    private long tailRows() {
        long rows = 0;
        for (Map.Entry<TableBucket, Long> stop : tail.stopOffsets().entrySet()) {
            rows += Math.max(0, stop.getValue() - tail.startOffsets().getOrDefault(stop.getKey(), stop.getValue()));
        }
        return rows;
    }

    private HeldBatches heldByBucket(long position) {
        int bucket = (int) (position >>> TailPositions.OFFSET_BITS);
        while (heldByBucket.size() <= bucket) {
            heldByBucket.add(new HeldBatches());
        }
        return heldByBucket.get(bucket);
    }

    /** A held record is no longer its key's newest: it is left out when the tail is emitted. */
    private void supersede(long position) {
        heldByBucket(position).drop(position);
    }

    /** The held tail batches of one bucket, in offset order, found by a record's position. */
    private static final class HeldBatches {
        private final List<TailBatch> batches = new ArrayList<>();
        private long[] firstPositions = new long[16];

        void add(TailBatch batch) {
            if (batches.size() == firstPositions.length) {
                firstPositions = Arrays.copyOf(firstPositions, firstPositions.length * 2);
            }
            firstPositions[batches.size()] = batch.firstPosition();
            batches.add(batch);
        }

        void drop(long position) {
            int last = batches.size() - 1;
            // Mostly the record replaced is in the batch being folded (an update's -U and +U sit side by side).
            int at = position >= firstPositions[last] ? last : Arrays.binarySearch(firstPositions, 0, last, position);
            if (at < 0) {
                at = -at - 2;
            }
            TailBatch batch = batches.get(at);
            batch.drop((int) (position - batch.firstPosition()));
        }
    }

    private void baseStep() {
        if (!base.hasNext()) {
            emitTail();
            return;
        }
        try (ReadBatch batch = base.next()) {
            VectorSchemaRoot rows = batch.root();
            boolean sameColumns = rows.getFieldVectors().size() == schema.getFields().size();
            if ((index == null || index.isEmpty()) && sameColumns) {
                ready.add(transfer(rows));
                return;
            }
            int[] kept = selection(rows.getRowCount());
            int count = index == null ? rows.getRowCount() : index.absent(rows, kept);
            if (index == null) {
                Arrays.setAll(kept, i -> i);
            }
            // A batch the tail did not touch is handed on as it is.
            emit(count == rows.getRowCount() && sameColumns ? transfer(rows) : copy(rows, kept, count));
        }
    }

    /** The tail's newest record per key, in the order the tail was read. */
    private void emitTail() {
        if (replayTail) {
            phase = Phase.REPLAY;
            return;
        }
        for (TailBatch batch : tailBatches) {
            int[] kept = selection(batch.data().getRowCount());
            emit(matching(batch.data(), kept, batch.kept(kept)));
        }
        tailBatches.forEach(b -> b.data().close());
        tailBatches = null;
        index = null;
        phase = Phase.DONE;
    }

    /** The second read of a long tail, a batch at a time: each key's newest record, found by its position. */
    private void replayStep() {
        if (replay == null) {
            replay = tailReplay.get();
        }
        if (!replay.hasNext()) {
            replay.close();
            replay = null;
            index = null;
            phase = Phase.DONE;
            return;
        }
        try (LogBatch batch = replay.next()) {
            if (batch.rowCount() > 0) {
                emit(newestOf(batch.root(), firstPosition(batch)));
            }
        }
    }

    /** The rows of a tail batch that are their key's newest record, set it, and match the filter. */
    private VectorSchemaRoot newestOf(VectorSchemaRoot data, long firstPosition) {
        int[] kept = selection(data.getRowCount());
        return matching(data, kept, index.newest(data, firstPosition, kept));
    }

    /** Rows {@code kept[0..count)} of {@code data} that match the filter, in a new root. */
    private VectorSchemaRoot matching(VectorSchemaRoot data, int[] kept, int count) {
        if (!filter.acceptsAll()) {
            IntPredicate matches = filter.bind(data);
            int matching = 0;
            for (int i = 0; i < count; i++) {
                if (matches.test(kept[i])) {
                    kept[matching++] = kept[i];
                }
            }
            count = matching;
        }
        return copy(data, kept, count);
    }

    private int[] selection(int rows) {
        if (selection.length < rows) {
            selection = new int[rows];
        }
        return selection;
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
        return SelectedRows.copy(from, outputColumns, schema, kept, count, allocator);
    }

    private void emit(VectorSchemaRoot batch) {
        if (batch.getRowCount() == 0) {
            batch.close();
        } else {
            ready.add(batch);
        }
    }

    /**
     * A tail batch's data columns, held for the merge, the position of its first record, and which
     * of its rows are dropped (superseded by a newer record of their key, or removing it).
     */
    private record TailBatch(VectorSchemaRoot data, long firstPosition, long[] dropped) {
        void drop(int row) {
            dropped[row >>> 6] |= 1L << row;
        }

        /** Writes the rows not dropped into {@code kept}; returns how many. */
        int kept(int[] kept) {
            int count = 0;
            for (int row = 0; row < data.getRowCount(); row++) {
                if ((dropped[row >>> 6] & 1L << row) == 0) {
                    kept[count++] = row;
                }
            }
            return count;
        }
    }
}
