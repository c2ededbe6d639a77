package dev.riffle.core.types;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * How many bytes of Arrow buffers a batch's vectors use for its rows: what readers count as bytes
 * read, and what writers weigh a batch by before they encode or send it.
 *
 * <pre>{@code
 * long bytes = ArrowBufferBytes.of(batch.root());
 * }</pre>
 */
public final class ArrowBufferBytes {
    private ArrowBufferBytes() {}

    /** The sum of the vectors' buffer sizes (Arrow's {@code getBufferSize}: used, not allocated). */
    public static long of(VectorSchemaRoot root) {
        requireNonNull(root, "root is null");
        long bytes = 0;
        for (FieldVector vector : root.getFieldVectors()) {
            bytes += vector.getBufferSize();
        }
        return bytes;
    }
}
