package dev.riffle.pgwire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.SelfSignedCertificate;
import dev.riffle.pgwire.PsqlIT.Run;
import dev.riffle.pgwire.auth.PasswordFile;
import dev.riffle.server.principal.Auth;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SCRAM-SHA-256 logins and TLS against {@link PgAuthIT}'s cluster (SASL/PLAIN users, ACLs), as pgjdbc
 * and psql 15 see them: the server offers only SCRAM when it has a password file, a verified proof
 * still opens the user's own Fluss connection (so the ACLs decide and a user Fluss refuses is
 * 28P01), a wrong password and an unknown user get the same 28P01, a broken SCRAM message closes
 * the connection with 08P01; with a certificate, TLS is required.
 */
class PgScramTlsIT {
    private static final String REFUSED = "password authentication failed for user \"%s\"";

    @TempDir
    static Path dir;
    static LocalCluster cluster;
    /** SCRAM over plain TCP. */
    static PgWireServer scram;
    /** SCRAM over TLS, which it requires. */
    static PgWireServer tls;

    @BeforeAll
    static void start() throws Exception {
        cluster = PgAuthIT.securedCluster(dir.resolve("data"));
        try (org.apache.fluss.client.Connection admin = ConnectionFactory.createConnection(cluster.clientConfig());
                Table notes = admin.getTable(TablePath.of("secured", "notes"))) {
            AppendWriter writer = notes.newAppend().createWriter();
            writer.append(GenericRow.of(1, BinaryString.fromString("a note")));
            writer.flush();
        }
        // carol is in the password file but not a Fluss user; bob's line holds a password Fluss does not take.
        PasswordFile users = PasswordFile.read(Files.writeString(dir.resolve("pg-users"),
                "alice:alice-secret\nbob:not-bobs-fluss-password\ncarol:carol-secret\ndave:dave-secret\n"));
        scram = PgWireServer.builder().clientConfig(cluster.clientConfig()).auth(Auth.BASIC).scramUsers(users)
                .host("127.0.0.1").port(0).start();
        SelfSignedCertificate certificate = SelfSignedCertificate.create(dir);
        tls = PgWireServer.builder().clientConfig(cluster.clientConfig()).auth(Auth.BASIC).scramUsers(users)
                .tls(certificate.certificate(), certificate.privateKey()).host("127.0.0.1").port(0).start();
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable closeable : new AutoCloseable[] {tls, scram, cluster}) {
            if (closeable != null) {
                closeable.close();
            }
        }
    }

    private static Properties login(String user, String password) {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        return properties;
    }

    private static Connection connect(PgWireServer server, String user, String password) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl(), login(user, password));
    }

    private static SQLException refused(PgWireServer server, String user, String password) {
        return assertThrows(SQLException.class, () -> connect(server, user, password).close());
    }

    @Test
    void pgjdbcLogsInWithScramAndTheAclsDecide() throws Exception {
        try (Connection alice = connect(scram, "alice", "alice-secret"); Statement statement = alice.createStatement()) {
            assertThat(PgJdbcIT.rows(statement.executeQuery("SELECT count(*) FROM secured.notes"))).containsExactly("1");
            SQLException denied = assertThrows(SQLException.class,
                    () -> statement.execute("CREATE TABLE secured.more (id INT)"));
            assertThat(denied.getSQLState()).as(denied.getMessage()).isEqualTo("42501");
        }
        // dave may see the database but not read it.
        try (Connection dave = connect(scram, "dave", "dave-secret"); Statement statement = dave.createStatement()) {
            statement.setQueryTimeout(60);
            SQLException denied = assertThrows(SQLException.class,
                    () -> statement.executeQuery("SELECT count(*) FROM secured.notes"));
            assertThat(denied.getSQLState()).as(denied.getMessage()).isEqualTo("42501");
        }
    }

    @Test
    void aWrongPasswordAndAnUnknownUserAreRefusedAlike() {
        SQLException wrong = refused(scram, "alice", "not-her-secret");
        assertThat(wrong.getSQLState()).isEqualTo("28P01");
        assertThat(wrong.getMessage()).contains(REFUSED.formatted("alice"));
        SQLException unknown = refused(scram, "mallory", "guess");
        assertThat(unknown.getSQLState()).isEqualTo("28P01");
        assertThat(unknown.getMessage()).contains(REFUSED.formatted("mallory"))
                .isEqualTo(wrong.getMessage().replace("alice", "mallory"));
        // The proof is right, but Fluss refuses the user's SASL/PLAIN login: the same answer.
        assertThat(refused(scram, "carol", "carol-secret").getMessage()).contains(REFUSED.formatted("carol"));
        assertThat(refused(scram, "bob", "not-bobs-fluss-password").getSQLState()).isEqualTo("28P01");
    }

    @Test
    void theServerOffersOnlyScramAndABrokenScramMessageClosesTheConnection() throws Exception {
        try (Socket socket = new Socket(scram.clientHost(), scram.port())) {
            socket.setSoTimeout(20_000);
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            startup(out, "alice");
            byte[] request = body(in, 'R');
            // AuthenticationSASL (10), then the mechanisms: SCRAM-SHA-256 alone, no -PLUS.
            assertThat(new String(request, UTF_8)).isEqualTo("\0\0\0\nSCRAM-SHA-256\0\0");
            ByteArrayOutputStream initial = new ByteArrayOutputStream();
            DataOutputStream b = new DataOutputStream(initial);
            b.write("SCRAM-SHA-256\0".getBytes(UTF_8));
            byte[] garbage = "hello, server".getBytes(UTF_8);
            b.writeInt(garbage.length);
            b.write(garbage);
            out.writeByte('p');
            out.writeInt(initial.size() + 4);
            initial.writeTo(out);
            out.flush();
            String error = new String(body(in, 'E'), UTF_8);
            assertThat(error).contains("FATAL").contains("08P01").contains("malformed SCRAM message");
            assertEndOfStream(in);
        }
    }

    @Test
    void psqlLogsInWithScram() throws Exception {
        Run ok = psql(scram, "alice", Map.of("PGPASSWORD", "alice-secret"), "SELECT count(*) FROM secured.notes");
        assertThat(ok.exitCode()).as(ok.err()).isZero();
        assertThat(ok.out()).isEqualTo("1\n");
        Run wrong = psql(scram, "alice", Map.of("PGPASSWORD", "wrong"), "SELECT 1");
        assertThat(wrong.exitCode()).isEqualTo(2);
        assertThat(wrong.err()).contains("FATAL:  " + REFUSED.formatted("alice"));
        Run unknown = psql(scram, "mallory", Map.of("PGPASSWORD", "guess"), "SELECT 1");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("FATAL:  " + REFUSED.formatted("mallory"));
    }

    @Test
    void overTlsPgjdbcAndPsqlConnectAndPlainConnectionsAreRefused() throws Exception {
        assertThat(tls.jdbcUrl()).endsWith("?sslmode=require");
        assertThat(tls.psqlCommand()).isEqualTo("psql \"host=127.0.0.1 port=" + tls.port()
                + " dbname=riffle user=USER sslmode=require\"");
        // sslmode=require encrypts without checking the (self-signed) certificate.
        try (Connection alice = connect(tls, "alice", "alice-secret"); Statement statement = alice.createStatement()) {
            assertThat(PgJdbcIT.rows(statement.executeQuery("SELECT count(*) FROM secured.notes"))).containsExactly("1");
        }
        // pgjdbc's default, prefer, takes TLS when offered.
        String url = "jdbc:postgresql://127.0.0.1:" + tls.port() + "/riffle";
        try (Connection alice = DriverManager.getConnection(url, login("alice", "alice-secret"));
                Statement statement = alice.createStatement()) {
            assertThat(PgJdbcIT.rows(statement.executeQuery("SELECT 1"))).containsExactly("1");
        }
        assertThat(refused(tls, "alice", "not-her-secret").getSQLState()).isEqualTo("28P01");
        SQLException plain = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(url + "?sslmode=disable", login("alice", "alice-secret")).close());
        assertThat(plain.getSQLState()).isEqualTo("28000");
        assertThat(plain.getMessage()).contains("this server accepts only TLS connections");

        Run psql = psql(tls, "alice", Map.of("PGPASSWORD", "alice-secret", "PGSSLMODE", "require"),
                "SELECT count(*) FROM secured.notes");
        assertThat(psql.exitCode()).as(psql.err()).isZero();
        assertThat(psql.out()).isEqualTo("1\n");
        Run disabled = psql(tls, "alice", Map.of("PGPASSWORD", "alice-secret", "PGSSLMODE", "disable"), "SELECT 1");
        assertThat(disabled.exitCode()).isEqualTo(2);
        assertThat(disabled.err()).contains("FATAL:  this server accepts only TLS connections");
    }

    private static Run psql(PgWireServer server, String user, Map<String, String> environment, String sql)
            throws Exception {
        return PsqlIT.run(List.of(PsqlIT.PSQL, "-X", "-A", "-t", "-h", server.clientHost(), "-p",
                Integer.toString(server.port()), "-U", user, "-d", "riffle", "-w", "-c", sql), environment);
    }

    private static void startup(DataOutputStream out, String user) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream b = new DataOutputStream(body);
        b.writeInt(196_608);
        b.write(("user\0" + user + "\0database\0riffle\0\0").getBytes(UTF_8));
        out.writeInt(body.size() + 4);
        body.writeTo(out);
        out.flush();
    }

    private static byte[] body(DataInputStream in, char expected) throws IOException {
        char type = (char) in.readUnsignedByte();
        byte[] body = new byte[in.readInt() - 4];
        in.readFully(body);
        assertThat(type).as("message type (body: %s)", new String(body, UTF_8)).isEqualTo(expected);
        return body;
    }

    private static void assertEndOfStream(DataInputStream in) throws IOException {
        try {
            assertThat(in.read()).isEqualTo(-1);
        } catch (SocketException | EOFException closed) {
            // the server closed the connection: what is asserted
        }
    }
}
