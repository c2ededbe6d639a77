package dev.riffle.lake.source;

import java.io.IOException;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;

/** Arrow batches of one lake split; each returned root is the caller's to close. */
public interface LakeBatchReader extends AutoCloseable {

    /** The next batch, or empty at the end. */
    Optional<VectorSchemaRoot> next() throws IOException;

    @Override
    void close() throws IOException;
}
