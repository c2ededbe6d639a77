package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A {@link TableReader} over an Arrow IPC stream someone else wrote (an answer of Riffle's HTTP
 * gateway, a file of {@code riffle read --format arrow}): each batch of the stream becomes one
 * {@link ReadBatch} of its own, so the caller may keep or close it as with any other read. Empty
 * batches are skipped.
 *
 * <pre>{@code
 * try (TableReader rows = ArrowStreamTableReader.open(response.body(), allocator)) {
 *     while (rows.hasNext()) { try (ReadBatch batch = rows.next()) { ... } }
 * }
 * }</pre>
 *
 * <p>Closing the reader closes the stream.
 */
public final class ArrowStreamTableReader extends ProducedBatchReader {
    private final ArrowStreamReader stream;
    private final InputStream in;

    private ArrowStreamTableReader(ArrowStreamReader stream, InputStream in, Schema schema, BufferAllocator allocator) {
        super(schema, allocator);
        this.stream = stream;
        this.in = in;
    }

    /**
     * Reads the stream's schema (so a stream that is not Arrow fails here, before any row) and
     * answers a reader of its batches, allocated from {@code allocator}.
     *
     * @throws UncheckedIOException when the stream ends or breaks before its schema
     */
    public static ArrowStreamTableReader open(InputStream in, BufferAllocator allocator) {
        requireNonNull(in, "in is null");
        requireNonNull(allocator, "allocator is null");
        InputStream checked;
        try {
            checked = startsLikeArrow(in);
        } catch (IOException e) {
            closeQuietly(in, e);
            throw new UncheckedIOException(e.getMessage(), e);
        }
        ArrowStreamReader stream = new ArrowStreamReader(checked, allocator);
        try {
            Schema schema = stream.getVectorSchemaRoot().getSchema();
            return new ArrowStreamTableReader(stream, in, schema, allocator);
        } catch (IOException e) {
            closeQuietly(stream, in, e);
            throw new UncheckedIOException("Reading the Arrow stream's schema failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(stream, in, e);
            throw e;
        }
    }

    @Override
    protected VectorSchemaRoot produce() {
        try {
            while (stream.loadNextBatch()) {
                VectorSchemaRoot loaded = stream.getVectorSchemaRoot();
                if (loaded.getRowCount() == 0) {
                    continue;
                }
                VectorSchemaRoot batch = VectorSchemaRoot.create(schema(), allocator());
                TableArrowReader.moveInto(loaded, batch);
                return batch;
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("The Arrow stream broke off: " + e.getMessage(), e);
        }
    }

    @Override
    protected void release() {
        try {
            stream.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            try {
                in.close();
            } catch (IOException ignored) {
                // the stream's buffers are freed; a socket that will not close says nothing of the rows
            }
        }
    }

    /**
     * The stream, after checking that it begins as an Arrow IPC stream does: the continuation
     * marker and the length of a schema message that is not absurd. Arrow would otherwise take the
     * first bytes of whatever came (an HTML error page) as a length and allocate that much heap.
     */
    private static InputStream startsLikeArrow(InputStream in) throws IOException {
        java.io.PushbackInputStream peek = new java.io.PushbackInputStream(in, 8);
        byte[] head = peek.readNBytes(8);
        peek.unread(head);
        if (head.length == 0) {
            throw new IOException("The Arrow stream is empty: not even a schema came");
        }
        java.nio.ByteBuffer prefix = java.nio.ByteBuffer.wrap(head).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        if (head.length < 8 || prefix.getInt(0) != 0xFFFFFFFF || prefix.getInt(4) <= 0
                || prefix.getInt(4) > MAX_SCHEMA_BYTES) {
            throw new IOException("Not an Arrow IPC stream: it begins with "
                    + java.util.HexFormat.of().formatHex(head) + " where a schema message should be");
        }
        return peek;
    }

    /** Far more than the schema of any table (a column takes some dozens of bytes). */
    private static final int MAX_SCHEMA_BYTES = 16 << 20;

    private static void closeQuietly(InputStream in, Exception failure) {
        try {
            in.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private static void closeQuietly(ArrowStreamReader stream, InputStream in, Exception failure) {
        try {
            stream.close();
            in.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
