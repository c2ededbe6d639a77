package dev.riffle.core.log;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.types.ArrowBufferBytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.zip.CRC32C;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.WriteChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.metadata.TableInfo;

/**
 * Encodes Arrow vectors as one Fluss log record batch, as Fluss's own writer lays it out for an
 * append-only batch of an ARROW log table: the magic-0 header ({@link LogBatchLayout#V0}, the one
 * layout Fluss 0.9 and 1.0 servers read alike), then one Arrow IPC record batch message (no schema
 * message) whose buffers are compressed with the table's codec, the CRC-32C over everything from
 * the schema id on. Base offset and commit timestamp are left 0: the leader sets them on append.
 *
 * <p>The vectors must be the table's columns in order, each in the Arrow type Fluss writes it as
 * ({@code ArrowTypeMapping}; {@code ArrowWriteLayout} says when a caller's batches are): the
 * server stores the bytes without decoding them, so a mismatch would surface only in later reads.
 *
 * <pre>{@code
 * LogBatchEncoder encoder = LogBatchEncoder.forTable(tableInfo);
 * byte[] batch = encoder.encode(root, tableInfo.getSchemaId(), writerId, sequence);
 * }</pre>
 */
public final class LogBatchEncoder {
    private static final LogBatchLayout LAYOUT = LogBatchLayout.V0;
    private static final byte APPEND_ONLY = 0x01;
    private static final long NO_WRITER_ID = -1;

    private final CompressionCodec codec;

    public LogBatchEncoder(CompressionCodec codec) {
        this.codec = requireNonNull(codec, "codec is null");
    }

    /** An encoder with {@code table}'s codec ({@code table.log.arrow.compression.type} and its level). */
    public static LogBatchEncoder forTable(TableInfo table) {
        return new LogBatchEncoder(codecOf(table.getTableConfig().getArrowCompressionInfo()));
    }

    /** Riffle's codec for a Fluss table's compression setting. */
    static CompressionCodec codecOf(ArrowCompressionInfo compression) {
        switch (compression.getCompressionType()) {
            case NONE:
                return FlussCompression.INSTANCE.createCodec(CompressionUtil.CodecType.NO_COMPRESSION);
            case ZSTD:
                return FlussCompression.INSTANCE.createCodec(CompressionUtil.CodecType.ZSTD,
                        compression.getCompressionLevel());
            case LZ4_FRAME:
                return FlussCompression.INSTANCE.createCodec(CompressionUtil.CodecType.LZ4_FRAME);
            default:
                throw new IllegalArgumentException("Unknown Arrow compression " + compression);
        }
    }

    /**
     * {@code root}'s rows as one batch of schema {@code schemaId}, written by {@code writerId} as
     * its {@code batchSequence}-th batch of the bucket (-1 and -1: not idempotent). The compressed
     * buffers are allocated from {@code root}'s allocator and freed before this returns.
     */
    public byte[] encode(VectorSchemaRoot root, int schemaId, long writerId, int batchSequence) {
        requireNonNull(root, "root is null");
        if (schemaId < 0 || schemaId > Short.MAX_VALUE) {
            throw new IllegalArgumentException("A schema id is a non-negative short, got " + schemaId);
        }
        if ((writerId == NO_WRITER_ID) != (batchSequence == -1) || batchSequence < -1) {
            throw new IllegalArgumentException("A batch sequence (" + batchSequence + ") goes with a writer id ("
                    + writerId + "): both -1, or a writer's sequence from 0");
        }
        int rows = root.getRowCount();
        long data = ArrowBufferBytes.of(root);
        // Room for the header, the IPC metadata and the buffers as they are (compression makes them smaller).
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8,
                LAYOUT.headerSize() + 1_024L + 16L * root.getFieldVectors().size() + data));
        out.writeBytes(new byte[LAYOUT.headerSize()]);
        try (ArrowRecordBatch batch = new VectorUnloader(root, true, codec, true).getRecordBatch()) {
            MessageSerializer.serialize(new WriteChannel(Channels.newChannel(out)), batch);
        } catch (IOException e) {
            throw new UncheckedIOException("Writing to memory failed", e);
        }
        byte[] bytes = out.toByteArray();
        ByteBuffer header = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(LogBatchLayout.BASE_OFFSET_OFFSET, 0L);
        header.putInt(LogBatchLayout.LENGTH_OFFSET, bytes.length - LogBatchLayout.LOG_OVERHEAD);
        header.put(LogBatchLayout.MAGIC_OFFSET, LAYOUT.magic());
        header.putLong(LogBatchLayout.COMMIT_TIMESTAMP_OFFSET, 0L);
        header.putShort(LAYOUT.schemaIdOffset(), (short) schemaId);
        header.put(LAYOUT.attributesOffset(), APPEND_ONLY);
        header.putInt(LAYOUT.lastOffsetDeltaOffset(), rows == 0 ? 0 : rows - 1);
        header.putLong(LAYOUT.writerIdOffset(), writerId);
        header.putInt(LAYOUT.batchSequenceOffset(), batchSequence);
        header.putInt(LAYOUT.recordCountOffset(), rows);
        CRC32C crc = new CRC32C();
        crc.update(bytes, LAYOUT.schemaIdOffset(), bytes.length - LAYOUT.schemaIdOffset());
        header.putInt(LAYOUT.crcOffset(), (int) crc.getValue());
        return bytes;
    }
}
