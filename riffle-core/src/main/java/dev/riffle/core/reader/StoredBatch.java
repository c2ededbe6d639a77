package dev.riffle.core.reader;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A batch's rows as Fluss stored them: one Arrow IPC record batch, its buffers still compressed
 * with the table's codec ({@link #codec()}), and the schema they follow. A server can send it on
 * as it is, to a client that decompresses, instead of decoding the rows and encoding them again.
 *
 * <pre>{@code
 * batch.stored().filter(s -> s.schema().equals(announced)).ifPresent(s -> send(s.batch()));
 * }</pre>
 *
 * @param schema the schema of the rows, field for field what decoding the batch gives
 * @param batch the record batch; it belongs to the {@link ReadBatch} it came from, valid until
 *     that batch is closed or decoded ({@link ReadBatch#root()})
 */
public record StoredBatch(Schema schema, ArrowRecordBatch batch) {
    public StoredBatch {
        requireNonNull(schema, "schema is null");
        requireNonNull(batch, "batch is null");
    }

    /**
     * The bytes of the buffers once decoded, read from the uncompressed length Arrow writes before
     * each compressed buffer (-1 for a buffer left uncompressed), without decompressing anything.
     */
    public long decodedBytes() {
        boolean compressed = codec() != CompressionUtil.CodecType.NO_COMPRESSION;
        long bytes = 0;
        for (ArrowBuf buffer : batch.getBuffers()) {
            long stored = buffer.writerIndex();
            if (!compressed || stored < CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH) {
                bytes += stored;
                continue;
            }
            long length = buffer.getLong(0);
            bytes += length == CompressionUtil.NO_COMPRESSION_LENGTH
                    ? stored - CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH : length;
        }
        return bytes;
    }

    /** The codec of the buffers ({@code NO_COMPRESSION} for a table whose log is not compressed). */
    public CompressionUtil.CodecType codec() {
        return CompressionUtil.CodecType.fromCompressionType(batch.getBodyCompression().getCodec());
    }
}
