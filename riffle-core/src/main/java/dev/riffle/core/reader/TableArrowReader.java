package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A {@link TableReader} as an {@link ArrowReader}: each {@link #loadNextBatch()} moves the next
 * batch's buffers into the one root (no copy).
 */
final class TableArrowReader extends ArrowReader {
    private final TableReader reader;

    TableArrowReader(TableReader reader) {
        super(requireNonNull(reader, "reader is null").allocator());
        this.reader = reader;
    }

    @Override
    public boolean loadNextBatch() throws java.io.IOException {
        if (!reader.hasNext()) {
            return false;
        }
        try (ReadBatch batch = reader.next()) {
            moveInto(batch.root(), getVectorSchemaRoot());
        }
        return true;
    }

    /** Moves {@code from}'s buffers into {@code to} (same schema); {@code from} is left empty. */
    static void moveInto(VectorSchemaRoot from, VectorSchemaRoot to) {
        int rows = from.getRowCount();
        for (int i = 0; i < from.getFieldVectors().size(); i++) {
            from.getVector(i).makeTransferPair(to.getVector(i)).transfer();
        }
        to.setRowCount(rows);
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
