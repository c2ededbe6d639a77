package dev.riffle.cli.read;

import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Writes the rows of a read in one output format: {@link #start()} once, {@link #write} for each
 * batch, {@link #finish()} once after the last batch, then {@link #close()}.
 *
 * <p>A writer never closes the stream it writes to: {@link Output} owns that.
 */
public interface RowWriter extends AutoCloseable {

    /** Writes what comes before the rows (a CSV header, an Arrow schema), even when no row follows. */
    void start() throws IOException;

    /**
     * Writes every row of {@code rows}. The writer may take the buffers out of {@code rows}
     * (Arrow output moves them instead of copying); the caller still closes its batch.
     */
    void write(VectorSchemaRoot rows) throws IOException;

    /** Writes what ends the output and flushes it. */
    void finish() throws IOException;

    /** Frees what the writer holds; the output stays open. */
    @Override
    void close();
}
