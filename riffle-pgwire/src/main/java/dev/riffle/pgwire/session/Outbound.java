package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.protocol.BackendEncoder;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.types.RowBytes;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import java.util.function.BooleanSupplier;

/**
 * What one connection's worker writes to its client: messages are encoded into a buffer on the
 * worker thread and handed to the channel in chunks, in order. When the client reads slower than
 * rows are produced, the channel turns unwritable and {@link #send} waits (on the worker, never
 * on the event loop) until it drains, so a result is never buffered whole.
 *
 * <pre>{@code
 * out.send(new BackendMessage.CommandComplete("SELECT 1"));
 * out.flush();
 * }</pre>
 */
public final class Outbound implements AutoCloseable {
    /** Bytes encoded before they are handed to the channel. */
    static final int CHUNK_BYTES = 64 * 1024;

    private final Channel channel;
    private final Object writable = new Object();
    private ByteBuf pending;
    private final RowBytes rowBytes = new RowBytes();

    public Outbound(Channel channel) {
        this.channel = requireNonNull(channel, "channel is null");
    }

    /** Thrown when the client went away while the server was writing to it. */
    public static final class ClientGoneException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ClientGoneException() {
            super("The client closed the connection");
        }
    }

    public void send(BackendMessage message) {
        if (pending == null) {
            pending = channel.alloc().buffer(256);
        }
        BackendEncoder.write(message, pending);
        if (pending.readableBytes() >= CHUNK_BYTES) {
            handOver();
        }
    }

    /** A message body written straight into the outbound buffer: a DataRow's or a CopyData's. */
    public interface RowBody {
        /** Writes the body of the message for {@code row}. */
        void write(int row, RowBytes out);
    }

    /**
     * Sends a message of {@code type} whose body {@code body} writes for {@code row}, then waits
     * while the client is behind; {@code cancelled} is asked while waiting, so a cancel or a
     * closed connection ends the wait. Rows are encoded in place, with no message object each.
     */
    public void sendRow(byte type, RowBody body, int row, BooleanSupplier cancelled) {
        if (pending == null) {
            pending = channel.alloc().buffer(CHUNK_BYTES + CHUNK_BYTES / 4);
        }
        rowBytes.clear();
        body.write(row, rowBytes);
        pending.writeByte(type);
        pending.writeInt(rowBytes.length() + 4);
        pending.writeBytes(rowBytes.array(), 0, rowBytes.length());
        if (pending.readableBytes() >= CHUNK_BYTES) {
            handOver();
        }
        awaitWritable(cancelled);
    }

    private void awaitWritable(BooleanSupplier cancelled) {
        if (!channel.isWritable()) {
            channel.flush();
            synchronized (writable) {
                while (channel.isActive() && !channel.isWritable() && !cancelled.getAsBoolean()) {
                    try {
                        writable.wait(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new ClientGoneException();
                    }
                }
            }
        }
        if (!channel.isActive()) {
            throw new ClientGoneException();
        }
    }

    /** Called by the event loop when the channel's writability changes. */
    void writabilityChanged() {
        synchronized (writable) {
            writable.notifyAll();
        }
    }

    /** Hands what is encoded to the channel and flushes it to the socket. */
    public void flush() {
        handOver();
        channel.flush();
    }

    public boolean active() {
        return channel.isActive();
    }

    /** Flushes, then closes the connection. */
    public void closeConnection() {
        handOver();
        channel.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER)
                .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
    }

    /**
     * Sends {@code fatal} and closes the connection, from any thread (another backend ending this
     * one): the message goes to the channel at once, after what was handed to it already.
     */
    void terminate(BackendMessage fatal) {
        channel.writeAndFlush(fatal).addListener(io.netty.channel.ChannelFutureListener.CLOSE);
    }

    private void handOver() {
        if (pending != null && pending.isReadable()) {
            ByteBuf chunk = pending;
            pending = null;
            channel.write(chunk);
        }
    }

    /** Frees what was encoded and not yet handed over (the connection is gone). */
    @Override
    public void close() {
        if (pending != null) {
            pending.release();
            pending = null;
        }
    }
}
