package dev.riffle.pgwire.protocol;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Frontend bytes as a client writes them, decoded; backend messages encoded, read back as a client reads them. */
class CodecTest {

    private static EmbeddedChannel channel() {
        return new EmbeddedChannel(new FrontendDecoder(4096));
    }

    private static ByteBuf startup(Map<String, String> parameters) {
        ByteBuf body = Unpooled.buffer();
        body.writeInt(FrontendDecoder.PROTOCOL_3_0);
        parameters.forEach((k, v) -> {
            cstring(body, k);
            cstring(body, v);
        });
        body.writeByte(0);
        ByteBuf packet = Unpooled.buffer();
        packet.writeInt(body.readableBytes() + 4).writeBytes(body);
        return packet;
    }

    private static ByteBuf typed(char type, ByteBuf body) {
        ByteBuf message = Unpooled.buffer();
        message.writeByte(type).writeInt(body.readableBytes() + 4).writeBytes(body);
        return message;
    }

    private static void cstring(ByteBuf out, String value) {
        out.writeBytes(value.getBytes(UTF_8)).writeByte(0);
    }

    @Test
    void startupPhaseThenTypedMessages() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(Unpooled.buffer().writeInt(8).writeInt(FrontendDecoder.SSL_REQUEST_CODE));
        assertThat((Object) channel.readInbound()).isEqualTo(new FrontendMessage.SslRequest());
        channel.writeInbound(startup(Map.of("user", "ann", "database", "riffle")));
        FrontendMessage.Startup startup = channel.readInbound();
        assertThat(startup.parameters()).containsEntry("user", "ann").containsEntry("database", "riffle");

