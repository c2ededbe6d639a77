package dev.riffle.pgwire.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.util.Optional;

/**
 * Writes {@link BackendMessage}s as protocol v3 bytes: {@code byte type, int32 length, body}
 * (the length counts itself, not the type), except the one-byte answers to an encryption request.
 *
 * <pre>{@code
 * pipeline.addLast(new FrontendDecoder(64 << 20), new BackendEncoder(), handler);
 * }</pre>
 */
@ChannelHandler.Sharable
public final class BackendEncoder extends MessageToByteEncoder<BackendMessage> {

    @Override
    protected void encode(ChannelHandlerContext ctx, BackendMessage message, ByteBuf out) {
        write(message, out);
    }

    /** Appends {@code message}'s bytes to {@code out}. */
    public static void write(BackendMessage message, ByteBuf out) {
        if (message instanceof BackendMessage.EncryptionRefused) {
            out.writeByte('N');
            return;
        }
        if (message instanceof BackendMessage.EncryptionAccepted) {
            out.writeByte('S');
            return;
        }
        int start = out.writerIndex();
        out.writeByte(type(message));
        out.writeInt(0); // the length, set below
        body(message, out);
        out.setInt(start + 1, out.writerIndex() - start - 1);
    }

    private static char type(BackendMessage message) {
        if (message instanceof BackendMessage.DataRow) {
            return 'D'; // first: a result is mostly DataRows
        } else if (message instanceof BackendMessage.AuthenticationOk
                || message instanceof BackendMessage.AuthenticationCleartextPassword
                || message instanceof BackendMessage.AuthenticationSasl
                || message instanceof BackendMessage.AuthenticationSaslContinue
                || message instanceof BackendMessage.AuthenticationSaslFinal) {
            return 'R';
        } else if (message instanceof BackendMessage.ParameterStatus) {
            return 'S';
        } else if (message instanceof BackendMessage.BackendKeyData) {
            return 'K';
        } else if (message instanceof BackendMessage.ReadyForQuery) {
            return 'Z';
        } else if (message instanceof BackendMessage.RowDescription) {
            return 'T';
        } else if (message instanceof BackendMessage.CommandComplete) {
            return 'C';
        } else if (message instanceof BackendMessage.EmptyQueryResponse) {
            return 'I';
        } else if (message instanceof BackendMessage.ErrorResponse) {
            return 'E';
        } else if (message instanceof BackendMessage.NoticeResponse) {
            return 'N';
        } else if (message instanceof BackendMessage.ParseComplete) {
            return '1';
        } else if (message instanceof BackendMessage.BindComplete) {
            return '2';
        } else if (message instanceof BackendMessage.CloseComplete) {
            return '3';
        } else if (message instanceof BackendMessage.NoData) {
            return 'n';
        } else if (message instanceof BackendMessage.ParameterDescription) {
            return 't';
        } else if (message instanceof BackendMessage.PortalSuspended) {
            return 's';
        } else if (message instanceof BackendMessage.CopyOutResponse) {
            return 'H';
        } else if (message instanceof BackendMessage.CopyInResponse) {
            return 'G';
        } else if (message instanceof BackendMessage.CopyData) {
            return 'd';
        } else if (message instanceof BackendMessage.CopyDone) {
            return 'c';
        }
        throw new IllegalArgumentException("No encoding for " + message);
    }

    private static void body(BackendMessage message, ByteBuf out) {
        if (message instanceof BackendMessage.DataRow row) { // first: a result is mostly DataRows
            out.writeShort(row.cells().size());
            for (Optional<byte[]> cell : row.cells()) {
                if (cell.isEmpty()) {
                    out.writeInt(-1);
                } else {
                    out.writeInt(cell.get().length);
                    out.writeBytes(cell.get());
                }
            }
        } else if (message instanceof BackendMessage.AuthenticationOk) {
            out.writeInt(0);
        } else if (message instanceof BackendMessage.AuthenticationCleartextPassword) {
            out.writeInt(3);
        } else if (message instanceof BackendMessage.AuthenticationSasl sasl) {
            out.writeInt(10);
            sasl.mechanisms().forEach(mechanism -> string(out, mechanism));
            out.writeByte(0);
        } else if (message instanceof BackendMessage.AuthenticationSaslContinue sasl) {
            out.writeInt(11);
            out.writeBytes(sasl.data());
        } else if (message instanceof BackendMessage.AuthenticationSaslFinal sasl) {
            out.writeInt(12);
            out.writeBytes(sasl.data());
        } else if (message instanceof BackendMessage.ParameterStatus status) {
            string(out, status.name());
            string(out, status.value());
        } else if (message instanceof BackendMessage.BackendKeyData key) {
            out.writeInt(key.processId());
            out.writeInt(key.secretKey());
        } else if (message instanceof BackendMessage.ReadyForQuery ready) {
            out.writeByte(ready.status().code());
        } else if (message instanceof BackendMessage.RowDescription description) {
            out.writeShort(description.columns().size());
            for (BackendMessage.Column column : description.columns()) {
                string(out, column.name());
                out.writeInt(column.tableOid());
                out.writeShort(column.attnum());
                out.writeInt(column.typeOid());
                out.writeShort(column.typeSize());
                out.writeInt(column.typeModifier());
                out.writeShort(column.format());
            }
        } else if (message instanceof BackendMessage.CommandComplete complete) {
            string(out, complete.tag());
        } else if (message instanceof BackendMessage.NoticeResponse notice) {
            field(out, 'S', "NOTICE");
            field(out, 'V', "NOTICE");
            field(out, 'C', "00000");
            field(out, 'M', notice.message());
            out.writeByte(0);
        } else if (message instanceof BackendMessage.ErrorResponse error) {
            field(out, 'S', error.severity());
            field(out, 'V', error.severity());
            field(out, 'C', error.sqlState());
            field(out, 'M', error.message());
            out.writeByte(0);
        } else if (message instanceof BackendMessage.CopyOutResponse copy) {
            copyResponse(out, copy.columns());
        } else if (message instanceof BackendMessage.CopyInResponse copy) {
            copyResponse(out, copy.columns());
        } else if (message instanceof BackendMessage.CopyData data) {
            out.writeBytes(data.data());
        } else if (message instanceof BackendMessage.ParameterDescription parameters) {
            out.writeShort(parameters.typeOids().size());
            for (int oid : parameters.typeOids()) {
                out.writeInt(oid);
            }
        }
        // ParseComplete, BindComplete, CloseComplete, NoData, PortalSuspended, EmptyQueryResponse, CopyDone: no body.
    }

    /** Overall format 0 (text), then each column's format: text. */
    private static void copyResponse(ByteBuf out, int columns) {
        out.writeByte(0);
        out.writeShort(columns);
        for (int c = 0; c < columns; c++) {
            out.writeShort(0);
        }
    }

    private static void field(ByteBuf out, char code, String value) {
        out.writeByte(code);
        string(out, value);
    }

    private static void string(ByteBuf out, String value) {
        out.writeBytes(value.replace('\0', ' ').getBytes(UTF_8));
        out.writeByte(0);
    }
}
