package dev.riffle.core.log;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.compression.AbstractCompressionCodec;
import org.apache.arrow.vector.compression.CompressionCodec;
import org.apache.arrow.vector.compression.CompressionUtil;
import org.apache.arrow.vector.compression.NoCompressionCodec;

/**
 * The Arrow IPC buffer codecs Fluss tables use ({@code table.log.arrow.compression.type}: ZSTD by
 * default, LZ4_FRAME, or NONE), for Riffle's unshaded Arrow.
 *
 * <p>Arrow's own codecs live in {@code arrow-compression}, which is not part of Riffle's platform;
 * the zstd-jni and lz4-java libraries they would wrap are already on the classpath, unrelocated,
 * inside {@code fluss-client}, so these codecs use those.
 */
public final class FlussCompression implements CompressionCodec.Factory {
    public static final FlussCompression INSTANCE = new FlussCompression();

    private static final int DEFAULT_ZSTD_LEVEL = 3;

    private FlussCompression() {}

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType codecType) {
        return createCodec(codecType, DEFAULT_ZSTD_LEVEL);
    }

    @Override
    public CompressionCodec createCodec(CompressionUtil.CodecType codecType, int level) {
        switch (codecType) {
            case NO_COMPRESSION:
                return NoCompressionCodec.INSTANCE;
            case ZSTD:
                return new ZstdCodec(level);
            case LZ4_FRAME:
                return new Lz4FrameCodec();
            default:
                throw new IllegalArgumentException("Unsupported Arrow compression codec " + codecType);
        }
    }

    private static final class ZstdCodec extends AbstractCompressionCodec {
        private final int level;

        ZstdCodec(int level) {
            this.level = level;
        }

        @Override
        protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
            int length = Math.toIntExact(uncompressed.writerIndex());
            int bound = Math.toIntExact(Zstd.compressBound(length));
            ArrowBuf compressed = allocator.buffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + bound);
            // Through direct ByteBuffers, as Fluss's own codec compresses: Fluss avoids zstd-jni's
            // compressUnsafe, having seen it corrupt output now and then.
            long size = Zstd.compressDirectByteBuffer(compressed.nioBuffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH,
                    bound), 0, bound, uncompressed.nioBuffer(0, length), 0, length, level);
            if (Zstd.isError(size)) {
                compressed.close();
                throw new IllegalStateException("ZSTD compression failed: " + Zstd.getErrorName(size));
            }
            compressed.writerIndex(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + size);
            return compressed;
        }

        @Override
        protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
            long length = readUncompressedLength(compressed);
            ArrowBuf uncompressed = allocator.buffer(length);
            long size = Zstd.decompressUnsafe(uncompressed.memoryAddress(), length,
                    compressed.memoryAddress() + CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH,
                    compressed.writerIndex() - CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH);
            if (Zstd.isError(size) || size != length) {
                uncompressed.close();
                throw new CorruptLogException("ZSTD buffer did not decompress to its declared " + length + " bytes"
                        + (Zstd.isError(size) ? ": " + Zstd.getErrorName(size) : " (got " + size + ")"));
            }
            uncompressed.writerIndex(length);
            return uncompressed;
        }

        @Override
        public CompressionUtil.CodecType getCodecType() {
            return CompressionUtil.CodecType.ZSTD;
        }
    }

    private static final class Lz4FrameCodec extends AbstractCompressionCodec {
        @Override
        protected ArrowBuf doCompress(BufferAllocator allocator, ArrowBuf uncompressed) {
            byte[] input = new byte[Math.toIntExact(uncompressed.writerIndex())];
            uncompressed.getBytes(0, input);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(input.length / 2 + 64);
            try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(bytes)) {
                out.write(input);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            byte[] output = bytes.toByteArray();
            ArrowBuf compressed = allocator.buffer(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + output.length);
            compressed.setBytes(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH, output);
            compressed.writerIndex(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH + output.length);
            return compressed;
        }

        @Override
        protected ArrowBuf doDecompress(BufferAllocator allocator, ArrowBuf compressed) {
            long length = readUncompressedLength(compressed);
            byte[] input = new byte[Math.toIntExact(compressed.writerIndex() - CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH)];
            compressed.getBytes(CompressionUtil.SIZE_OF_UNCOMPRESSED_LENGTH, input);
            byte[] output = new byte[Math.toIntExact(length)];
            try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(input))) {
                int read = in.readNBytes(output, 0, output.length);
                if (read != output.length) {
                    throw new CorruptLogException("LZ4 buffer decompressed to " + read + " bytes, expected " + length);
                }
            } catch (IOException e) {
                throw new CorruptLogException("LZ4 buffer could not be decompressed: " + e.getMessage());
            }
            ArrowBuf uncompressed = allocator.buffer(length);
            uncompressed.setBytes(0, output);
            uncompressed.writerIndex(length);
            return uncompressed;
        }

        @Override
        public CompressionUtil.CodecType getCodecType() {
            return CompressionUtil.CodecType.LZ4_FRAME;
        }
    }
}
