package dev.riffle.cli.serve;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.riffle.gateway.Gateway;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.List;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.metadata.DatabaseDescriptor;
import org.apache.fluss.security.acl.AccessControlEntry;
import org.apache.fluss.security.acl.AclBinding;
import org.apache.fluss.security.acl.FlussPrincipal;
import org.apache.fluss.security.acl.OperationType;
import org.apache.fluss.security.acl.PermissionType;
import org.apache.fluss.security.acl.Resource;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code riffle serve} in-process against the test JVM's cluster: it answers, runs SQL, and stops
 * with 0; beyond loopback it needs {@code --auth}; {@code --auth basic} passes HTTP Basic
 * credentials to a SASL cluster.
 */
@ExtendWith(LocalClusterExtension.class)
class ServeCommandIT {

    @Test
    void servesTheGatewayWithSqlUntilStopped(LocalCluster cluster, Connection fluss, TestNames names) throws Exception {
        TablePath path = names.table("served");
        try (Admin admin = fluss.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(Schema.newBuilder().column("id", DataTypes.INT())
                    .build()).distributedBy(1).build(), false).get();
        }
        try (Table table = fluss.getTable(path)) {
            AppendWriter writer = table.newAppend().createWriter();
            for (int i = 0; i < 5; i++) {
                writer.append(GenericRow.of(i));
            }
            writer.flush();
        }

