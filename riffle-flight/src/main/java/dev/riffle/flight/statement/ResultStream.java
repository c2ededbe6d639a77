package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Sends a reader's batches to a Flight client as they are read: each batch's buffers are moved
 * into the stream's root (no copy), sent, and released; the next batch is read only once the
 * client can take more (gRPC's readiness), so a slow client holds at most one batch here. A client
 * that cancels or goes away ends the read and frees its memory.
 *
 * <pre>{@code
 * long rows = ResultStream.send(reader, listener, () -> cancelled.get(), Duration.ofMinutes(5));
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
     * @return the rows sent
     */
    public static long send(TableReader reader, ServerStreamListener listener, BooleanSupplier cancelled,
            Duration stall) {
        requireNonNull(reader, "reader is null");
        requireNonNull(listener, "listener is null");
        BackpressureStrategy backpressure = new BackpressureStrategy.CallbackBackpressureStrategy();
        backpressure.register(listener);
        long rows = 0;
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
                    try (ArrowRecordBatch moved = new VectorUnloader(batch.root()).getRecordBatch()) {
                        loader.load(moved);
                    }
                }
                BackpressureStrategy.WaitResult ready = backpressure.waitForListener(stall.toMillis());
                if (ready == BackpressureStrategy.WaitResult.CANCELLED) {
                    throw CallStatus.CANCELLED.withDescription("The client cancelled the stream").toRuntimeException();
                }
                if (ready == BackpressureStrategy.WaitResult.TIMEOUT) {
                    throw CallStatus.TIMED_OUT.withDescription("The client took no data for " + stall.toSeconds()
                            + " s").toRuntimeException();
                }
                rows += root.getRowCount();
                listener.putNext();
                root.clear();
            }
        }
        listener.completed();
        return rows;
    }
}
