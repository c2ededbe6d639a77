package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.protocol.FrontendMessage;
import dev.riffle.pgwire.protocol.ProtocolException;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslContext;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Netty end of one connection: decoded messages are handed to the connection's
 * {@link PgSession} on its serial worker (never handled on the event loop, which statements would
 * block), except an SSL request when TLS is configured, which is taken up here; a protocol
 * violation is answered with a FATAL error and the connection closed; a client
 * that goes away cancels what its session runs and frees its reads.
 *
 * <pre>{@code
 * pipeline.addLast(new FrontendDecoder(max), new BackendEncoder(), new PgConnectionHandler(context, connections));
 * }</pre>
 */
public final class PgConnectionHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LoggerFactory.getLogger(PgConnectionHandler.class);
    /** Messages queued for the worker before the server stops reading from the client. */
    private static final int MAX_QUEUED = 256;

    private final PgServerContext context;
    private final AtomicInteger connections;
    private SerialExecutor worker;
    private Outbound out;
    private PgSession session;
    private boolean counted;
    /** Whether TLS was taken up (a second SSL request, inside TLS, is refused by the session). */
    private boolean encrypted;

    public PgConnectionHandler(PgServerContext context, AtomicInteger connections) {
        this.context = requireNonNull(context, "context is null");
        this.connections = requireNonNull(connections, "connections is null");
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        worker = new SerialExecutor(context.workers());
        out = new Outbound(ctx.channel());
        session = new PgSession(context, out);
        counted = true;
        if (connections.incrementAndGet() > context.maxConnections()) {
            worker.execute(() -> session.fatal(new BackendMessage.ErrorResponse("FATAL", "53300",
                    "sorry, too many clients already (this server takes " + context.maxConnections() + ")")));
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object message) {
        FrontendMessage frontend = (FrontendMessage) message;
        if (frontend instanceof FrontendMessage.SslRequest && context.tls().isPresent() && !encrypted) {
            startTls(ctx, context.tls().get());
            return;
        }
        worker.execute(() -> {
            session.handle(frontend);
            if (!ctx.channel().config().isAutoRead() && worker.queued() < MAX_QUEUED / 2) {
                ctx.channel().config().setAutoRead(true);
            }
        });
        if (worker.queued() >= MAX_QUEUED) {
            ctx.channel().config().setAutoRead(false); // the client sends faster than its statements run
        }
    }

    /**
     * Answers an SSL request with {@code S} and puts TLS in front of the decoder, on the event loop
     * so that no byte is read between the two: the {@code S} leaves in the clear, the client's TLS
     * handshake is the next thing read, and the startup message comes through TLS.
     */
    private void startTls(ChannelHandlerContext ctx, SslContext tls) {
        encrypted = true;
        ctx.writeAndFlush(new BackendMessage.EncryptionAccepted());
        ctx.pipeline().addFirst("tls", tls.newHandler(ctx.alloc()));
        worker.execute(session::encrypted);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (out != null) {
            out.writabilityChanged();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (session != null) {
            session.clientGone();
            out.writabilityChanged();
            worker.execute(session::close);
        }
        if (counted) {
            connections.decrementAndGet();
            counted = false;
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable e = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (e instanceof ProtocolException protocol && session != null) {
            ctx.channel().config().setAutoRead(false);
            worker.execute(() -> session.fatal(new BackendMessage.ErrorResponse("FATAL", protocol.sqlState(),
                    protocol.getMessage())));
            return;
        }
        if (e instanceof IOException) {
            LOG.debug("PostgreSQL connection {} failed: {}", ctx.channel().remoteAddress(), e.getMessage());
        } else {
            LOG.warn("PostgreSQL connection {} failed", ctx.channel().remoteAddress(), e);
        }
        ctx.close();
    }
}
