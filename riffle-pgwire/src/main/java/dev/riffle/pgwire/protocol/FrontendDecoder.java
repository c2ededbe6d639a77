package dev.riffle.pgwire.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Cuts a client's bytes into {@link FrontendMessage}s. Until the startup message, packets are
 * untyped ({@code int32 length, int32 code, ...}); after it, each message is
 * {@code byte type, int32 length, body}. Every length is checked before its body is awaited: a
 * length below the protocol's minimum or above the limit is a {@link ProtocolException}, raised
 * before anything is allocated for it.
 *
 * <pre>{@code
 * pipeline.addLast(new FrontendDecoder(64 << 20), new BackendEncoder(), handler);
 * }</pre>
 */
public final class FrontendDecoder extends ByteToMessageDecoder {
    /** The largest startup-phase packet (PostgreSQL's own limit, MAX_STARTUP_PACKET_LENGTH). */
    public static final int MAX_STARTUP_LENGTH = 10_000;
    /** The protocol version 3.0 as the startup message carries it. */
    public static final int PROTOCOL_3_0 = 196_608;
    /** The longest password or SASL message, in bytes (PostgreSQL's PG_MAX_AUTH_TOKEN_LENGTH). */
    public static final int MAX_AUTHENTICATION_LENGTH = 65_535;
    static final int SSL_REQUEST_CODE = 80_877_103;
    static final int GSSENC_REQUEST_CODE = 80_877_104;
    static final int CANCEL_REQUEST_CODE = 80_877_102;

    private final int maxMessageLength;
    private boolean started;

    /** @param maxMessageLength the largest typed message accepted, in bytes (its length field included) */
    public FrontendDecoder(int maxMessageLength) {
        if (maxMessageLength < 1024) {
            throw new IllegalArgumentException("maxMessageLength must be at least 1024, got " + maxMessageLength);
        }
        this.maxMessageLength = maxMessageLength;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (true) {
            Optional<FrontendMessage> message = started ? typed(in) : startup(in);
            if (message.isEmpty()) {
                return;
            }
            out.add(message.get());
            if (message.get() instanceof FrontendMessage.Startup) {
                started = true;
            }
        }
    }

    private Optional<FrontendMessage> startup(ByteBuf in) {
        if (in.readableBytes() < 4) {
            return Optional.empty();
        }
        int length = in.getInt(in.readerIndex());
        if (length < 8 || length > MAX_STARTUP_LENGTH) {
            throw new ProtocolException("08P01", "Invalid startup packet length " + length + " (8.." + MAX_STARTUP_LENGTH
                    + " bytes)");
        }
        if (in.readableBytes() < length) {
            return Optional.empty();
        }
        in.skipBytes(4);
        ByteBuf body = in.readSlice(length - 4);
        int code = body.readInt();
        switch (code) {
            case SSL_REQUEST_CODE:
                if (in.isReadable()) {
                    // A client waits for the answer before it says more; bytes already here would be read
                    // as if they had come through TLS (PostgreSQL refuses them too, CVE-2021-23214).
                    throw new ProtocolException("08P01", "received unencrypted data after SSL request");
                }
                return Optional.of(new FrontendMessage.SslRequest());
            case GSSENC_REQUEST_CODE:
                return Optional.of(new FrontendMessage.GssEncRequest());
            case CANCEL_REQUEST_CODE:
                if (body.readableBytes() < 8) {
                    throw new ProtocolException("08P01", "A cancel request carries a process id and a secret key");
                }
                return Optional.of(new FrontendMessage.CancelRequest(body.readInt(), body.readInt()));
            default:
                if (code >> 16 != 3) {
                    throw new ProtocolException("0A000", "Unsupported frontend protocol " + (code >> 16) + "."
                            + (code & 0xffff) + ": this server speaks protocol 3.0");
                }
                Map<String, String> parameters = new LinkedHashMap<>();
                while (body.isReadable()) {
                    String name = string(body, "a startup parameter name");
                    if (name.isEmpty()) {
                        break;
                    }
                    parameters.put(name, string(body, "the value of startup parameter " + name));
                }
                return Optional.of(new FrontendMessage.Startup(code, parameters));
        }
    }

