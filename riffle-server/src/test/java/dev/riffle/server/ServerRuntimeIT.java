package dev.riffle.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import dev.riffle.server.session.FlussConnections;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.ServerLimits;
import dev.riffle.server.session.Session;
import dev.riffle.server.session.SqlConnections;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One runtime serves several surfaces: their requests run in the same session, each says which
 * surface it came through, a surface's view closes nothing, and the runtime's own close lets go of
 * its connection (and its count in {@code riffle_fluss_connections}).
 */
@ExtendWith(LocalClusterExtension.class)
class ServerRuntimeIT {

    @Test
    void surfacesSharingARuntimeShareItsSession(LocalCluster cluster) {
        ServerRuntime runtime = ServerRuntime.builder("the test").clientConfig(cluster.clientConfig()).open();
        FlussConnections connections = runtime.connections();
        try (runtime) {
            ServerRuntime http = runtime.forSurface("the gateway", "http");
            ServerRuntime pg = runtime.forSurface("the PostgreSQL server", "pg");
            Session overHttp;
            try (RequestContext request = http.sessions().open(Optional.empty(), "over HTTP")) {
                overHttp = request.session();
                assertThat(request.surface()).isEqualTo("http");
            }
            pg.close(); // a view: the runtime and its session stay open
            try (RequestContext request = pg.sessions().open(Optional.empty(), "over PostgreSQL")) {
                assertThat(request.session()).isSameAs(overHttp);
                assertThat(request.surface()).isEqualTo("pg");
                assertThat(request.session().closed()).isFalse();
            }
            assertThat(http.connection()).isSameAs(runtime.connection());
            assertThat(connections.byOwner()).isEqualTo(Map.of(FlussConnections.SERVER, 1));
        }
        assertThat(connections.byOwner()).isEmpty();
    }

    /**
     * A session's SQL and its requests use one set of table handles: the statements' handle of a
     * table is in the session's handles, and a request asking for it after opens nothing more.
     */
    @Test
    void aSessionsStatementsAndRequestsShareItsTableHandles(LocalCluster cluster, TestNames names) throws Exception {
        String db = names.database("handles");
        try (ServerRuntime runtime = ServerRuntime.builder("the test").clientConfig(cluster.clientConfig()).open();
                RequestContext request = runtime.sessions().open(Optional.empty(), "a point query")) {
            Session session = request.session();
            try (SqlConnections.Lease lease = session.sql().borrow()) {
                lease.executeDdl("CREATE DATABASE " + db);
                lease.executeDdl("CREATE TABLE " + db + ".kv (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)");
                long before = session.handles().tablesOpened();
                try (java.sql.Statement insert = lease.prepare("SELECT 1").getConnection().createStatement()) {
                    insert.executeUpdate("INSERT INTO " + db + ".kv VALUES (1, 'one'), (2, 'two')");
                }
                java.sql.PreparedStatement point = lease.prepare("SELECT v FROM " + db + ".kv WHERE id = ?");
                point.setInt(1, 2);
                try (java.sql.ResultSet rs = point.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("two");
                }
                org.apache.fluss.metadata.TableInfo info = session.handles().info(
                        org.apache.fluss.metadata.TablePath.of(db, "kv"));
                assertThat(session.handles().hasOpen(info)).as("the statement's handle, in the session's handles")
                        .isTrue();
                session.handles().table(info);
                assertThat(session.handles().tablesOpened() - before)
                        .as("handles opened by the insert, the query and the request").isEqualTo(1);
            }
        }
    }

    @Test
    void aServerSharingARuntimeRefusesSettingsTheRuntimeFixes(LocalCluster cluster) {
        try (ServerRuntime runtime = ServerRuntime.builder("the test").clientConfig(cluster.clientConfig()).open()) {
            TestServer server = new TestServer().sharing(runtime)
                    .limits(ServerLimits.DEFAULT.withRequestTimeout(Duration.ofSeconds(5)));
            assertThatThrownBy(server::openRuntime).isInstanceOf(IllegalStateException.class)
                    .hasMessage("the test server shares a runtime, which fixes limits: give those to the runtime, "
                            + "not the server");
            TestServer sharing = new TestServer().sharing(runtime);
            try (ServerRuntime view = sharing.openRuntime()) {
                assertThat(view.sessions().statements()).isSameAs(runtime.sessions().statements());
                assertThat(view.limits()).isEqualTo(runtime.limits());
            }
        }
    }

    @Test
    void aServerWithoutACluster() {
        assertThatThrownBy(() -> new TestServer().openRuntime()).isInstanceOf(IllegalStateException.class)
                .hasMessage("Give the test server bootstrapServers, a clientConfig, a connection or a runtime to share");
    }

    private static final class TestServer extends ServerBuilder<TestServer> {
        TestServer() {
            super("the test server", "test", 0);
        }

        @Override
        protected TestServer self() {
            return this;
        }
    }
}
