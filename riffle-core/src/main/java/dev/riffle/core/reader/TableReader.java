package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.c.ArrowArrayStream;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;

/**
 * What every Riffle read returns, whichever reader serves it (a bounded log or changelog read, a
 * lake + log union read, the lake alone, a primary-key table's current rows, the rows a SQL
 * statement computes): Arrow batches of one schema, handed out one at a time, then the end.
 *
 * <pre>{@code
 * try (TableReader rows = riffle.table("shop.orders").read().columns("id", "amount").createReader()) {
 *     while (rows.hasNext()) {
 *         try (ReadBatch batch = rows.next()) {
 *             System.out.println(batch.root().contentToTSVString());
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Memory: batches are allocated from {@link #allocator()}; each one is the caller's to close,
 * before the reader is closed. Closing the reader frees whatever it still holds. Not thread-safe.
 */
public interface TableReader extends AutoCloseable {

    /** The schema of every batch. */
    Schema schema();

    /** Whether another batch follows; may block while rows are read. */
    boolean hasNext();

    /** The next batch, never empty; the caller owns it and closes it. */
    ReadBatch next();

    /** Rows and bytes handed out so far, and how many buckets are done. */
    ReadProgress progress();

    /**
     * Where the log part of this read stops in each bucket (captured when the read was created,
     * exclusive); empty when the read has no log part. A later read of the log from these
     * offsets sees every change after this one exactly once.
     */
    Map<TableBucket, Long> logStopOffsets();

    /**
     * Where the log part of this read starts in each bucket (inclusive); empty when the read has
     * no log part or starts each bucket where its lake snapshot ends.
     */
    default Map<TableBucket, Long> logStartOffsets() {
        return Map.of();
    }

    /** The lake snapshot the read pinned, when part of it came from the lake. */
    default Optional<Long> lakeSnapshotId() {
        return Optional.empty();
    }

    /** Whether a row limit ended the read while rows may have been left (false when it ran to its end). */
    default boolean truncated() {
        return false;
    }

    /** Where the batches' buffers are allocated. */
    BufferAllocator allocator();

    /** Ends the read and frees what it holds (batches already handed out stay the caller's). */
    @Override
    void close();

    /**
     * The remaining rows as an {@link ArrowReader} that reuses one root (batches are moved into
     * it, not copied). Closing it closes this reader.
     */
    default ArrowReader toArrowReader() {
        return new TableArrowReader(this);
    }

    /** Writes every remaining row as an Arrow IPC stream; returns the number of rows written. */
    default long writeArrowStream(OutputStream out) throws IOException {
        requireNonNull(out, "out is null");
        long rows = 0;
        try (VectorSchemaRoot root = VectorSchemaRoot.create(schema(), allocator());
                ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            while (hasNext()) {
                try (ReadBatch batch = next()) {
                    TableArrowReader.moveInto(batch.root(), root);
                    writer.writeBatch();
                    rows += batch.rowCount();
                }
            }
            writer.end();
        }
        return rows;
    }

    /**
     * Exports the remaining rows through the Arrow C stream interface, e.g. for DuckDB's
     * {@code registerArrowStream}. The consumer releasing the stream closes this reader.
     *
     * @param allocator where the stream's C structures live; keep it open until the consumer is done
     */
    default ArrowArrayStream exportArrayStream(BufferAllocator allocator) {
        ArrowArrayStream stream = ArrowArrayStream.allocateNew(allocator);
        Data.exportArrayStream(allocator, toArrowReader(), stream);
        return stream;
    }
}
