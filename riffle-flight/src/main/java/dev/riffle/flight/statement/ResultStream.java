package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.StoredBatch;
import dev.riffle.core.reader.TableReader;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.EncodedBatchSender;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.compression.CompressionUtil.CodecType;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Sends a reader's batches to a Flight client as they are read: each batch's buffers are moved
 * into the stream's root (no copy), sent, and released; the next batch is sent only once the
 * client can take more (gRPC's readiness), so a slow client holds back the read. A client
 * that cancels or goes away ends the read and frees its memory.
 *
 * <p>A batch that is still as Fluss stored it, in the schema the stream announced, is sent as it
 * is, without decoding it, when its buffers are uncompressed or compressed with a codec the
 * client accepts ({@link AcceptedCompression}): a stream may mix such batches with decoded ones.
 *
 * <pre>{@code
 * Sent sent = ResultStream.send(reader, listener, () -> cancelled.get(), Duration.ofMinutes(5), Set.of());
 * }</pre>
 */
public final class ResultStream {
    private ResultStream() {}

    /**
     * Streams every remaining batch of {@code reader} (which the caller closes) and completes the
     * listener; on failure it reports nothing itself: the caller maps the exception.
     *
     * @param cancelled whether the server side cancelled the query (CancelFlightInfo)
     * @param stall how long a client may take no data before the stream fails
     * @param accepted the codecs the client decompresses
     * @return what was sent
     */
    public static Sent send(TableReader reader, ServerStreamListener listener, BooleanSupplier cancelled,
            Duration stall, Set<CodecType> accepted) {
        requireNonNull(reader, "reader is null");
        requireNonNull(listener, "listener is null");
        requireNonNull(accepted, "accepted is null");
        long rows = 0;
        long storedBatches = 0;
        try (VectorSchemaRoot root = VectorSchemaRoot.create(reader.schema(), reader.allocator())) {
            listener.start(root);
            VectorLoader loader = new VectorLoader(root);
            while (true) {
                if (listener.isCancelled() || cancelled.getAsBoolean()) {
                    throw CallStatus.CANCELLED.withDescription("The query was cancelled").toRuntimeException();
                }
                if (!reader.hasNext()) {
                    break;
                }
                try (ReadBatch batch = reader.next()) {
                    Optional<StoredBatch> stored = batch.stored()
                            .filter(s -> sendable(s, root.getSchema(), accepted));
                    if (stored.isPresent()) {
                        ArrowRecordBatch held = stored.get().batch();
                        awaitReady(listener, cancelled, stall);
                        // A second reference to the stored buffers, which the sent message releases;
                        // aligned as Arrow's message framing pads them.
                        EncodedBatchSender.send(listener, new ArrowRecordBatch(held.getLength(), held.getNodes(),
                                held.getBuffers(), held.getBodyCompression(), true));
                        rows += held.getLength();
                        storedBatches++;
                        continue;
                    }
                    try (ArrowRecordBatch moved = new VectorUnloader(batch.root()).getRecordBatch()) {
                        loader.load(moved);
                    }
                }
                awaitReady(listener, cancelled, stall);
                rows += root.getRowCount();
                listener.putNext();
                root.clear();
            }
        }
        listener.completed();
        return new Sent(rows, storedBatches);
    }

    /**
     * What a stream sent.
     *
     * @param rows the rows
     * @param storedBatches the batches sent as Fluss stored them, not decoded
     */
    public record Sent(long rows, long storedBatches) {}

    private static boolean sendable(StoredBatch stored, Schema announced,
            Set<CodecType> accepted) {
        CodecType codec = stored.codec();
        return stored.schema().equals(announced) && (codec == CodecType.NO_COMPRESSION || accepted.contains(codec));
    }

    /**
     * Waits until gRPC can take the next message without buffering it. Readiness is polled, not
     * awaited through an on-ready callback: gRPC delivers that callback on the call's executor, the
     * one this handler occupies, so it would not arrive until the stream ended.
     */
    private static void awaitReady(ServerStreamListener listener, BooleanSupplier cancelled, Duration stall) {
        long deadline = System.nanoTime() + stall.toNanos();
        long pause = 20_000;
        while (!listener.isReady()) {
            if (listener.isCancelled() || cancelled.getAsBoolean()) {
                throw CallStatus.CANCELLED.withDescription("The query was cancelled").toRuntimeException();
            }
            if (System.nanoTime() > deadline) {
                throw CallStatus.TIMED_OUT.withDescription("The client took no data for " + stall.toSeconds() + " s")
                        .toRuntimeException();
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, 200_000); // 20 µs, doubling up to 0.2 ms
        }
    }
}
