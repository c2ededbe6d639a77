package dev.riffle.core.log;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Decodes the Arrow part of a Fluss log batch into vectors of Riffle's Arrow.
 *
 * <p>Fluss writes each batch as one Arrow IPC record batch message (no schema message, buffers
 * compressed with ZSTD by default) after its header, statistics and change types. The schema
 * comes from the table; its buffer layout must match the writer's, which {@code ArrowTypeMapping}
 * guarantees.
 */
public final class ArrowBatchDecoder {
    /** Arrow IPC's continuation marker (0xFFFFFFFF), then the metadata length: 8 bytes at least. */
    private static final int IPC_CONTINUATION = -1;
    private static final int ARROW_PREFIX_LENGTH = 8;

    private final BufferAllocator allocator;
    private final Schema schema;

    public ArrowBatchDecoder(BufferAllocator allocator, Schema schema) {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.schema = requireNonNull(schema, "schema is null");
    }

    public Schema schema() {
        return schema;
    }

    /** A new root, owned by the caller, holding the rows of {@code header}'s batch. */
    public VectorSchemaRoot decode(ByteBuffer records, LogBatchHeader header) {
        try (ArrowRecordBatch batch = read(records, header)) {
            return load(batch);
        }
    }

    /**
     * The Arrow record batch of {@code header}'s batch as Fluss stored it, owned by the caller: its
     * buffers copied out of {@code records} but not decompressed or loaded into vectors, for
     * {@link #load} later or for sending on as it is.
     */
    public ArrowRecordBatch read(ByteBuffer records, LogBatchHeader header) {
        requireNonNull(records, "records is null");
        requireNonNull(header, "header is null");
        // Fluss writes the IPC continuation marker first. Checking it catches a batch whose header
        // is read with the wrong layout (the magic byte is not under the CRC) before Arrow reads a
        // length from the wrong place.
        if (header.arrowLength() < ARROW_PREFIX_LENGTH || records.getInt(header.arrowPosition()) != IPC_CONTINUATION) {
            throw new CorruptLogException(describe(header) + " holds no Arrow IPC message at byte "
                    + header.arrowPosition() + " (" + header.arrowLength() + " bytes after its header, statistics"
                    + " and change types); only ARROW log tables can be decoded");
        }
        ByteBuffer arrow = records.duplicate();
        arrow.limit(header.arrowPosition() + header.arrowLength());
        arrow.position(header.arrowPosition());
        ArrowRecordBatch batch;
        try {
            batch = MessageSerializer.deserializeRecordBatch(new ReadChannel(new ByteBufferChannel(arrow)), allocator);
        } catch (IOException e) {
            // Nothing here does I/O: the bytes are in memory, so a failure means they are malformed.
            throw new CorruptLogException("Cannot read the Arrow data of " + describe(header) + ": " + e.getMessage(), e);
        }
        if (batch == null) {
            throw new CorruptLogException(describe(header) + " has no Arrow record batch");
        }
        if (batch.getLength() != header.recordCount()) {
            batch.close();
            throw new CorruptLogException(describe(header) + " declares " + header.recordCount()
                    + " records but its Arrow data holds " + batch.getLength());
        }
        return batch;
    }

    /** A new root, owned by the caller, holding {@code batch}'s rows (decompressed); the batch stays the caller's. */
    public VectorSchemaRoot load(ArrowRecordBatch batch) {
        requireNonNull(batch, "batch is null");
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try {
            new VectorLoader(root, FlussCompression.INSTANCE).load(batch);
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
        return root;
    }

    private static String describe(LogBatchHeader header) {
        return "Log batch at byte " + header.position() + " (base offset " + header.baseOffset() + ", magic "
                + header.magic() + ")";
    }

    /** Reads a heap or direct ByteBuffer without copying it first. */
    private static final class ByteBufferChannel implements ReadableByteChannel {
        private final ByteBuffer source;
        private boolean open = true;

        ByteBufferChannel(ByteBuffer source) {
            this.source = source;
        }

        @Override
        public int read(ByteBuffer target) {
            if (!source.hasRemaining()) {
                return -1;
            }
            int n = Math.min(source.remaining(), target.remaining());
            ByteBuffer chunk = source.duplicate();
            chunk.limit(chunk.position() + n);
            target.put(chunk);
            source.position(source.position() + n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }
}