    private Optional<FrontendMessage> typed(ByteBuf in) {
        if (in.readableBytes() < 5) {
            return Optional.empty();
        }
        char type = (char) in.getByte(in.readerIndex());
        int length = in.getInt(in.readerIndex() + 1);
        if (length < 4) {
            throw new ProtocolException("08P01", "Invalid length " + length + " of message '" + type + "'");
        }
        if (type == 'p' && length > MAX_AUTHENTICATION_LENGTH) {
            // Sent before the client is authenticated: bounded as PostgreSQL bounds it (PG_MAX_AUTH_TOKEN_LENGTH).
            throw new ProtocolException("08P01", "An authentication message is " + length
                    + " bytes long; this server accepts at most " + MAX_AUTHENTICATION_LENGTH);
        }
        if (length > maxMessageLength) {
            throw new ProtocolException("54000", "Message '" + type + "' is " + length
                    + " bytes long; this server accepts messages of at most " + maxMessageLength + " bytes");
        }
        if (in.readableBytes() < length + 1) {
            return Optional.empty();
        }
        in.skipBytes(5);
        ByteBuf body = in.readSlice(length - 4);
        FrontendMessage message = switch (type) {
            case 'Q' -> new FrontendMessage.Query(string(body, "the query"));
            case 'P' -> parse(body);
            case 'B' -> bind(body);
            case 'D' -> new FrontendMessage.Describe(kind(body, "Describe"), string(body, "the name to describe"));
            case 'E' -> new FrontendMessage.Execute(string(body, "the portal name"), int32(body, "the row limit"));
            case 'C' -> new FrontendMessage.Close(kind(body, "Close"), string(body, "the name to close"));
            case 'S' -> new FrontendMessage.Sync();
            case 'H' -> new FrontendMessage.Flush();
            case 'X' -> new FrontendMessage.Terminate();
            case 'p' -> {
                byte[] data = new byte[body.readableBytes()];
                body.readBytes(data);
                yield new FrontendMessage.AuthenticationResponse(data);
            }
            case 'd' -> {
                byte[] data = new byte[body.readableBytes()];
                body.readBytes(data);
                yield new FrontendMessage.CopyData(data);
            }
            case 'c' -> new FrontendMessage.CopyDone();
            case 'f' -> new FrontendMessage.CopyFail(string(body, "the COPY failure message"));
            default -> new FrontendMessage.Unsupported(type);
        };
        return Optional.of(message);
    }

    private static FrontendMessage parse(ByteBuf body) {
        String name = string(body, "the statement name");
        String sql = string(body, "the query");
        int count = count(body, 4, "parameter types");
        List<Integer> types = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            types.add(body.readInt());
        }
        return new FrontendMessage.Parse(name, sql, types);
    }

    private static FrontendMessage bind(ByteBuf body) {
        String portal = string(body, "the portal name");
        String statement = string(body, "the statement name");
        List<Short> parameterFormats = formats(body, "parameter format codes");
        int count = count(body, 4, "parameter values");
        List<Optional<byte[]>> values = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = int32(body, "the length of parameter $" + (i + 1));
            if (length == -1) {
                values.add(Optional.empty());
                continue;
            }
            if (length < 0 || length > body.readableBytes()) {
                throw new ProtocolException("08P01", "Parameter $" + (i + 1) + " claims " + length
                        + " bytes; the message holds " + body.readableBytes());
            }
            byte[] value = new byte[length];
            body.readBytes(value);
            values.add(Optional.of(value));
        }
        List<Short> resultFormats = formats(body, "result format codes");
        return new FrontendMessage.Bind(portal, statement, parameterFormats, values, resultFormats);
    }

    private static List<Short> formats(ByteBuf body, String what) {
        int count = count(body, 2, what);
        List<Short> formats = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            short format = body.readShort();
            if (format != 0 && format != 1) {
                throw new ProtocolException("08P01", "Format code " + format + " in " + what + " (0 text, 1 binary)");
            }
            formats.add(format);
        }
        return formats;
    }

    /** An int16 count of items of {@code size} bytes each, checked against what the message holds. */
    private static int count(ByteBuf body, int size, String what) {
        if (body.readableBytes() < 2) {
            throw new ProtocolException("08P01", "The message ends before the count of " + what);
        }
        int count = body.readUnsignedShort();
        if ((long) count * size > body.readableBytes()) {
            throw new ProtocolException("08P01", "The message claims " + count + " " + what + " but holds only "
                    + body.readableBytes() + " bytes");
        }
        return count;
    }

    private static int int32(ByteBuf body, String what) {
        if (body.readableBytes() < 4) {
            throw new ProtocolException("08P01", "The message ends before " + what);
        }
        return body.readInt();
    }

    private static char kind(ByteBuf body, String message) {
        if (!body.isReadable()) {
            throw new ProtocolException("08P01", message + " names neither S (statement) nor P (portal)");
        }
        char kind = (char) body.readByte();
        if (kind != 'S' && kind != 'P') {
            throw new ProtocolException("08P01", message + " takes S (statement) or P (portal), got '" + kind + "'");
        }
        return kind;
    }

    /** A NUL-terminated UTF-8 string. */
    private static String string(ByteBuf body, String what) {
        int end = body.indexOf(body.readerIndex(), body.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new ProtocolException("08P01", "The message ends inside " + what + " (no terminating NUL)");
        }
        String value = body.toString(body.readerIndex(), end - body.readerIndex(), UTF_8);
        body.readerIndex(end + 1);
        return value;
    }
}
