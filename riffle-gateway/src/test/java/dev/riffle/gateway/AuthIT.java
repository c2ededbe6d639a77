package dev.riffle.gateway;

import dev.riffle.server.principal.Auth;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.gateway.mcp.McpClients;
import dev.riffle.local.LocalCluster;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import dev.riffle.server.session.Sessions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
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
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * {@code --auth basic} over a cluster with SASL/PLAIN users and ACLs: the HTTP Basic user is the
 * Fluss principal, so Fluss decides (401 for missing or wrong credentials, 403 when an ACL is
 * missing). A cluster of its own, since the shared one runs without authentication.
 */
class AuthIT {
    private static final String ADMIN = basic("admin", "admin-secret");
    private static final String ALICE = basic("alice", "alice-secret");
    private static final String BOB = basic("bob", "bob-secret");
    private static final String TABLE_JSON = """
            {"name": "events", "columns": [{"name": "id", "type": "BIGINT"}, {"name": "name", "type": "STRING"}],
             "buckets": 1}""";

    /** Users beyond admin, alice and bob, for the test that opens and evicts many principals. */
    private static final int MANY = 200;

    @TempDir
    static Path dataDir;
    static LocalCluster cluster;
    static Gateway gateway;
    static Api api;

    @BeforeAll
    static void start() {
        Map<String, String> users = new HashMap<>(Map.of("admin", "admin-secret", "alice", "alice-secret", "bob",
                "bob-secret"));
        for (int i = 0; i < MANY; i++) {
            users.put("user" + i, "secret" + i);
        }
        cluster = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false)
                .saslUsers(users)
                .start();
        gateway = Gateway.builder()
                .clientConfig(cluster.clientConfig()) // the gateway's own connection (for /ready): the super user
                .auth(Auth.BASIC)
                .maxPrincipals(2)
                .host("127.0.0.1")
                .port(0)
                .start();
        api = new Api(gateway);
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (gateway != null) {
                gateway.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }

    @Test
    void operationsRoutesStayOpen() {
        assertThat(api.get("/health").status()).isEqualTo(200);
        assertThat(api.get("/ready").status()).isEqualTo(200);
        assertThat(api.get("/metrics").status()).isEqualTo(200);
        assertThat(api.get("/openapi.json").status()).isEqualTo(200);
    }

