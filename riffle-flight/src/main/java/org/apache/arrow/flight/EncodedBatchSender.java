package org.apache.arrow.flight;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Sends an Arrow record batch on a DoGet stream as it is, compressed buffers included: how a DoGet
 * forwards a batch as Fluss stored it, without decoding and encoding it again.
 *
 * <p>It lives in Arrow's package because Arrow Java's server listener has no public way to do
 * this: {@code OutboundStreamListener.start} makes its {@code VectorUnloader} without a codec, so
 * every batch it sends leaves uncompressed, and the stream it writes to is package-private. A
 * batch sent here must have its buffers aligned to 8 bytes (the layout Arrow's message framing
 * writes).
 *
 * <pre>{@code
 * listener.start(root);
 * EncodedBatchSender.send(listener, new ArrowRecordBatch(rows, nodes, buffers, compression, true));
 * }</pre>
 */
public final class EncodedBatchSender {
    private EncodedBatchSender() {}

    /** Sends {@code batch} on {@code listener}'s started stream, taking over the batch. */
    public static void send(FlightProducer.ServerStreamListener listener, ArrowRecordBatch batch) {
        requireNonNull(batch, "batch is null");
        if (!(listener instanceof OutboundStreamListenerImpl stream)) {
            batch.close();
            throw new IllegalArgumentException("Not a DoGet stream of Arrow's Flight server: " + listener);
        }
        stream.waitUntilStreamReady();
        // The message takes the batch's buffers over and gRPC has serialized it once onNext returns,
        // as OutboundStreamListenerImpl.putNext relies on.
        ArrowMessage message = new ArrowMessage(batch, null, stream.tryZeroCopy, stream.option);
        try {
            stream.responseObserver.onNext(message);
        } finally {
            try {
                message.close();
            } catch (Exception e) {
                throw new IllegalStateException("Could not free a sent record batch", e);
            }
        }
    }
}