        ServeCommand serve = new ServeCommand();
        StringWriter out = new StringWriter();
        CommandLine commandLine = new CommandLine(serve);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(out, true));
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> commandLine.execute(
                "--bootstrap-servers", cluster.bootstrapServers(), "--http-port", "0", "--http-host", "127.0.0.1",
                "--flight-port", "0", "--pg-port", "0", "--console", "read-only"));
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> serve.gateway() != null || exit.isDone());
            Gateway gateway = serve.gateway();
            assertThat(gateway).as(out.toString()).isNotNull();
            assertThat(out.toString()).contains(gateway.url(), "jdbc:riffle://" + cluster.bootstrapServers());

            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> health = client.send(HttpRequest.newBuilder(URI.create(gateway.url() + "/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);

            // The web console, read-only as asked.
            assertThat(out.toString()).contains("Web console:   " + gateway.url() + "/   (read-only)");
            HttpResponse<String> settings = client.send(HttpRequest.newBuilder(
                    URI.create(gateway.url() + "/console/settings.json")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(settings.body()).isEqualTo("{\"mode\":\"read-only\",\"auth\":\"none\"}");

            String sql = "{\"sql\": \"SELECT count(*) AS n, sum(id) AS s FROM " + path.getDatabaseName() + "."
                    + path.getTableName() + "\"}";
            HttpResponse<String> answer = client.send(HttpRequest.newBuilder(URI.create(gateway.url() + "/v1/sql"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(sql, UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            assertThat(answer.body()).contains("\"rows\":[{\"n\":5,\"s\":10}]");
        } finally {
            serve.stop();
        }
        assertThat(exit.get(60, TimeUnit.SECONDS)).as(out.toString()).isZero();
        assertThat(out.toString()).contains("Stopped.");
    }

    @Test
    void refusesToServeEveryInterfaceWithoutBeingToldHowToAuthenticate(LocalCluster cluster) {
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new ServeCommand());
        commandLine.setOut(new PrintWriter(new StringWriter(), true));
        commandLine.setErr(new PrintWriter(err, true));
        // The default host is every interface: nothing is bound, the command says what to give.
        int exit = commandLine.execute("--bootstrap-servers", cluster.bootstrapServers(), "--http-port", "0",
                "--flight-port", "0", "--pg-port", "0");
        assertThat(exit).as(err.toString()).isEqualTo(2);
        assertThat(err.toString()).contains("listens on 0.0.0.0, beyond loopback", "--auth basic", "--auth none",
                "--http-host 127.0.0.1");

        StringWriter badAuth = new StringWriter();
        CommandLine bad = new CommandLine(new ServeCommand());
        bad.setErr(new PrintWriter(badAuth, true));
        assertThat(bad.execute("--bootstrap-servers", cluster.bootstrapServers(), "--auth", "kerberos"))
                .isEqualTo(2);
        assertThat(badAuth.toString()).contains("--auth takes none or basic, got 'kerberos'");
    }

    @Test
    void loopbackHostsAreTheOnlyOnesServedWithoutAuth() {
        assertThat(ServeCommand.loopback("127.0.0.1")).isTrue();
        assertThat(ServeCommand.loopback("localhost")).isTrue();
        assertThat(ServeCommand.loopback("::1")).isTrue();
        assertThat(ServeCommand.loopback("0.0.0.0")).isFalse();
        assertThat(ServeCommand.loopback("::")).isFalse();
        assertThat(ServeCommand.loopback("no-such-host.invalid")).isFalse();
    }

    @Test
    void basicAuthPassesCallersToAFlussClusterWithSasl(@TempDir Path dataDir) throws Exception {
        Path pgUsers = Files.writeString(dataDir.resolveSibling(dataDir.getFileName() + "-pg-users"),
                "alice:alice-secret\nbob:bob-secret\n");
        try (LocalCluster sasl = LocalCluster.builder().dataDir(dataDir).coordinatorPort(0).lakeEnabled(false)
                .saslUsers(Map.of("admin", "admin-secret", "alice", "alice-secret", "bob", "bob-secret")).start()) {
            ServeCommand serve = new ServeCommand();
            serve.environment = name -> name.equals(ServeCommand.SERVICE_PASSWORD_ENV) ? "admin-secret" : null;
            StringWriter out = new StringWriter();
            CommandLine commandLine = new CommandLine(serve);
            commandLine.setOut(new PrintWriter(out, true));
            commandLine.setErr(new PrintWriter(out, true));
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> commandLine.execute(
                    "--bootstrap-servers", sasl.bootstrapServers(), "--http-port", "0", "--http-host", "127.0.0.1", "--flight-port", "0", "--pg-port", "0",
                    "--auth", "basic", "--service-user", "admin", "--pg-password-file", pgUsers.toString()));
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> serve.gateway() != null || exit.isDone());
                Gateway gateway = serve.gateway();
                assertThat(gateway).as(out.toString()).isNotNull();
                assertThat(out.toString()).contains("HTTP Basic, Flight SQL and PostgreSQL logins as Fluss SASL/PLAIN users")
                        .contains("psql \"host=127.0.0.1 port=").contains("dbname=riffle user=USER\"");
                HttpClient client = HttpClient.newHttpClient();
                // The gateway's own connection (the service user) answers readiness.
                HttpResponse<String> ready = client.send(HttpRequest.newBuilder(URI.create(gateway.url() + "/ready"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);

                URI databases = URI.create(gateway.url() + "/v1/databases");
                HttpResponse<String> anonymous = client.send(HttpRequest.newBuilder(databases).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(anonymous.statusCode()).isEqualTo(401);
                assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                        challenge -> assertThat(challenge).startsWith("Basic"));
                HttpResponse<String> wrong = client.send(HttpRequest.newBuilder(databases)
                        .header("Authorization", basic("alice", "not-her-secret")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(wrong.statusCode()).as(wrong.body()).isEqualTo(401);
                HttpResponse<String> alice = client.send(HttpRequest.newBuilder(databases)
                        .header("Authorization", basic("alice", "alice-secret")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(alice.statusCode()).as(alice.body()).isEqualTo(200);

                // PostgreSQL clients log in by SCRAM-SHA-256 as the users of --pg-password-file.
                await().atMost(Duration.ofSeconds(10)).until(() -> out.toString().contains("Press Ctrl-C"));
                assertThat(out.toString()).contains("SCRAM-SHA-256 logins (users of " + pgUsers + "), no TLS");
                Matcher pg = Pattern.compile("\\(JDBC: (jdbc:postgresql:\\S+)\\)").matcher(out.toString());
                assertThat(pg.find()).as(out.toString()).isTrue();
                Properties login = new Properties();
                login.setProperty("user", "alice");
                login.setProperty("password", "alice-secret");
                try (java.sql.Connection sql = DriverManager.getConnection(pg.group(1), login);
                        ResultSet rs = sql.createStatement().executeQuery("SELECT 1 + 1")) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getInt(1)).isEqualTo(2);
                }
                login.setProperty("password", "wrong");
                SQLException wrongPg = assertThrows(SQLException.class,
                        () -> DriverManager.getConnection(pg.group(1), login));
                assertThat(wrongPg.getSQLState()).isEqualTo("28P01");

                // alice reads and writes through every surface: one session, one Fluss connection.
                try (Connection admin = ConnectionFactory.createConnection(sasl.clientConfig());
                        Admin acls = admin.getAdmin()) {
                    acls.createDatabase("shop", DatabaseDescriptor.EMPTY, false).get();
                    acls.createTable(TablePath.of("shop", "notes"), TableDescriptor.builder().schema(Schema.newBuilder()
                            .column("id", DataTypes.INT()).column("note", DataTypes.STRING()).build()).build(), false)
                            .get();
                    acls.createAcls(List.of(new AclBinding(Resource.database("shop"), new AccessControlEntry(
                            new FlussPrincipal("alice", "User"), AccessControlEntry.WILD_CARD_HOST, OperationType.ALL,
                            PermissionType.ALLOW)), new AclBinding(Resource.database("shop"), new AccessControlEntry(
                            new FlussPrincipal("bob", "User"), AccessControlEntry.WILD_CARD_HOST, OperationType.READ,
                            PermissionType.ALLOW)))).all().get();
                }
                login.setProperty("password", "alice-secret");
                assertThat(insertAndCount(pg.group(1), login, "(1, 'over PostgreSQL')")).isEqualTo(1);
                HttpResponse<String> written = client.send(HttpRequest.newBuilder(URI.create(gateway.url()
                        + "/v1/databases/shop/tables/notes/rows")).header("Authorization", basic("alice", "alice-secret"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("[{\"id\": 2, \"note\": \"over HTTP\"}]")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
                HttpResponse<String> counted = client.send(HttpRequest.newBuilder(URI.create(gateway.url() + "/v1/sql"))
                        .header("Authorization", basic("alice", "alice-secret")).header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"sql\": \"SELECT count(*) AS n FROM shop.notes\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(counted.statusCode()).as(counted.body()).isEqualTo(200);
                assertThat(counted.body()).contains("\"n\":2");
                Matcher flight = Pattern.compile("Flight SQL:\\s+\\S+\\s+\\(JDBC: (jdbc:arrow-flight-sql:\\S+)\\)")
                        .matcher(out.toString());
                assertThat(flight.find()).as(out.toString()).isTrue();
                assertThat(insertAndCount(flight.group(1), login, "(3, 'over Flight SQL')")).isEqualTo(3);
                // bob never calls the gateway: his session is opened by PostgreSQL and kept by Flight SQL.
                Properties bob = new Properties();
                bob.setProperty("user", "bob");
                bob.setProperty("password", "bob-secret");
                for (String url : List.of(pg.group(1), flight.group(1))) {
                    try (java.sql.Connection sql = DriverManager.getConnection(url, bob);
                            ResultSet rs = sql.createStatement().executeQuery("SELECT count(*) FROM shop.notes")) {
                        assertThat(rs.next()).isTrue();
                        assertThat(rs.getLong(1)).as(url).isEqualTo(3);
                    }
                }
                String metrics = client.send(HttpRequest.newBuilder(URI.create(gateway.url() + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                List<String> connections = metrics.lines().filter(line -> line.startsWith("riffle_fluss_connections{"))
                        .sorted().toList();
                // One a principal, whichever surfaces it came through, and the service user's (the servers'
                // metadata and lake reads).
                assertThat(connections).as(metrics).containsExactly("riffle_fluss_connections{owner=\"alice\"} 1.0",
                        "riffle_fluss_connections{owner=\"bob\"} 1.0", "riffle_fluss_connections{owner=\"server\"} 1.0");
            } finally {
                serve.stop();
            }
            assertThat(exit.get(60, TimeUnit.SECONDS)).as(out.toString()).isZero();
        }
    }

    /** Inserts {@code row} into {@code shop.notes} over the JDBC {@code url}, then counts the table's rows there. */
    private static long insertAndCount(String url, Properties login, String row) throws SQLException {
        try (java.sql.Connection sql = DriverManager.getConnection(url, login);
                java.sql.Statement statement = sql.createStatement()) {
            assertThat(statement.executeUpdate("INSERT INTO shop.notes VALUES " + row)).as(url).isEqualTo(1);
            try (ResultSet rs = statement.executeQuery("SELECT count(*) FROM shop.notes")) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(UTF_8));
    }
}
