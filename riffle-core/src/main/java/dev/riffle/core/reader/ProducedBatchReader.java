package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowBufferBytes;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * A {@link TableReader} over batches that a subclass builds one at a time from a source that is
 * not a Fluss log (rows of the KV store, a lake's files): the bookkeeping every such reader shares
 * (one batch built ahead, progress, closing the pending batch before the source) is here, and the
 * subclass says how a batch is built ({@link #produce}) and how its source is released
 * ({@link #release}).
 *
 * <pre>{@code
 * final class MyReader extends ProducedBatchReader {
 *     MyReader(Schema schema, BufferAllocator allocator) { super(schema, allocator); }
 *     protected VectorSchemaRoot produce() { ... return null at the end; }
 *     protected void release() { source.close(); }
 * }
 * }</pre>
 */
public abstract class ProducedBatchReader implements TableReader {
    private final Schema schema;
    private final BufferAllocator allocator;
    private VectorSchemaRoot pending;
    private boolean ended;
    private boolean closed;
    private long rowsOut;
    private long bytes;

    protected ProducedBatchReader(Schema schema, BufferAllocator allocator) {
        this.schema = requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
    }

    /** The next batch, allocated from {@link #allocator()} in {@link #schema()}, or null when the source has no more rows. */
    protected abstract VectorSchemaRoot produce();

    /** Releases the source; called once, when the reader closes. */
    protected abstract void release();

    @Override
    public final Schema schema() {
        return schema;
    }

    @Override
    public final boolean hasNext() {
        if (pending != null || closed || ended) {
            return pending != null;
        }
        pending = produce();
        ended = pending == null;
        return pending != null;
    }

    @Override
    public final ReadBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The read has ended");
        }
        VectorSchemaRoot batch = pending;
        pending = null;
        rowsOut += batch.getRowCount();
        bytes += ArrowBufferBytes.of(batch);
        return ReadBatch.of(batch);
    }

    @Override
    public final ReadProgress progress() {
        return new ReadProgress(rowsOut, bytes, 0, 0);
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return Map.of();
    }

    @Override
    public final BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (pending != null) {
                pending.close();
                pending = null;
            }
        } finally {
            release();
        }
    }
}
