package dev.riffle.core.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Batches of a written Arrow stream come back as the reader's own, each the caller's to close. */
class ArrowStreamTableReaderTest {
    private static final Schema SCHEMA = new Schema(List.of(
            new Field("id", FieldType.nullable(new ArrowType.Int(32, true)), null)));

    @Test
    void everyNonEmptyBatchComesBackOwnedByTheCallerAndTheAllocatorEndsEmpty() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            byte[] stream = write(allocator, new int[] {1, 2, 3}, new int[0], new int[] {4});
            List<ReadBatch> kept = new ArrayList<>();
            try (TableReader reader = ArrowStreamTableReader.open(new ByteArrayInputStream(stream), allocator)) {
                assertThat(reader.schema()).isEqualTo(SCHEMA);
                while (reader.hasNext()) {
                    kept.add(reader.next());
                }
                assertThat(reader.progress().rows()).isEqualTo(4);
            }
            // Still readable after the reader closed: the batches were moved out of the stream's root.
            List<Integer> ids = new ArrayList<>();
            for (ReadBatch batch : kept) {
                IntVector id = (IntVector) batch.root().getVector(0);
                for (int i = 0; i < batch.rowCount(); i++) {
                    ids.add(id.get(i));
                }
                batch.close();
            }
            assertThat(ids).containsExactly(1, 2, 3, 4);
            assertThat(kept).hasSize(2);
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void bytesThatAreNoArrowStreamFailBeforeAnyRowAndFreeWhatTheyTook() {
        try (BufferAllocator allocator = new RootAllocator()) {
            byte[] html = "<html>not arrow</html>".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            assertThatThrownBy(() -> ArrowStreamTableReader.open(new ByteArrayInputStream(html), allocator))
                    .isInstanceOf(UncheckedIOException.class).hasMessageContaining("Not an Arrow IPC stream");
            assertThatThrownBy(() -> ArrowStreamTableReader.open(new ByteArrayInputStream(new byte[0]), allocator))
                    .isInstanceOf(UncheckedIOException.class).hasMessageContaining("empty");
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aStreamCutInsideABatchFailsTheReadInsteadOfEndingIt() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            byte[] whole = write(allocator, new int[] {1, 2, 3}, new int[] {4, 5, 6});
            byte[] cut = Arrays.copyOf(whole, whole.length - 20);
            try (TableReader reader = ArrowStreamTableReader.open(new ByteArrayInputStream(cut), allocator)) {
                assertThatThrownBy(() -> {
                    while (reader.hasNext()) {
                        reader.next().close();
                    }
                }).isInstanceOf(RuntimeException.class);
            }
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    private static byte[] write(BufferAllocator allocator, int[]... batches) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
                ArrowStreamWriter writer = new ArrowStreamWriter(root, null, Channels.newChannel(out))) {
            writer.start();
            IntVector id = (IntVector) root.getVector(0);
            for (int[] batch : batches) {
                id.allocateNew(batch.length);
                for (int i = 0; i < batch.length; i++) {
                    id.set(i, batch[i]);
                }
                root.setRowCount(batch.length);
                writer.writeBatch();
            }
            writer.end();
        }
        return out.toByteArray();
    }
}
