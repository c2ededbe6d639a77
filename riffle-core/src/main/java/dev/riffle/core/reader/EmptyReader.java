package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * A read with no rows: a partitioned table whose chosen partitions hold none, the base of a
 * primary-key table read that has no snapshot yet.
 *
 * <pre>{@code
 * TableReader none = new EmptyReader(schema, allocator);
 * }</pre>
 */
public final class EmptyReader implements TableReader {
    private final Schema schema;
    private final BufferAllocator allocator;
    private final Map<TableBucket, Long> logStopOffsets;

    public EmptyReader(Schema schema, BufferAllocator allocator) {
        this(schema, allocator, Map.of());
    }

    public EmptyReader(Schema schema, BufferAllocator allocator, Map<TableBucket, Long> logStopOffsets) {
        this.schema = requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.logStopOffsets = Map.copyOf(logStopOffsets);
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public boolean hasNext() {
        return false;
    }

    @Override
    public ReadBatch next() {
        throw new NoSuchElementException("An empty read has no rows");
    }

    @Override
    public ReadProgress progress() {
        return new ReadProgress(0, 0, 0, 0);
    }

    @Override
    public Map<TableBucket, Long> logStopOffsets() {
        return logStopOffsets;
    }

    @Override
    public BufferAllocator allocator() {
        return allocator;
    }

    @Override
    public void close() {}
}