        ByteBuf query = Unpooled.buffer();
        cstring(query, "SELECT 'é'");
        ByteBuf both = Unpooled.buffer().writeBytes(typed('Q', query)).writeBytes(typed('S', Unpooled.buffer()));
        // Split across two reads in the middle of the first message: the decoder waits for the rest.
        channel.writeInbound(both.readRetainedSlice(7));
        assertThat((Object) channel.readInbound()).isNull();
        channel.writeInbound(both);
        assertThat((Object) channel.readInbound()).isEqualTo(new FrontendMessage.Query("SELECT 'é'"));
        assertThat((Object) channel.readInbound()).isEqualTo(new FrontendMessage.Sync());
    }

    @Test
    void parseBindExecute() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(startup(Map.of("user", "ann")));
        channel.readInbound();
        ByteBuf parse = Unpooled.buffer();
        cstring(parse, "s1");
        cstring(parse, "SELECT $1");
        parse.writeShort(1).writeInt(23);
        ByteBuf bind = Unpooled.buffer();
        cstring(bind, "p1");
        cstring(bind, "s1");
        bind.writeShort(1).writeShort(1); // one format for all: binary
        bind.writeShort(2).writeInt(4).writeInt(42).writeInt(-1);
        bind.writeShort(0);
        ByteBuf execute = Unpooled.buffer();
        cstring(execute, "p1");
        execute.writeInt(100);
        channel.writeInbound(Unpooled.wrappedBuffer(typed('P', parse), typed('B', bind), typed('E', execute)));
        assertThat((Object) channel.readInbound()).isEqualTo(new FrontendMessage.Parse("s1", "SELECT $1", List.of(23)));
        FrontendMessage.Bind decoded = channel.readInbound();
        assertThat(decoded.portal()).isEqualTo("p1");
        assertThat(decoded.parameterFormats()).containsExactly((short) 1);
        assertThat(decoded.parameters()).hasSize(2);
        assertThat(decoded.parameters().get(0)).hasValueSatisfying(v -> assertThat(v).containsExactly(0, 0, 0, 42));
        assertThat(decoded.parameters().get(1)).isEmpty();
        assertThat((Object) channel.readInbound()).isEqualTo(new FrontendMessage.Execute("p1", 100));
    }

    @Test
    void badLengthsAreRefusedBeforeAnythingIsAllocated() {
        EmbeddedChannel oversizedStartup = channel();
        assertThatThrownBy(() -> oversizedStartup.writeInbound(Unpooled.buffer().writeInt(1_000_000).writeInt(0)))
                .isInstanceOf(DecoderException.class).hasCauseInstanceOf(ProtocolException.class)
                .hasMessageContaining("Invalid startup packet length 1000000");

        EmbeddedChannel channel = channel();
        channel.writeInbound(startup(Map.of("user", "ann")));
        channel.readInbound();
        assertThatThrownBy(() -> channel.writeInbound(Unpooled.buffer().writeByte('Q').writeInt(Integer.MAX_VALUE)))
                .hasCauseInstanceOf(ProtocolException.class).hasMessageContaining("at most 4096 bytes");

        EmbeddedChannel negative = channel();
        negative.writeInbound(startup(Map.of("user", "ann")));
        negative.readInbound();
        assertThatThrownBy(() -> negative.writeInbound(Unpooled.buffer().writeByte('Q').writeInt(-5)))
                .hasCauseInstanceOf(ProtocolException.class).hasMessageContaining("Invalid length -5");

        EmbeddedChannel truncated = channel();
        truncated.writeInbound(startup(Map.of("user", "ann")));
        truncated.readInbound();
        ByteBuf bind = Unpooled.buffer();
        cstring(bind, "");
        cstring(bind, "");
        bind.writeShort(0).writeShort(1).writeInt(1000); // claims 1000 bytes, holds none
        assertThatThrownBy(() -> truncated.writeInbound(typed('B', bind)))
                .hasCauseInstanceOf(ProtocolException.class).hasMessageContaining("claims 1000 bytes");

        EmbeddedChannel version2 = channel();
        assertThatThrownBy(() -> version2.writeInbound(Unpooled.buffer().writeInt(8).writeInt(2 << 16)))
                .hasCauseInstanceOf(ProtocolException.class).hasMessageContaining("protocol 2.0");
    }

    @Test
    void backendMessagesAsAClientReadsThem() {
        ByteBuf out = Unpooled.buffer();
        BackendEncoder.write(new BackendMessage.RowDescription(List.of(
                new BackendMessage.Column("id", 16_391, (short) 2, 23, (short) 4, -1, (short) 1))), out);
        BackendEncoder.write(new BackendMessage.DataRow(List.of(Optional.of("7".getBytes(UTF_8)), Optional.empty())), out);
        BackendEncoder.write(new BackendMessage.CommandComplete("SELECT 1"), out);
        BackendEncoder.write(new BackendMessage.ErrorResponse("ERROR", "42P01", "no table"), out);
        BackendEncoder.write(new BackendMessage.ReadyForQuery(BackendMessage.TransactionStatus.IN_TRANSACTION), out);

        assertThat((char) out.readByte()).isEqualTo('T');
        int length = out.readInt();
        ByteBuf row = out.readSlice(length - 4);
        assertThat(row.readShort()).isEqualTo((short) 1);
        assertThat(string(row)).isEqualTo("id");
        assertThat(row.readInt()).isEqualTo(16_391); // the table's OID
        assertThat(row.readShort()).isEqualTo((short) 2); // its attribute number
        assertThat(row.readInt()).isEqualTo(23);
        assertThat(row.readShort()).isEqualTo((short) 4);
        assertThat(row.readInt()).isEqualTo(-1);
        assertThat(row.readShort()).isEqualTo((short) 1);

        assertThat((char) out.readByte()).isEqualTo('D');
        assertThat(out.readInt()).isEqualTo(4 + 2 + 4 + 1 + 4);
        assertThat(out.readShort()).isEqualTo((short) 2);
        assertThat(out.readInt()).isEqualTo(1);
        assertThat((char) out.readByte()).isEqualTo('7');
        assertThat(out.readInt()).isEqualTo(-1);

        assertThat((char) out.readByte()).isEqualTo('C');
        out.readInt();
        assertThat(string(out)).isEqualTo("SELECT 1");

        assertThat((char) out.readByte()).isEqualTo('E');
        out.readInt();
        StringBuilder fields = new StringBuilder();
        for (byte code = out.readByte(); code != 0; code = out.readByte()) {
            fields.append((char) code).append('=').append(string(out)).append(';');
        }
        assertThat(fields.toString()).isEqualTo("S=ERROR;V=ERROR;C=42P01;M=no table;");

        assertThat((char) out.readByte()).isEqualTo('Z');
        assertThat(out.readInt()).isEqualTo(5);
        assertThat((char) out.readByte()).isEqualTo('T');
        assertThat(out.isReadable()).isFalse();
    }

    @Test
    void authenticationResponsesAreReadAsWhatTheServerAskedFor() {
        EmbeddedChannel channel = channel();
        channel.writeInbound(startup(Map.of("user", "ann")));
        channel.readInbound();
        ByteBuf initial = Unpooled.buffer();
        cstring(initial, "SCRAM-SHA-256");
        initial.writeInt(3).writeBytes("n,,".getBytes(UTF_8));
        channel.writeInbound(typed('p', initial));
        FrontendMessage.AuthenticationResponse response = channel.readInbound();
        assertThat(response.toString()).isEqualTo("AuthenticationResponse[21 bytes]");
        FrontendMessage.AuthenticationResponse.SaslInitialResponse sasl = response.saslInitialResponse();
        assertThat(sasl.mechanism()).isEqualTo("SCRAM-SHA-256");
        assertThat(sasl.data()).hasValueSatisfying(data -> assertThat(new String(data, UTF_8)).isEqualTo("n,,"));

        ByteBuf password = Unpooled.buffer();
        cstring(password, "sécret");
        channel.writeInbound(typed('p', password));
        assertThat(((FrontendMessage.AuthenticationResponse) channel.readInbound()).password()).isEqualTo("sécret");

        ByteBuf lying = Unpooled.buffer();
        cstring(lying, "SCRAM-SHA-256");
        lying.writeInt(100).writeBytes("n,,".getBytes(UTF_8));
        channel.writeInbound(typed('p', lying));
        FrontendMessage.AuthenticationResponse claims = channel.readInbound();
        assertThatThrownBy(claims::saslInitialResponse).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("claims 100 bytes of data but holds 3");
        assertThatThrownBy(() -> new FrontendMessage.AuthenticationResponse("no-nul".getBytes(UTF_8)).password())
                .isInstanceOf(ProtocolException.class).hasMessageContaining("no terminating NUL");

        // Authentication messages come before the client is known: at most 64 KiB, whatever the server's limit.
        EmbeddedChannel large = new EmbeddedChannel(new FrontendDecoder(1 << 20));
        large.writeInbound(startup(Map.of("user", "ann")));
        large.readInbound();
        assertThatThrownBy(() -> large.writeInbound(Unpooled.buffer().writeByte('p').writeInt(100_000)))
                .isInstanceOf(DecoderException.class).hasCauseInstanceOf(ProtocolException.class)
                .hasMessageContaining("at most 65535");
    }

    @Test
    void bytesSentWithAnSslRequestAreRefused() {
        // They would be taken as if they had come through TLS (CVE-2021-23214).
        EmbeddedChannel channel = channel();
        ByteBuf request = Unpooled.buffer().writeInt(8).writeInt(FrontendDecoder.SSL_REQUEST_CODE);
        assertThatThrownBy(() -> channel.writeInbound(request.writeBytes(startup(Map.of("user", "ann")))))
                .isInstanceOf(DecoderException.class).hasMessageContaining("received unencrypted data after SSL request");
    }

    @Test
    void saslAndEncryptionAnswers() {
        ByteBuf out = Unpooled.buffer();
        BackendEncoder.write(new BackendMessage.EncryptionAccepted(), out);
        BackendEncoder.write(new BackendMessage.AuthenticationSasl(List.of("SCRAM-SHA-256")), out);
        BackendEncoder.write(new BackendMessage.AuthenticationSaslContinue("r=a,s=b,i=1".getBytes(UTF_8)), out);
        BackendEncoder.write(new BackendMessage.AuthenticationSaslFinal("v=x".getBytes(UTF_8)), out);
        assertThat((char) out.readByte()).isEqualTo('S');
        assertThat((char) out.readByte()).isEqualTo('R');
        assertThat(out.readInt()).isEqualTo(4 + 4 + 14 + 1);
        assertThat(out.readInt()).isEqualTo(10);
        assertThat(string(out)).isEqualTo("SCRAM-SHA-256");
        assertThat(out.readByte()).isZero();
        assertThat((char) out.readByte()).isEqualTo('R');
        assertThat(out.readInt()).isEqualTo(4 + 4 + 11);
        assertThat(out.readInt()).isEqualTo(11);
        assertThat(out.readCharSequence(11, UTF_8).toString()).isEqualTo("r=a,s=b,i=1");
        assertThat((char) out.readByte()).isEqualTo('R');
        assertThat(out.readInt()).isEqualTo(4 + 4 + 3);
        assertThat(out.readInt()).isEqualTo(12);
        assertThat(out.readCharSequence(3, UTF_8).toString()).isEqualTo("v=x");
        assertThat(out.isReadable()).isFalse();
    }

    private static String string(ByteBuf in) {
        int end = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) 0);
        String value = in.toString(in.readerIndex(), end - in.readerIndex(), UTF_8);
        in.readerIndex(end + 1);
        return value;
    }
}
