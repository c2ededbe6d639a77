package dev.riffle.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.riffle.local.junit.SelfSignedCertificate;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.DatabaseDescriptor;
import java.time.Duration;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataTypes;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.source.ReadBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code riffle local} as a user runs it: a separate JVM, a Fluss client, then SIGTERM. */
class LocalCommandIT {
    private static final Pattern BOOTSTRAP = Pattern.compile("Fluss bootstrap servers\\s+(\\S+)");

    @Test
    void acceptsAFlussClientWithin20SecondsAndStopsCleanlyOnSigterm(@TempDir Path dataDir) throws Exception {
        Path stdout = dataDir.resolveSibling(dataDir.getFileName() + "-stdout.txt");
        SelfSignedCertificate tls = SelfSignedCertificate.create(
                Files.createDirectories(dataDir.resolveSibling(dataDir.getFileName() + "-tls")));
        Path runDir = dataDir.resolveSibling(dataDir.getFileName() + "-run");
        ProcessBuilder start = new ProcessBuilder(javaCommand("local", "--data-dir", dataDir.toString(), "--port", "0",
                "--http-port", "0", "--flight-port", "0", "--pg-port", "0", "--pg-tls-cert", tls.certificate().toString(),
                "--pg-tls-key", tls.privateKey().toString()))
                .redirectErrorStream(true).redirectOutput(stdout.toFile());
        start.environment().put("RIFFLE_RUN_DIR", runDir.toString());
        Process process = start.start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            String bootstrap = null;
            while (bootstrap == null && System.nanoTime() < deadline && process.isAlive()) {
                Matcher m = BOOTSTRAP.matcher(Files.readString(stdout, UTF_8));
                if (m.find()) {
                    bootstrap = m.group(1);
                } else {
                    Thread.sleep(100); // polling a child's output file; no event to wait on
                }
            }
            assertThat(bootstrap).as("bootstrap address printed within 20 s; output:%n%s", Files.readString(stdout, UTF_8))
                    .isNotNull();

            // The HTTP gateway runs too, at the address it printed.
            Matcher gateway = Pattern.compile("HTTP gateway\\s+(\\S+)").matcher(Files.readString(stdout, UTF_8));
            assertThat(gateway.find()).as("gateway address printed").isTrue();
            java.net.http.HttpResponse<String> health = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(gateway.group(1) + "/health")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            // It says on this machine that its gateway serves the cluster, so one-shot commands answer through it.
            assertThat(new dev.riffle.cli.running.RunningGateways(runDir).find(bootstrap))
                    .as("a gateway published in %s", runDir)
                    .hasValueSatisfying(running -> assertThat(running.url().toString()).isEqualTo(gateway.group(1)));
            // With its web console at the root.
            Matcher console = Pattern.compile("Web console\\s+(\\S+)").matcher(Files.readString(stdout, UTF_8));
            assertThat(console.find()).as("console address printed").isTrue();
            java.net.http.HttpResponse<String> page = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(console.group(1))).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>Riffle console</title>");
            // And MCP's streamable HTTP transport, read-only unless --mcp-allow-writes.
            Matcher mcp = Pattern.compile("MCP\\s+(\\S+)\\s+\\(read-only\\)").matcher(Files.readString(stdout, UTF_8));
            assertThat(mcp.find()).as("MCP address printed").isTrue();
            assertThat(mcp.group(1)).isEqualTo(gateway.group(1) + "/mcp");
            java.net.http.HttpResponse<String> initialized = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(mcp.group(1)))
                            .header("Content-Type", "application/json")
                            .header("Accept", "application/json, text/event-stream")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"jsonrpc\": \"2.0\", \"id\": 1, "
                                    + "\"method\": \"initialize\", \"params\": {\"protocolVersion\": \"2025-06-18\", "
                                    + "\"capabilities\": {}, \"clientInfo\": {\"name\": \"t\", \"version\": \"1\"}}}"))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
            assertThat(initialized.body()).contains("\"serverInfo\":{\"name\":\"riffle\"");
            // So does Flight SQL: the JDBC URL it printed answers a query through the Flight SQL JDBC driver.
            Matcher flight = Pattern.compile("Flight SQL JDBC URL\\s+(\\S+)").matcher(Files.readString(stdout, UTF_8));
            assertThat(flight.find()).as("Flight SQL JDBC URL printed").isTrue();
            try (java.sql.Connection sql = java.sql.DriverManager.getConnection(flight.group(1));
                    java.sql.ResultSet rs = sql.createStatement().executeQuery("SELECT 1 + 1 AS two")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("two")).isEqualTo(2);
            }
            // And the PostgreSQL protocol, here over TLS (--pg-tls-cert): a ready psql command, and a pgjdbc URL
            // that answers a query.
            assertThat(Files.readString(stdout, UTF_8)).containsPattern(
                    "PostgreSQL \\(psql\\)\\s+psql \"host=127\\.0\\.0\\.1 port=\\d+ dbname=riffle sslmode=require\"");
            Matcher pg = Pattern.compile("PostgreSQL JDBC URL\\s+(\\S+)").matcher(Files.readString(stdout, UTF_8));
            assertThat(pg.find()).as("PostgreSQL JDBC URL printed").isTrue();
            java.util.Properties pgUser = new java.util.Properties();
            pgUser.setProperty("user", "riffle");
            try (java.sql.Connection sql = java.sql.DriverManager.getConnection(pg.group(1), pgUser);
                    java.sql.ResultSet rs = sql.createStatement().executeQuery("SELECT 1 + 1 AS two")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt("two")).isEqualTo(2);
            }
            // It says how much heap the whole process (cluster, lake, gateway) has.
            assertThat(Files.readString(stdout, UTF_8)).containsPattern("Heap limit\\s+\\d+(\\.\\d GiB| MiB)");

            Configuration conf = new Configuration();
            conf.setString("bootstrap.servers", bootstrap);
            try (Connection connection = ConnectionFactory.createConnection(conf); Admin admin = connection.getAdmin()) {
                admin.createDatabase("from_client", DatabaseDescriptor.EMPTY, false).get(20, TimeUnit.SECONDS);
                assertThat(admin.listDatabases().get(20, TimeUnit.SECONDS)).contains("fluss", "from_client");

                // riffle local tiers: a datalake table reaches the Paimon warehouse within its freshness.
                TablePath lakeTable = TablePath.of("from_client", "tiered");
                admin.createTable(lakeTable, TableDescriptor.builder()
                        .schema(Schema.newBuilder().column("id", DataTypes.INT()).build()).distributedBy(1)
                        .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s").build(),
                        false).get(20, TimeUnit.SECONDS);
                try (Table table = connection.getTable(lakeTable)) {
                    AppendWriter writer = table.newAppend().createWriter();
                    for (int i = 0; i < 10; i++) {
                        writer.append(GenericRow.of(i));
                    }
                    writer.flush();
                }
                await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                        .until(() -> paimonRowCount(dataDir.resolve("lake"), lakeTable) == 10);
            }
            long stopAsked = System.nanoTime();
            process.destroy(); // SIGTERM
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("stopped within 90 s").isTrue();
            assertThat(process.exitValue()).as("exit code after SIGTERM; output:%n%s", Files.readString(stdout, UTF_8))
                    .isZero();
            assertThat(Files.readString(stdout, UTF_8)).contains("Stopped.").doesNotContain("Exception");
            try (var left = Files.list(runDir)) {
                assertThat(left.map(Path::getFileName).map(Path::toString)).as("what a stopped gateway leaves in %s",
                        runDir).noneMatch(name -> name.endsWith(".gateway"));
            }
            System.out.printf("riffle local stopped %.1f s after SIGTERM%n", (System.nanoTime() - stopAsked) / 1e9);
        } finally {
            process.destroyForcibly();
        }
    }

    private static long paimonRowCount(Path warehouse, TablePath path) throws Exception {
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(Options.fromMap(
                java.util.Map.of("warehouse", "file://" + warehouse))))) {
            org.apache.paimon.table.Table table = catalog.getTable(Identifier.create(path.getDatabaseName(), path.getTableName()));
            ReadBuilder read = table.newReadBuilder();
            long[] rows = {0};
            try (RecordReader<InternalRow> reader = read.newRead().createReader(read.newScan().plan())) {
                reader.forEachRemaining(row -> rows[0]++);
            }
            return rows[0];
        }
    }

    private static List<String> javaCommand(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-opens=java.base/java.nio=ALL-UNNAMED");
        // The CLI's own logging setup (CliLogConfigurator), not the tests' console logging.
        command.add("-D" + dev.riffle.cli.logging.CliLogConfigurator.CLI_LOGGING_PROPERTY + "=true");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(RiffleCli.class.getName());
        command.addAll(List.of(args));
        return command;
    }


}
