package dev.riffle.local;

import static dev.riffle.local.FlussRows.append;
import static dev.riffle.local.FlussRows.readLog;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.exception.AuthenticationException;
import org.apache.fluss.exception.AuthorizationException;
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

/** A cluster with SASL/PLAIN users and ACLs: wrong passwords fail, users without ACLs are denied until granted. */
class SaslClusterIT {
    private static final Schema SCHEMA = Schema.newBuilder()
            .column("id", DataTypes.INT()).column("name", DataTypes.STRING()).build();

    @TempDir
    static Path dataDir;
    static LocalCluster cluster;

    @BeforeAll
    static void start() {
        cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false)
                .saslUsers(Map.of("admin", "admin-secret", "alice", "alice-secret"))
                .start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void aWrongPasswordDoesNotAuthenticate() {
        assertThatThrownBy(() -> {
            try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig("alice", "wrong"));
                    Admin admin = connection.getAdmin()) {
                admin.listDatabases().get();
            }
        }).hasRootCauseInstanceOf(AuthenticationException.class);
    }

    @Test
    void theSuperUserDoesDdlAndAUserNeedsAnAcl() throws Exception {
        TablePath path = TablePath.of("secured", "events");
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase("secured", DatabaseDescriptor.EMPTY, true).get();
            admin.createTable(path, TableDescriptor.builder().schema(SCHEMA).distributedBy(1).build(), false).get();
            append(connection, path, 0, 10);
        }
        try (Connection alice = ConnectionFactory.createConnection(cluster.clientConfig("alice", "alice-secret"));
                Admin admin = alice.getAdmin()) {
            // Listings are filtered to what the user may see; a direct request is denied.
            assertThat(admin.listDatabases().get()).doesNotContain("secured");
            assertThat(admin.listTables("secured").get()).isEmpty();
            assertThatThrownBy(() -> admin.getTableInfo(path).get()).hasRootCauseInstanceOf(AuthorizationException.class);
        }
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createAcls(List.of(new AclBinding(Resource.table(path),
                    new AccessControlEntry(new FlussPrincipal("alice", "User"), AccessControlEntry.WILD_CARD_HOST,
                            OperationType.READ, PermissionType.ALLOW)))).all().get();
        }
        try (Connection alice = ConnectionFactory.createConnection(cluster.clientConfig("alice", "alice-secret"));
                Admin admin = alice.getAdmin()) {
            assertThat(admin.getTableInfo(path).get().getTablePath()).isEqualTo(path);
            assertThat(readLog(alice, path, 1, 10)).hasSize(10);
            // READ does not allow writing: the write's acknowledgement fails.
            try (Table table = alice.getTable(path)) {
                assertThatThrownBy(() -> table.newAppend().createWriter().append(FlussRows.row(10, "x")).get())
                        .hasRootCauseInstanceOf(AuthorizationException.class);
            }
        }
    }
}
