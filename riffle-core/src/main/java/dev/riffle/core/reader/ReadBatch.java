package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowBufferBytes;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One batch of rows a {@link TableReader} hands out. The batch owns its root: whoever takes it
 * from the reader closes it.
 *
 * <pre>{@code
 * try (ReadBatch batch = reader.next()) {
 *     System.out.println(batch.rowCount() + " rows" + batch.logRange().map(r -> " up to offset " + r.endOffset()).orElse(""));
 * }
 * }</pre>
 */
public interface ReadBatch extends AutoCloseable {

    /** The rows; valid until the batch is closed. */
    VectorSchemaRoot root();

    default int rowCount() {
        return root().getRowCount();
    }

    /** The bytes of Arrow buffers the rows use ({@link ArrowBufferBytes}). */
    default long bufferBytes() {
        return ArrowBufferBytes.of(root());
    }

    /** Where in the log the rows came from, when they came from one bucket's log (not from a lake or a merge). */
    Optional<LogRange> logRange();

    /**
     * The rows as Fluss stored them, while they are exactly one stored batch that has not been
     * decoded yet: calling {@link #root()} decodes them and ends this. Empty for every other batch.
     */
    default Optional<StoredBatch> stored() {
        return Optional.empty();
    }

    @Override
    void close();

    /** A batch that is not tied to a log position (lake rows, merged rows, looked-up rows). */
    static ReadBatch of(VectorSchemaRoot root) {
        return new Plain(root, Optional.empty());
    }

    /** A batch read from {@code range} of one bucket's log. */
    static ReadBatch of(VectorSchemaRoot root, LogRange range) {
        return new Plain(root, Optional.of(requireNonNull(range, "range is null")));
    }

    /** The plain implementation: a root and where it came from. */
    record Plain(VectorSchemaRoot root, Optional<LogRange> logRange) implements ReadBatch {
        public Plain {
            requireNonNull(root, "root is null");
            requireNonNull(logRange, "logRange is null");
        }

        @Override
        public void close() {
            root.close();
        }
    }
}