    @Test
    void missingOrMalformedCredentialsAre401WithAChallenge() {
        for (String[] headers : List.of(new String[0], new String[] {"Authorization", "Bearer abc"},
                new String[] {"Authorization", "Basic !!not-base64!!"},
                new String[] {"Authorization", "Basic " + b64("no-colon")})) {
            Api.Response response = api.get("/v1/databases", headers);
            assertThat(response.status()).as(response.text()).isEqualTo(401);
            assertThat(response.errorCode()).isEqualTo("unauthenticated");
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Basic realm=\"riffle\"");
        }
    }

    @Test
    void credentialsFlussRejectsAre401() {
        for (String authorization : List.of(basic("alice", "wrong"), basic("mallory", "alice-secret"))) {
            Api.Response response = api.get("/v1/databases", "Authorization", authorization);
            assertThat(response.status()).as(response.text()).isEqualTo(401);
            assertThat(response.errorCode()).isEqualTo("unauthenticated");
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Basic realm=\"riffle\"");
        }
        // The right password still works for the same user after wrong ones.
        assertThat(api.get("/v1/databases", "Authorization", ALICE).status()).isEqualTo(200);
    }

    @Test
    void fluss403sUntilAnAclGrantsAccess() throws Exception {
        String db = "acl_db";
        TablePath path = TablePath.of(db, "events");
        String tableUrl = "/v1/databases/" + db + "/tables/events";

        // The super user may do DDL and write.
        assertThat(api.postJson("/v1/databases", "{\"name\": \"" + db + "\"}", "Authorization", ADMIN).status())
                .isEqualTo(201);
        Api.Response created = api.postJson("/v1/databases/" + db + "/tables", TABLE_JSON, "Authorization", ADMIN);
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        Api.Response written = api.postJson(tableUrl + "/rows", "[{\"id\": 1, \"name\": \"a\"}, {\"id\": 2, \"name\": \"b\"}]",
                "Authorization", ADMIN);
        assertThat(written.status()).as(written.text()).isEqualTo(200);

        // Alice has no ACL: Fluss denies her, the gateway says 403.
        Api.Response described = api.get(tableUrl, "Authorization", ALICE);
        assertThat(described.status()).as(described.text()).isEqualTo(403);
        assertThat(described.errorCode()).isEqualTo("forbidden");
        assertThat(api.postJson(tableUrl + "/scan", "{}", "Authorization", ALICE).status()).isEqualTo(403);
        assertThat(api.postJson("/v1/databases/" + db + "/tables",
                TABLE_JSON.replace("events", "mine"), "Authorization", ALICE).status()).isEqualTo(403);

        grant("alice", path, OperationType.READ);
        Api.Response readable = api.get(tableUrl, "Authorization", ALICE);
        assertThat(readable.status()).as(readable.text()).isEqualTo(200);
        Api.Response scanned = api.postJson(tableUrl + "/scan", "{}", "Authorization", ALICE);
        assertThat(scanned.status()).as(scanned.text()).isEqualTo(200);
        assertThat(scanned.json().get("rows")).hasSize(2);
        // READ is not WRITE.
        Api.Response denied = api.postJson(tableUrl + "/rows", "[{\"id\": 3, \"name\": \"c\"}]", "Authorization", ALICE);
        assertThat(denied.status()).as(denied.text()).isEqualTo(403);
        assertThat(denied.errorCode()).isEqualTo("forbidden");

        grant("alice", path, OperationType.WRITE);
        Api.Response allowed = api.postJson(tableUrl + "/rows", "[{\"id\": 3, \"name\": \"c\"}]", "Authorization", ALICE);
        assertThat(allowed.status()).as(allowed.text()).isEqualTo(200);

        // Bob still sees nothing; three principals share two cached connections without harm.
        assertThat(api.get(tableUrl, "Authorization", BOB).status()).isEqualTo(403);
        assertThat(api.postJson(tableUrl + "/scan", "{}", "Authorization", ALICE).json().get("rows")).hasSize(3);
        assertThat(api.get(tableUrl, "Authorization", ADMIN).status()).isEqualTo(200);
    }

    @Test
    void theConsoleAsksOnceThenShowsWhatFlussForbidsAsItsMessage() throws Exception {
        String db = "acl_console";
        String tableUrl = "/v1/databases/" + db + "/tables/events";
        assertThat(api.postJson("/v1/databases", "{\"name\": \"" + db + "\"}", "Authorization", ADMIN).status())
                .isEqualTo(201);
        assertThat(api.postJson("/v1/databases/" + db + "/tables", TABLE_JSON, "Authorization", ADMIN).status())
                .isEqualTo(201);
        String user = "user" + (MANY - 1);
        Api.Response forbidden = api.get(tableUrl, "Authorization", basic(user, "secret" + (MANY - 1)));
        assertThat(forbidden.status()).isEqualTo(403);

        // Without credentials the page itself is challenged, so a browser prompts before any API call.
        assertThat(api.get("/").status()).isEqualTo(401);
        // Credentials given once (as a user answering the prompt) serve the page and every API call it makes:
        // the API answers as that user, and Fluss's 403 is shown as the server's message.
        try (HeadlessChromium browser = HeadlessChromium.start()) {
            browser.open(gateway.url().replace("http://", "http://" + user + ":secret" + (MANY - 1) + "@")
                    + "/#/table/" + db + "/events");
            WebElement error = browser.await("the 403 on the table page", 30, By.cssSelector("main .error"));
            assertThat(error.getText()).startsWith("Forbidden.").contains(forbidden.errorMessage(), "forbidden");
            browser.screenshot("basic-auth-403");
        }
    }

    @Test
    void lookupsRunAsTheCaller() throws Exception {
        String db = "acl_lookups";
        String tableUrl = "/v1/databases/" + db + "/tables/users";
        assertThat(api.postJson("/v1/databases", "{\"name\": \"" + db + "\"}", "Authorization", ADMIN).status())
                .isEqualTo(201);
        Api.Response created = api.postJson("/v1/databases/" + db + "/tables", """
                {"name": "users", "columns": [{"name": "id", "type": "BIGINT"}, {"name": "name", "type": "STRING"}],
                 "primary_key": ["id"], "buckets": 1}""", "Authorization", ADMIN);
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        assertThat(api.postJson(tableUrl + "/rows", "[{\"id\": 7, \"name\": \"seven\"}]", "Authorization", ADMIN)
                .status()).isEqualTo(200);
        // The super user's lookup must not open the door for anyone else.
        assertThat(api.get(tableUrl + "/rows/7", "Authorization", ADMIN).json().get("name").asText()).isEqualTo("seven");
        assertThat(api.get(tableUrl + "/rows/7", "Authorization", BOB).status()).isEqualTo(403);

        grant("bob", TablePath.of(db, "users"), OperationType.READ);
        Api.Response found = api.get(tableUrl + "/rows/7", "Authorization", BOB);
        assertThat(found.status()).as(found.text()).isEqualTo(200);
        assertThat(found.json().get("name").asText()).isEqualTo("seven");
    }

    @Test
    void sqlRunsAsTheCaller() throws Exception {
        String db = "acl_sql";
        String query = "{\"sql\": \"SELECT id, name FROM acl_sql.events ORDER BY id\"}";
        assertThat(api.postJson("/v1/databases", "{\"name\": \"" + db + "\"}", "Authorization", ADMIN).status())
                .isEqualTo(201);
        Api.Response created = api.postJson("/v1/databases/" + db + "/tables", TABLE_JSON, "Authorization", ADMIN);
        assertThat(created.status()).as(created.text()).isEqualTo(201);
        Api.Response written = api.postJson("/v1/databases/" + db + "/tables/events/rows",
                "[{\"id\": 1, \"name\": \"a\"}, {\"id\": 2, \"name\": \"b\"}]", "Authorization", ADMIN);
        assertThat(written.status()).as(written.text()).isEqualTo(200);

        // The super user reads through its own JDBC connection.
        Api.Response asAdmin = api.postJson("/v1/sql", query, "Authorization", ADMIN);
        assertThat(asAdmin.status()).as(asAdmin.text()).isEqualTo(200);
        assertThat(asAdmin.json().get("rows").toString()).isEqualTo("[{\"id\":1,\"name\":\"a\"},{\"id\":2,\"name\":\"b\"}]");

        // Bob may see the database but not read the table: Fluss denies his statement, the gateway says 403.
        grantDatabase("bob", db, OperationType.DESCRIBE);
        Api.Response denied = api.postJson("/v1/sql", query, "Authorization", BOB);
        assertThat(denied.status()).as(denied.text()).isEqualTo(403);
        assertThat(denied.errorCode()).isEqualTo("forbidden");
        // The scan route says the same when it is the read itself (not the metadata) that Fluss refuses.
        Api.Response scan = api.postJson("/v1/databases/" + db + "/tables/events/scan", "{}", "Authorization", BOB);
        assertThat(scan.status()).as(scan.text()).isEqualTo(403);
        assertThat(scan.errorCode()).isEqualTo("forbidden");
        // The admin's answer did not open the door for him, nor his denial close it for the admin.
        assertThat(api.postJson("/v1/sql", query, "Authorization", ADMIN).status()).isEqualTo(200);

        grant("bob", TablePath.of(db, "events"), OperationType.READ);
        Api.Response allowed = api.postJson("/v1/sql", query, "Authorization", BOB);
        assertThat(allowed.status()).as(allowed.text()).isEqualTo(200);
        assertThat(allowed.json().get("rows")).hasSize(2);
        Api.Response arrow = api.postJson("/v1/sql", query, "Authorization", BOB, "Accept", Api.ARROW);
        assertThat(arrow.status()).as(arrow.text()).isEqualTo(200);
        assertThat(arrow.header("Content-Type")).startsWith(Api.ARROW);

        // A wrong password never reaches Bob's connection.
        Api.Response wrong = api.postJson("/v1/sql", query, "Authorization", basic("bob", "wrong"));
        assertThat(wrong.status()).as(wrong.text()).isEqualTo(401);
        assertThat(wrong.errorCode()).isEqualTo("unauthenticated");
        assertThat(wrong.header("WWW-Authenticate")).isEqualTo("Basic realm=\"riffle\"");

        // Alice has no ACL here at all: Fluss lists her no such database, so to her SQL it does not exist.
        // Three principals share two cached connections without harm.
        Api.Response alice = api.postJson("/v1/sql", query, "Authorization", ALICE);
        assertThat(alice.status()).as(alice.text()).isEqualTo(404);
        assertThat(alice.errorMessage()).contains("acl_sql");
        assertThat(api.postJson("/v1/sql", query, "Authorization", BOB).json().get("rows")).hasSize(2);
    }

    /**
     * 200 principals, at most 4 open at once: every principal's session is closed when it is
     * evicted, with the table handles and the connection it held, and nothing stays open once the
     * gateway closes.
     */
    @Test
    void evictedPrincipalsCloseEverythingTheirSessionsHeld() throws Exception {
        TablePath path = TablePath.of("evictions", "accounts");
        List<AclBinding> acls = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            acls.add(new AclBinding(Resource.table(path), new AccessControlEntry(new FlussPrincipal("user" + i, "User"),
                    AccessControlEntry.WILD_CARD_HOST, OperationType.READ, PermissionType.ALLOW)));
        }
        keyedTable(path, "one");
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createAcls(acls).all().get();
        }

        Gateway many = Gateway.builder().clientConfig(cluster.clientConfig()).auth(Auth.BASIC).maxPrincipals(4)
                .host("127.0.0.1").port(0).start();
        try {
            Api manyApi = new Api(many);
            for (int i = 0; i < MANY; i++) {
                Api.Response row = manyApi.get("/v1/databases/evictions/tables/accounts/rows/1", "Authorization",
                        basic("user" + i, "secret" + i));
                assertThat(row.status()).as("user%d: %s", i, row.text()).isEqualTo(200);
                assertThat(row.json().get("name").asText()).isEqualTo("one");
            }
            // Evicted sessions close in the background (a Fluss connection takes about 2 s to close).
            await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
                Sessions.Counts counts = many.sessionCounts();
                assertThat(counts.opened()).isEqualTo(MANY);
                assertThat(counts.live()).isLessThanOrEqualTo(4);
                assertThat(counts.closed()).isEqualTo(MANY - counts.live());
                assertThat(counts.connectionsClosed()).isEqualTo(counts.closed());
                // Every session opened the table once; the closed ones closed it again.
                assertThat(counts.tablesOpened()).isEqualTo(MANY);
                assertThat(counts.tablesClosed()).isEqualTo(counts.closed());
            });
        } finally {
            many.close();
        }
        Sessions.Counts counts = many.sessionCounts();
        assertThat(counts.live()).isZero();
        assertThat(counts.closed()).isEqualTo(MANY);
        assertThat(counts.connectionsClosed()).isEqualTo(MANY);
        assertThat(counts.tablesClosed()).isEqualTo(MANY);
    }

    @Test
    void mcpAsksForCredentialsAndRunsEachToolCallAsItsCaller() throws Exception {
        String initialize = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
                + "{\"protocolVersion\": \"2025-06-18\", \"capabilities\": {}, \"clientInfo\": {\"name\": \"t\", "
                + "\"version\": \"1\"}}}";
        for (String[] headers : List.of(new String[] {"Accept", "application/json, text/event-stream"},
                new String[] {"Accept", "application/json, text/event-stream", "Authorization", basic("alice", "wrong")},
                new String[] {"Accept", "application/json, text/event-stream", "Authorization", "Bearer abc"})) {
            Api.Response response = api.postJson("/mcp", initialize, headers);
            assertThat(response.status()).as(response.text()).isEqualTo(401);
            assertThat(response.header("WWW-Authenticate")).isEqualTo("Basic realm=\"riffle\"");
            assertThat(response.errorCode()).isEqualTo("unauthenticated");
        }

        TablePath path = TablePath.of("mcp_acl", "events");
        keyedTable(path, "one", "two");
        try (McpSyncClient alice = McpClients.http(gateway.url(), Map.of("Authorization", ALICE));
                McpSyncClient admin = McpClients.http(gateway.url(), Map.of("Authorization", ADMIN))) {
            alice.initialize();
            admin.initialize();
            // Fluss decides: alice has no ACL on the table, the super user may read it.
            McpSchema.CallToolResult denied = McpClients.call(alice, "sample", Map.of("table", path.toString()));
            assertThat(denied.isError()).isTrue();
            assertThat(McpClients.text(denied)).startsWith("[forbidden] ");
            McpSchema.CallToolResult lookedUp = McpClients.call(alice, "lookup", Map.of("table", path.toString(),
                    "key", Map.of("id", 2)));
            assertThat(McpClients.text(lookedUp)).startsWith("[forbidden] ");
            assertThat(McpClients.text(McpClients.call(admin, "sample", Map.of("table", path.toString()))))
                    .contains("one", "two", "(2 rows)");

            // As for all SQL: the database must be visible to her, and the table readable.
            grantDatabase("alice", path.getDatabaseName(), OperationType.DESCRIBE);
            assertThat(McpClients.text(McpClients.call(alice, "sample", Map.of("table", path.toString()))))
                    .startsWith("[forbidden] ");
            grant("alice", path, OperationType.READ);
            McpSchema.CallToolResult sampled = McpClients.call(alice, "sample", Map.of("table", path.toString()));
            assertThat(sampled.isError()).as(McpClients.text(sampled)).isFalse();
            assertThat(McpClients.text(sampled)).contains("one", "two", "(2 rows)");
            assertThat(McpClients.text(McpClients.call(alice, "lookup", Map.of("table", path.toString(), "key",
                    Map.of("id", 2))))).contains("two");
            // Read-only by default, even for the super user.
            assertThat(McpClients.text(McpClients.call(admin, "query", Map.of("sql", "DELETE FROM " + path
                    + " WHERE id = 1")))).startsWith("[read_only] ");
        }
    }

    /** A table (id INT primary key, name STRING) made by the super user, holding {@code names} under ids 1, 2, ... */
    private static void keyedTable(TablePath path, String... names) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createDatabase(path.getDatabaseName(), DatabaseDescriptor.EMPTY, true).get();
            admin.createTable(path, TableDescriptor.builder()
                    .schema(Schema.newBuilder().column("id", DataTypes.INT()).column("name", DataTypes.STRING())
                            .primaryKey("id").build())
                    .distributedBy(1, "id").build(), false).get();
            try (Table table = connection.getTable(path)) {
                UpsertWriter writer = table.newUpsert().createWriter();
                for (int i = 0; i < names.length; i++) {
                    writer.upsert(GenericRow.of(i + 1, BinaryString.fromString(names[i])));
                }
                writer.flush();
            }
        }
    }

    private static void grant(String user, TablePath path, OperationType operation) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createAcls(List.of(new AclBinding(Resource.table(path), new AccessControlEntry(
                    new FlussPrincipal(user, "User"), AccessControlEntry.WILD_CARD_HOST, operation,
                    PermissionType.ALLOW)))).all().get();
        }
    }

    private static void grantDatabase(String user, String database, OperationType operation) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(cluster.clientConfig());
                Admin admin = connection.getAdmin()) {
            admin.createAcls(List.of(new AclBinding(Resource.database(database), new AccessControlEntry(
                    new FlussPrincipal(user, "User"), AccessControlEntry.WILD_CARD_HOST, operation,
                    PermissionType.ALLOW)))).all().get();
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + b64(user + ":" + password);
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(UTF_8));
    }
}
