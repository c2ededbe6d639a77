package dev.riffle.lake.source;

import dev.riffle.core.reader.TableReader;
import java.io.IOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/** A planned read of one lake snapshot. */
public interface LakeScan extends AutoCloseable {

    long snapshotId();

    List<LakeSplit> splits();

    PushedFilters filters();

    /** The Arrow schema of the batches every split returns (the projected Fluss columns). */
    Schema schema();

    /** Reads one split as Arrow batches allocated from {@code allocator}. */
    TableReader read(LakeSplit split, BufferAllocator allocator) throws IOException;

    @Override
    default void close() {}
}
