package dev.riffle.flight;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.SelfSignedCertificate;
import dev.riffle.server.principal.Auth;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.security.acl.AccessControlEntry;
import org.apache.fluss.security.acl.AclBinding;
import org.apache.fluss.security.acl.FlussPrincipal;
import org.apache.fluss.security.acl.OperationType;
import org.apache.fluss.security.acl.PermissionType;
import org.apache.fluss.security.acl.Resource;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flight SQL with {@code --auth basic} against a Fluss cluster with SASL/PLAIN users and ACLs: a
 * login is checked by Fluss, each user's calls run on that user's connection (the ACLs decide),
 * and the same over TLS.
 */
class FlightAuthIT {
    @TempDir
    static Path dir;
    static LocalCluster cluster;
    static FlightSqlServer server;

    @BeforeAll
    static void start() throws Exception {
        cluster = LocalCluster.builder().dataDir(dir.resolve("data")).coordinatorPort(0).lakeEnabled(false)
                .saslUsers(Map.of("admin", "admin-secret", "alice", "alice-secret", "bob", "bob-secret")).start();
        try (org.apache.fluss.client.Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase("secured", DatabaseDescriptor.EMPTY, false).get();
            admin.createTable(TablePath.of("secured", "notes"), TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.INT()).column("text", DataTypes.STRING()).build()).build(), false).get();
            admin.createAcls(List.of(new AclBinding(Resource.database("secured"), new AccessControlEntry(
                    new FlussPrincipal("alice", "User"), AccessControlEntry.WILD_CARD_HOST, OperationType.READ,
                    PermissionType.ALLOW)))).all().get();
        }
        SelfSignedCertificate tls = SelfSignedCertificate.create(dir);
        server = FlightSqlServer.builder().clientConfig(cluster.clientConfig()).auth(Auth.BASIC).host("127.0.0.1")
                .port(0).tls(tls.certificate().toFile(), tls.privateKey().toFile()).start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Connection connect(String user, String password) throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        properties.setProperty("disableCertificateVerification", "true");
        return DriverManager.getConnection(server.jdbcUrl(), properties);
    }

    @Test
    void aLoginIsCheckedByFlussAndTheAclsDecide() throws Exception {
        assertThat(server.jdbcUrl()).contains("useEncryption=true");
        try (Connection alice = connect("alice", "alice-secret"); Statement statement = alice.createStatement()) {
            assertThat(FlightJdbcIT.rows(statement.executeQuery("SELECT count(*) FROM secured.notes")))
                    .containsExactly("0");
            // alice may read but not write.
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO secured.notes VALUES (1, 'x')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("No WRITE permission");
        }
        // bob has no grant at all.
        try (Connection bob = connect("bob", "bob-secret"); Statement statement = bob.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("SELECT count(*) FROM secured.notes"))
                    .isInstanceOf(SQLException.class).hasMessageContainingAll("secured");
        }
        assertThatThrownBy(() -> connect("alice", "not-her-secret").createStatement().executeQuery("SELECT 1"))
                .isInstanceOf(SQLException.class).hasMessageContaining("alice");
        assertThatThrownBy(() -> connect("mallory", "guess").createStatement().executeQuery("SELECT 1"))
                .isInstanceOf(SQLException.class);
    }

    @Test
    void aClientWithoutCredentialsIsRefusedAndTheTicketIsTheCallersOwn() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient anonymous = FlightClient.builder(allocator, Location.forGrpcTls("127.0.0.1", server.port()))
                        .verifyServer(false).build();
                FlightClient admin = FlightClient.builder(allocator, Location.forGrpcTls("127.0.0.1", server.port()))
                        .verifyServer(false).build();
                FlightClient bob = FlightClient.builder(allocator, Location.forGrpcTls("127.0.0.1", server.port()))
                        .verifyServer(false).build()) {
            assertThatThrownBy(() -> new FlightSqlClient(anonymous).execute("SELECT 1"))
                    .hasMessageContaining("requires a Fluss user and password");
            var adminToken = admin.authenticateBasicToken("admin", "admin-secret").orElseThrow();
            var bobToken = bob.authenticateBasicToken("bob", "bob-secret").orElseThrow();
            FlightInfo info = new FlightSqlClient(admin).execute("SELECT count(*) AS n FROM secured.notes", adminToken);
            // bob cannot redeem admin's ticket.
            assertThatThrownBy(() -> {
                try (FlightStream stream = bob.getStream(info.getEndpoints().get(0).getTicket(), bobToken)) {
                    stream.next();
                }
            }).hasMessageContaining("another user");
            try (FlightStream stream = admin.getStream(info.getEndpoints().get(0).getTicket(), adminToken)) {
                assertThat(stream.next()).isTrue();
                assertThat(stream.getRoot().getRowCount()).isEqualTo(1);
            }
        }
    }
}
