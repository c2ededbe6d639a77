package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * One reader's batches, then another's (same schema): a log table's lake snapshot, then its log
 * past the snapshot. The second reader's log stop offsets are the read's.
 *
 * <pre>{@code
 * TableReader whole = new ConcatReader(lakeRows, logTail);
 * }</pre>
 */
public final class ConcatReader implements TableReader {
    private final TableReader first;
    private final TableReader second;
    private long rows;
    private long bytes;
    private boolean closed;

    public ConcatReader(TableReader first, TableReader second) {
        this.first = requireNonNull(first, "first is null");
        this.second = requireNonNull(second, "second is null");
        if (!first.schema().getFields().equals(second.schema().getFields())) {
            throw new IllegalArgumentException("Readers to concatenate must have one schema; got " + first.schema()
                    + " and " + second.schema());
        }
    }

    @Override
    public Schema schema() {
        return second.schema();
    }

    @Override
    public boolean hasNext() {
        return !closed && (first.hasNext() || second.hasNext());
    }

    @Override
    public ReadBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The read has ended");
        }
        ReadBatch batch = first.hasNext() ? first.next() : second.next();
        rows += batch.rowCount();
        bytes += batch.bufferBytes();
        return batch;
    }

    @Override
    public ReadProgress progress() {
        ReadProgress log = second.progress();
        return new ReadProgress(rows, bytes, log.bucketsDone(), log.buckets(),
                first.progress().lakeFiles() + log.lakeFiles());
    }

    @Override
    public Map<TableBucket, Long> logStartOffsets() {
        return second.logStartOffsets();
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return second.logStopOffsets();
    }

    @Override
    public Optional<Long> lakeSnapshotId() {
        return first.lakeSnapshotId().or(second::lakeSnapshotId);
    }

    @Override
    public BufferAllocator allocator() {
        return second.allocator();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            first.close();
        } finally {
            second.close();
        }
    }
}
