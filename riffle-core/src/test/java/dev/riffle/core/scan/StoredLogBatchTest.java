package dev.riffle.core.scan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.core.log.CorruptLogException;
import dev.riffle.core.log.FlussCompression;
import dev.riffle.core.reader.StoredBatch;
import dev.riffle.core.types.ArrowBufferBytes;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.fluss.metadata.TableBucket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A log batch kept as Fluss stored it: what it says of itself before decoding, and the rows once decoded. */
class StoredLogBatchTest {
    private static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)),
            Field.nullable("kind", ArrowType.Utf8.INSTANCE)));
    private static final int ROWS = 1_000;

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void nothingHeld() {
        assertThat(allocator.getAllocatedMemory()).isZero();
        allocator.close();
    }

    @Test
    void aZstdBatchCountsItsDecodedBytesAndDecodesOnceWhenItsRootIsAskedFor() {
        long decodedBytes;
        ArrowRecordBatch compressed;
        try (VectorSchemaRoot rows = rows()) {
            decodedBytes = ArrowBufferBytes.of(rows);
            compressed = unload(rows, FlussCompression.INSTANCE.createCodec(CodecType.ZSTD));
        }
        try (LogBatch batch = stored(compressed)) {
            StoredBatch stored = batch.stored().orElseThrow();
            assertThat(stored.codec()).isEqualTo(CodecType.ZSTD);
            assertThat(stored.batch().computeBodyLength()).isLessThan(decodedBytes / 2); // still compressed
            assertThat(batch.rowCount()).isEqualTo(ROWS);
            assertThat(batch.endOffset()).isEqualTo(100 + ROWS);
            assertThat(batch.bufferBytes()).isEqualTo(decodedBytes);

            VectorSchemaRoot root = batch.root();

            assertThat(batch.stored()).isEmpty();
            assertThat(root.getRowCount()).isEqualTo(ROWS);
            assertThat(((BigIntVector) root.getVector("id")).get(ROWS - 1)).isEqualTo(ROWS - 1);
            assertThat(root.getVector("kind").getObject(7).toString()).isEqualTo("kind-1");
            assertThat(batch.root()).isSameAs(root);
            assertThat(batch.bufferBytes()).isEqualTo(decodedBytes);
        }
    }

    @Test
    void anUncompressedBatchIsStoredToo() {
        ArrowRecordBatch plain;
        long decodedBytes;
        try (VectorSchemaRoot rows = rows()) {
            decodedBytes = ArrowBufferBytes.of(rows);
            plain = unload(rows, FlussCompression.INSTANCE.createCodec(CodecType.NO_COMPRESSION));
        }
        try (LogBatch batch = stored(plain)) {
            assertThat(batch.stored().map(StoredBatch::codec)).contains(CodecType.NO_COMPRESSION);
            assertThat(batch.bufferBytes()).isEqualTo(decodedBytes);
        }
    }

    @Test
    void slicingDecodesAndClosingAStoredBatchFreesIt() {
        ArrowRecordBatch compressed;
        try (VectorSchemaRoot rows = rows()) {
            compressed = unload(rows, FlussCompression.INSTANCE.createCodec(CodecType.ZSTD));
        }
        try (LogBatch batch = stored(compressed); LogBatch tail = batch.slice(990, 10)) {
            assertThat(tail.baseOffset()).isEqualTo(100 + 990);
            assertThat(((BigIntVector) tail.root().getVector("id")).get(0)).isEqualTo(990);
            assertThat(tail.stored()).isEmpty();
        }
        ArrowRecordBatch unread;
        try (VectorSchemaRoot rows = rows()) {
            unread = unload(rows, FlussCompression.INSTANCE.createCodec(CodecType.ZSTD));
        }
        stored(unread).close(); // never decoded: the allocator check after the test finds nothing held
    }

    @Test
    void aBatchThatCannotBeDecodedSaysSoAndHoldsNothing() {
        ArrowRecordBatch compressed;
        try (VectorSchemaRoot rows = rows()) {
            compressed = unload(rows, FlussCompression.INSTANCE.createCodec(CodecType.ZSTD));
        }
        try (LogBatch batch = LogBatch.stored(new TableBucket(1L, 0), Optional.empty(), 100, 0, SCHEMA, compressed,
                held -> {
                    throw new CorruptLogException("bad bytes");
                })) {
            assertThatThrownBy(batch::root).isInstanceOf(CorruptLogException.class).hasMessage("bad bytes");
            assertThatThrownBy(batch::root).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("offsets 100 to 1100").hasMessageContaining("decoding it failed");
            assertThat(batch.stored()).isEmpty();
            assertThat(batch.bufferBytes()).isZero();
        }
    }

    private LogBatch stored(ArrowRecordBatch batch) {
        return LogBatch.stored(new TableBucket(1L, 0), Optional.empty(), 100, 0, SCHEMA, batch, held -> {
            VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
            new VectorLoader(root, FlussCompression.INSTANCE).load(held);
            return root;
        });
    }

    /** The batch as Fluss stores it and Riffle reads it back: an IPC message, read into one body buffer. */
    private ArrowRecordBatch unload(VectorSchemaRoot rows, CompressionCodec codec) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ArrowRecordBatch batch = new VectorUnloader(rows, true, codec, true).getRecordBatch()) {
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(bytes)), batch);
            return MessageSerializer.deserializeRecordBatch(
                    new ReadChannel(Channels.newChannel(new ByteArrayInputStream(bytes.toByteArray()))), allocator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private VectorSchemaRoot rows() {
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator);
        BigIntVector id = (BigIntVector) root.getVector("id");
        VarCharVector kind = (VarCharVector) root.getVector("kind");
        id.allocateNew(ROWS);
        kind.allocateNew(ROWS);
        for (int i = 0; i < ROWS; i++) {
            id.set(i, i);
            kind.setSafe(i, ("kind-" + i % 3).getBytes(StandardCharsets.UTF_8));
        }
        root.setRowCount(ROWS);
        return root;
    }
}
