package dev.riffle.core.read;

import dev.riffle.core.scan.LogBatch;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A {@link BoundedLogReader} as an {@link ArrowReader}: each {@link #loadNextBatch()} moves the
 * next batch's buffers into the one root (no copy).
 */
final class BoundedArrowReader extends ArrowReader {
    private final BoundedLogReader reader;

    BoundedArrowReader(BoundedLogReader reader, BufferAllocator allocator) {
        super(allocator);
        this.reader = reader;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
        if (!reader.hasNext()) {
            return false;
        }
        try (LogBatch batch = reader.next()) {
            batch.transferTo(getVectorSchemaRoot());
        }
        return true;
    }

    @Override
    public long bytesRead() {
        return reader.progress().bytes();
    }

    @Override
    protected void closeReadSource() {
        reader.close();
    }

    @Override
    protected Schema readSchema() {
        return reader.schema();
    }
}
