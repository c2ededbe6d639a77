package dev.riffle.cli.read;

import dev.riffle.core.read.BoundedLogReader;
import dev.riffle.core.read.ReadProgress;
import dev.riffle.lake.union.UnionReader;
import java.io.IOException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** The batches {@code riffle read} writes, whichever reader produces them; each batch is the caller's to close. */
interface RowSource extends AutoCloseable {
    Schema schema();

    boolean hasNext();

    VectorSchemaRoot next();

    ReadProgress progress();

    @Override
    void close() throws IOException;

    static RowSource of(BoundedLogReader reader) {
        return new RowSource() {
            @Override
            public Schema schema() {
                return reader.schema();
            }

            @Override
            public boolean hasNext() {
                return reader.hasNext();
            }

            @Override
            public VectorSchemaRoot next() {
                return reader.next().root(); // closing the root closes the batch
            }

            @Override
            public ReadProgress progress() {
                return reader.progress();
            }

            @Override
            public void close() {
                reader.close();
            }
        };
    }

    static RowSource of(UnionReader reader) {
        return new RowSource() {
            private long bytes;

            @Override
            public Schema schema() {
                return reader.schema();
            }

            @Override
            public boolean hasNext() {
                return reader.hasNext();
            }

            @Override
            public VectorSchemaRoot next() {
                VectorSchemaRoot batch = reader.next();
                batch.getFieldVectors().forEach(v -> bytes += v.getBufferSize());
                return batch;
            }

            @Override
            public ReadProgress progress() {
                return new ReadProgress(reader.rowsRead(), bytes, 0, 0);
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }
}
