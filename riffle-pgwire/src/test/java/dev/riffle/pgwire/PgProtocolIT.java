package dev.riffle.pgwire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.apache.fluss.metadata.TablePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The protocol as raw bytes on a socket, for what drivers never send: a client that vanishes in
 * the middle of a result, and malformed messages. The server frees what the connection held, and
 * keeps serving others.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class PgProtocolIT {

    /** A connection past startup, speaking the protocol by hand. */
    static final class RawClient implements AutoCloseable {
        final Socket socket;
        final DataOutputStream out;
        final DataInputStream in;

        RawClient(PgWireServer server) throws IOException {
            socket = new Socket(server.clientHost(), server.port());
            socket.setSoTimeout(20_000);
            out = new DataOutputStream(socket.getOutputStream());
            in = new DataInputStream(socket.getInputStream());
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            DataOutputStream b = new DataOutputStream(body);
            b.writeInt(196_608);
            b.write("user\0raw\0database\0riffle\0\0".getBytes(UTF_8));
            out.writeInt(body.size() + 4);
            body.writeTo(out);
            out.flush();
            while (readType() != 'Z') {
                // AuthenticationOk, ParameterStatus..., BackendKeyData, then ReadyForQuery
            }
        }

        void query(String sql) throws IOException {
            byte[] text = (sql + "\0").getBytes(UTF_8);
            out.writeByte('Q');
            out.writeInt(text.length + 4);
            out.write(text);
            out.flush();
        }

        /** Sends one message of {@code type} with {@code body}, unflushed. */
        void send(char type, byte[] body) throws IOException {
            out.writeByte(type);
            out.writeInt(body.length + 4);
            out.write(body);
        }

        /** Parse of a named statement without declared parameter types. */
        void parse(String statement, String sql) throws IOException {
            send('P', (statement + "\0" + sql + "\0\0\0").getBytes(UTF_8));
        }

        /** Bind with text parameters; {@code resultFormats} one per column, or none. */
        void bind(String portal, String statement, List<String> parameters, short... resultFormats)
                throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            DataOutputStream b = new DataOutputStream(body);
            b.write((portal + "\0" + statement + "\0").getBytes(UTF_8));
            b.writeShort(0); // parameter formats: all text
            b.writeShort(parameters.size());
            for (String parameter : parameters) {
                byte[] value = parameter.getBytes(UTF_8);
                b.writeInt(value.length);
                b.write(value);
            }
            b.writeShort(resultFormats.length);
            for (short format : resultFormats) {
                b.writeShort(format);
            }
            send('B', body.toByteArray());
        }

        void execute(String portal) throws IOException {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            DataOutputStream b = new DataOutputStream(body);
            b.write((portal + "\0").getBytes(UTF_8));
            b.writeInt(0);
            send('E', body.toByteArray());
        }

        /** Sync, flushed: the server answers what it was sent, then ReadyForQuery. */
        void sync() throws IOException {
            send('S', new byte[0]);
            out.flush();
        }

        /** Reads messages up to ReadyForQuery; returns their types, and the text of any ErrorResponse. */
        String untilReady() throws IOException {
            StringBuilder seen = new StringBuilder();
            while (true) {
                char type = (char) in.readUnsignedByte();
                byte[] body = new byte[in.readInt() - 4];
                in.readFully(body);
                seen.append(type);
                if (type == 'E') {
                    seen.append('(').append(new String(body, UTF_8).replace('\0', '|')).append(')');
                }
                if (type == 'Z') {
                    return seen.toString();
                }
            }
        }

        /** Reads one message; returns its type (its body is skipped). */
        char readType() throws IOException {
            char type = (char) in.readUnsignedByte();
            int length = in.readInt();
            in.readFully(new byte[length - 4]);
            return type;
        }

        /** Reads one message; returns its body. */
        byte[] readBody(char expected) throws IOException {
            char type = (char) in.readUnsignedByte();
            int length = in.readInt();
            byte[] body = new byte[length - 4];
            in.readFully(body);
            assertThat(type).as("message type").isEqualTo(expected);
            return body;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void aClientThatLeavesMidResultReleasesTheRead(PgWireServer server, org.apache.fluss.client.Connection fluss,
            TestNames names) throws Exception {
        TablePath path = PgJdbcIT.bigTable(server, fluss, names, "leave", 50_000);
        try (RawClient client = new RawClient(server)) {
            client.query("SELECT a.id, v.x FROM " + path.getDatabaseName() + "." + path.getTableName()
                    + " a, (VALUES (1), (2), (3), (4), (5), (6), (7), (8)) AS v(x)");
            assertThat(client.readType()).isEqualTo('T');
            for (int i = 0; i < 100; i++) {
                assertThat(client.readType()).isEqualTo('D');
            }
            // Stop reading with the server mid-result (its socket buffers fill up), then vanish.
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() > 0);
        }
        await().atMost(Duration.ofSeconds(20)).until(() -> server.arrowAllocatedBytes() == 0);
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            assertThat(PgJdbcIT.single(statement, "SELECT count(*) FROM " + path.getDatabaseName() + "."
                    + path.getTableName())).isEqualTo("50000");
        }
    }

    @Test
    void malformedMessagesAreRefusedAndTheServerKeepsServing(PgWireServer server) throws Exception {
        // A length far over the limit: FATAL 54000, then the connection closes.
        try (RawClient client = new RawClient(server)) {
            client.out.writeByte('Q');
            client.out.writeInt(Integer.MAX_VALUE);
            client.out.flush();
            String error = new String(client.readBody('E'), UTF_8);
            assertThat(error).contains("FATAL").contains("54000").contains("at most");
            assertEndOfStream(client);
        }
        // A length below the minimum.
        try (RawClient client = new RawClient(server)) {
            client.out.writeByte('Q');
            client.out.writeInt(2);
            client.out.flush();
            assertThat(new String(client.readBody('E'), UTF_8)).contains("08P01").contains("Invalid length 2");
            assertEndOfStream(client);
        }
        // A message type the server does not serve (a function call).
        try (RawClient client = new RawClient(server)) {
            client.out.writeByte('F');
            client.out.writeInt(4);
            client.out.flush();
            assertThat(new String(client.readBody('E'), UTF_8)).contains("0A000");
        }
        // A truncated startup packet, then silence: the server waits for the rest, and others are served.
        try (Socket truncated = new Socket(server.clientHost(), server.port())) {
            new DataOutputStream(truncated.getOutputStream()).writeInt(100);
            try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
                assertThat(PgJdbcIT.single(statement, "SELECT 1 + 1")).isEqualTo("2");
            }
        }
    }

    @Test
    void extendedQueryNamesAndCountsAreCheckedAsPostgresChecksThem(PgWireServer server) throws Exception {
        try (RawClient client = new RawClient(server)) {
            client.parse("s1", "SELECT $1::int + 1 AS n");
            client.sync();
            assertThat(client.untilReady()).isEqualTo("1Z");
            // A second statement of that name: 42P05, and the first still answers.
            client.parse("s1", "SELECT 2");
            client.sync();
            assertThat(client.untilReady()).contains("42P05").contains("prepared statement \"s1\" already exists")
                    .endsWith("Z");
            client.bind("", "s1", List.of("41"));
            client.execute("");
            client.sync();
            assertThat(client.untilReady()).isEqualTo("2DCZ");
            // A statement or portal nobody made: 26000 and 34000; what follows up to Sync is skipped.
            client.bind("", "nope", List.of());
            client.execute("");
            client.sync();
            assertThat(client.untilReady()).contains("26000").contains("prepared statement \"nope\" does not exist")
                    .startsWith("E(").endsWith(")Z"); // the Execute after the failed Bind is skipped
            client.execute("p9");
            client.sync();
            assertThat(client.untilReady()).contains("34000").contains("portal \"p9\" does not exist");
            // Counts that do not match the statement: 08P01, and the session goes on.
            client.bind("", "s1", List.of("1", "2"));
            client.sync();
            assertThat(client.untilReady()).contains("08P01")
                    .contains("bind message supplies 2 parameters, but prepared statement \"s1\" requires 1");
            client.bind("", "s1", List.of("1"), (short) 0, (short) 1);
            client.sync();
            assertThat(client.untilReady()).contains("08P01")
                    .contains("bind message has 2 result formats but the statement answers 1 columns");
            client.bind("", "s1", List.of("9"), (short) 1);
            client.execute("");
            client.sync();
            assertThat(client.untilReady()).isEqualTo("2DCZ");
        }
    }

    private static void assertEndOfStream(RawClient client) throws IOException {
        try {
            int next = client.in.read();
            assertThat(next).as("the server closed the connection").isEqualTo(-1);
        } catch (EOFException | java.net.SocketException closed) {
            // closed: as expected
        }
    }
}
