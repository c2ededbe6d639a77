package dev.riffle.pgwire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.local.LocalCluster;
import dev.riffle.server.principal.Auth;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Properties;
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
 * The PostgreSQL server with authentication against a Fluss cluster with SASL/PLAIN users and
 * ACLs: pgjdbc's password goes to Fluss as the user's own login, a wrong one is 28P01, and what
 * the ACLs deny is 42501.
 */
class PgAuthIT {
    @TempDir
    static Path dir;
    static LocalCluster cluster;
    static PgWireServer server;

    @BeforeAll
    static void start() throws Exception {
        cluster = securedCluster(dir.resolve("data"));
        server = PgWireServer.builder().clientConfig(cluster.clientConfig()).auth(Auth.BASIC).host("127.0.0.1").port(0)
                .start();
    }

    /**
     * A cluster with SASL/PLAIN users {@code admin} (the super user), {@code alice}, {@code bob} and
     * {@code dave} (passwords {@code <user>-secret}), a table {@code secured.notes}, and two ACLs:
     * alice may read the database {@code secured}, dave may only see it (DESCRIBE).
     */
    static LocalCluster securedCluster(Path dataDir) throws Exception {
        LocalCluster cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false)
                .saslUsers(Map.of("admin", "admin-secret", "alice", "alice-secret", "bob", "bob-secret", "dave",
                        "dave-secret")).start();
        try (org.apache.fluss.client.Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase("secured", DatabaseDescriptor.EMPTY, false).get();
            admin.createTable(TablePath.of("secured", "notes"), TableDescriptor.builder().schema(Schema.newBuilder()
                    .column("id", DataTypes.INT()).column("text", DataTypes.STRING()).build()).build(), false).get();
            admin.createAcls(List.of(new AclBinding(Resource.database("secured"), new AccessControlEntry(
                    new FlussPrincipal("alice", "User"), AccessControlEntry.WILD_CARD_HOST, OperationType.READ,
                    PermissionType.ALLOW)), new AclBinding(Resource.database("secured"), new AccessControlEntry(
                    new FlussPrincipal("dave", "User"), AccessControlEntry.WILD_CARD_HOST, OperationType.DESCRIBE,
                    PermissionType.ALLOW)))).all().get();
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        return cluster;
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
        return DriverManager.getConnection(server.jdbcUrl(), properties);
    }

    @Test
    void aLoginIsCheckedByFlussAndTheAclsDecide() throws Exception {
        assertThat(server.psqlCommand()).contains("user=USER");
        try (Connection alice = connect("alice", "alice-secret"); Statement statement = alice.createStatement()) {
            assertThat(PgJdbcIT.rows(statement.executeQuery("SELECT count(*) FROM secured.notes"))).containsExactly("0");
            // alice may read but not create: Fluss's ACLs deny it. (A denied INSERT is denied too, but only
            // after the Fluss writer gives up retrying, about 10 s: not worth the test time.)
            SQLException denied = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> statement.execute("CREATE TABLE secured.more (id INT)"));
            assertThat(denied.getSQLState()).as(denied.getMessage()).isEqualTo("42501");
        }
        // bob has no grant at all: Fluss does not even show him the database.
        try (Connection bob = connect("bob", "bob-secret"); Statement statement = bob.createStatement()) {
            assertThat(PgJdbcIT.sqlState(() -> statement.executeQuery("SELECT count(*) FROM secured.notes")))
                    .isEqualTo("42P01");
        }
        assertThat(PgJdbcIT.sqlState(() -> connect("alice", "not-her-secret").close())).isEqualTo("28P01");
        assertThat(PgJdbcIT.sqlState(() -> connect("mallory", "guess").close())).isEqualTo("28P01");
    }
}
