package dev.riffle.gateway.http;

import static java.util.Objects.requireNonNull;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.HttpChannel;
import org.eclipse.jetty.server.HttpConnection;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * Tells, while a handler computes its answer (a long SQL statement), whether the client has closed
 * its connection: Jetty reads nothing from a connection while its request is handled, so a client
 * that gives up is otherwise noticed only when the answer is written. The probe asks Jetty's
 * selector to say when the connection turns readable; then it counts the bytes waiting without
 * reading them: some are the client's next request, left for Jetty; none twice in a row means the
 * client closed (or reset) the connection. Once is not enough: a soak saw a statement of a client
 * that was still waiting stopped as "client went away" after 202 ms (one readiness with nothing to
 * read), while a closed connection stays readable, so asking again answers at once. The probe must
 * be closed before the answer is written, on the handler's thread, which gives the connection's
 * read interest back to Jetty.
 *
 * <p>Plain HTTP/1.1 over TCP only (what the gateway serves); on any other connection the probe
 * never reports the client gone.
 *
 * <pre>{@code
 * try (ClientGoneProbe probe = ClientGoneProbe.start(ctx.req())) {
 *     request.watchClient(probe::gone);
 *     ... compute the first batch ...
 * }
 * ... write the answer ...
 * }</pre>
 */
public final class ClientGoneProbe implements Callback, AutoCloseable {
    private final Optional<SocketChannelEndPoint> endPoint;
    private final AtomicBoolean gone = new AtomicBoolean();
    private final AtomicBoolean done = new AtomicBoolean();
    /** Whether the last readiness found nothing to read (the connection is asked again to be sure). */
    private volatile boolean emptyOnce;

    private ClientGoneProbe(Optional<SocketChannelEndPoint> endPoint) {
        this.endPoint = endPoint;
    }

    /**
     * Starts watching the connection of {@code request}, whose body must be read whole already
     * (the handler's own reads would otherwise compete with the probe's read interest).
     */
    public static ClientGoneProbe start(HttpServletRequest request) {
        requireNonNull(request, "request is null");
        Request base = Request.getBaseRequest(request);
        if (base == null) {
            return new ClientGoneProbe(Optional.empty());
        }
        HttpChannel channel = base.getHttpChannel();
        EndPoint endPoint = channel.getEndPoint();
        if (!(channel.getConnection() instanceof HttpConnection) || !(endPoint instanceof SocketChannelEndPoint plain)) {
            return new ClientGoneProbe(Optional.empty());
        }
        ClientGoneProbe probe = new ClientGoneProbe(Optional.of(plain));
        if (!plain.tryFillInterested(probe)) {
            probe.done.set(true); // someone reads the connection already: nothing to watch
        }
        return probe;
    }

    /** Whether the client closed its connection (false once the probe is closed). */
    public boolean gone() {
        return gone.get();
    }

    /** The connection turned readable (on the selector thread: no blocking here). */
    @Override
    public void succeeded() {
        if (done.get()) {
            return;
        }
        try {
            SocketChannel channel = endPoint.orElseThrow().getChannel();
            if (channel.socket().getInputStream().available() > 0) {
                done.set(true); // the client's next request: Jetty reads it after this answer
                return;
            }
            if (!emptyOnce) {
                emptyOnce = true;
                if (!endPoint.get().tryFillInterested(this)) {
                    done.set(true); // someone else reads the connection now: nothing to watch
                }
                return; // a closed connection is readable again at once; a live one is not
            }
        } catch (IOException e) {
            // a reset connection is gone too
        }
        if (done.compareAndSet(false, true)) {
            gone.set(true);
        }
    }

    @Override
    public void failed(Throwable failure) {
        if (done.get()) {
            return;
        }
        // The idle timeout fails a pending read interest; a handler still computing is not idle.
        if (failure instanceof TimeoutException && endPoint.orElseThrow().isOpen()
                && endPoint.get().tryFillInterested(this)) {
            return;
        }
        if (done.compareAndSet(false, true)) {
            gone.set(true);
        }
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    /** Gives the connection's read interest back to Jetty; call it before writing the answer. */
    @Override
    public void close() {
        if (done.compareAndSet(false, true)) {
            endPoint.ifPresent(e -> e.getFillInterest().onFail(new CancellationException("the answer is written")));
        }
    }
}
