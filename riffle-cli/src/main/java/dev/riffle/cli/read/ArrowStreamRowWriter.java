package dev.riffle.cli.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The Arrow IPC stream format: the schema, then one record batch per batch read, then the
 * end-of-stream marker. Readable by {@code ArrowStreamReader}, {@code pyarrow.ipc.open_stream},
 * DuckDB and Polars.
 *
 * <p>Each batch's buffers move into the writer's one {@link VectorSchemaRoot} rather than being
 * copied; the root lives in a child allocator that is closed (and checked for leaks) with the writer.
 */
public final class ArrowStreamRowWriter implements RowWriter {
    private final BufferAllocator allocator;
    private final VectorSchemaRoot root;
    private final ArrowStreamWriter writer;

    public ArrowStreamRowWriter(OutputStream out, Schema schema, BufferAllocator parent) {
        requireNonNull(out, "out is null");
        requireNonNull(schema, "schema is null");
        this.allocator = requireNonNull(parent, "parent is null").newChildAllocator("riffle read arrow output", 0, Long.MAX_VALUE);
        try {
            this.root = VectorSchemaRoot.create(schema, allocator);
        } catch (RuntimeException e) {
            allocator.close();
            throw e;
        }
        this.writer = new ArrowStreamWriter(root, null, Channels.newChannel(out));
    }

    @Override
    public void start() throws IOException {
        writer.start();
    }

    @Override
    public void write(VectorSchemaRoot rows) throws IOException {
        List<FieldVector> from = rows.getFieldVectors();
        for (int i = 0; i < from.size(); i++) {
            from.get(i).makeTransferPair(root.getVector(i)).transfer();
        }
        root.setRowCount(rows.getRowCount());
        writer.writeBatch();
    }

    @Override
    public void finish() throws IOException {
        writer.end();
    }

    /**
     * Frees the root and the allocator. The {@link ArrowStreamWriter} is not closed: that would
     * close the output, which may be stdout; it holds nothing else.
     */
    @Override
    public void close() {
        try {
            root.close();
        } finally {
            allocator.close();
        }
    }
}
