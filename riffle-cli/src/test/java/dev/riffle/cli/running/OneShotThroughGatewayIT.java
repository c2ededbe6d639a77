package dev.riffle.cli.running;

import static org.assertj.core.api.Assertions.assertThat;

import dev.riffle.cli.CapturedRun;
import dev.riffle.gateway.Gateway;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import io.micrometer.core.instrument.Timer;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * One-shot commands ({@code riffle sql -e}, {@code riffle read}, {@code riffle tier --status}) answered
 * by a running gateway that serves their cluster print exactly what they print when they connect to
 * the cluster themselves ({@code --direct}), on every Fluss type and in every format; and they pass
 * over a gateway that is no longer there.
 */
@ExtendWith(LocalClusterExtension.class)
class OneShotThroughGatewayIT {
    private static final String[] COLUMNS = {"id", "flag", "tiny", "small", "big", "r", "d", "dec_small", "dec_wide",
        "name", "raw", "day", "t3", "ts3", "ts9", "ltz3", "ltz9", "ints", "weights", "point"};
    private static final String[] TYPES = {"INT NOT NULL", "BOOLEAN", "TINYINT", "SMALLINT", "BIGINT", "FLOAT",
        "DOUBLE", "DECIMAL(5, 2)", "DECIMAL(38, 10)", "STRING", "BYTES", "DATE", "TIME(3)", "TIMESTAMP(3)",
        "TIMESTAMP(9)", "TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(9)", "ARRAY<INT>", "MAP<STRING, DOUBLE>",
        "ROW<x INT, y STRING>"};
    private static final String ROWS = "["
            + "{\"id\": 1, \"flag\": true, \"tiny\": -128, \"small\": 32767, \"big\": 9007199254740993, \"r\": 0.1,"
            + " \"d\": 0.1, \"dec_small\": -999.99, \"dec_wide\": 1234567890123456789012345678.0000000001,"
            + " \"name\": \"h\u00e9llo, \\\"quoted\\\"\\nline\", \"raw\": \"AAEC/w==\", \"day\": \"1969-12-31\","
            + " \"t3\": \"12:30:00.250\", \"ts3\": \"1960-01-01T00:00:00.001\","
            + " \"ts9\": \"2024-02-29T23:59:59.123456789\", \"ltz3\": \"1969-12-31T23:59:59.999Z\","
            + " \"ltz9\": \"1960-06-01T00:00:00.000000001Z\", \"ints\": [1, null, -2],"
            + " \"weights\": {\"a\": 0.5, \"b\": null}, \"point\": {\"x\": 7, \"y\": \"seven\"}},"
            + "{\"id\": 2, \"flag\": null, \"tiny\": null, \"small\": null, \"big\": null, \"r\": null, \"d\": null,"
            + " \"dec_small\": null, \"dec_wide\": null, \"name\": null, \"raw\": null, \"day\": null, \"t3\": null,"
            + " \"ts3\": null, \"ts9\": null, \"ltz3\": null, \"ltz9\": null, \"ints\": null, \"weights\": null,"
            + " \"point\": null},"
            + "{\"id\": 3, \"flag\": false, \"tiny\": 0, \"small\": -1, \"big\": -9223372036854775808,"
            + " \"r\": -3.4028235E38, \"d\": 1.0E-300, \"dec_small\": 0.01, \"dec_wide\": -0.0000000001,"
            + " \"name\": \"\", \"raw\": \"\", \"day\": \"2024-02-29\", \"t3\": \"00:00:00\","
            + " \"ts3\": \"2024-06-01T12:30:00.120\", \"ts9\": \"1969-12-31T23:59:59.999999999\","
            + " \"ltz3\": \"1970-01-01T00:00:00Z\", \"ltz9\": \"2024-06-01T12:30:00.123456789Z\", \"ints\": [],"
            + " \"weights\": {}, \"point\": {\"x\": null, \"y\": null}}]";

    @TempDir
    Path runDir;
    private String runDirBefore;

    @BeforeEach
    void publishHere() {
        runDirBefore = System.getProperty(RunningGateways.DIRECTORY_PROPERTY);
        System.setProperty(RunningGateways.DIRECTORY_PROPERTY, runDir.toString());
    }

    @AfterEach
    void forget() {
        if (runDirBefore == null) {
            System.clearProperty(RunningGateways.DIRECTORY_PROPERTY);
        } else {
            System.setProperty(RunningGateways.DIRECTORY_PROPERTY, runDirBefore);
        }
    }

    static CapturedRun run(String... args) {
        return CapturedRun.of(args);
    }

    @Test
    void sqlAndReadPrintTheSameThroughTheGatewayAsOnTheirOwnConnection(LocalCluster cluster, Connection connection,
            TestNames names) throws Exception {
        TablePath path = names.table("every_type");
        Schema.Builder schema = Schema.newBuilder();
        for (int c = 0; c < COLUMNS.length; c++) {
            schema.column(COLUMNS[c], DataTypeParser.parse(TYPES[c]));
        }
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema.build()).distributedBy(1).build(), false)
                    .get();
        }
        String bootstrap = cluster.bootstrapServers();
        String table = path.getDatabaseName() + "." + path.getTableName();
        String pkTable = table + "_pk";
        try (Gateway gateway = Gateway.start(connection, 0);
                RunningGateways.Publication published = new RunningGateways(runDir).publish(bootstrap, gateway.url())) {
            HttpResponse<String> written = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    java.net.URI.create(gateway.url() + "/v1/databases/" + path.getDatabaseName() + "/tables/"
                            + path.getTableName() + "/rows")).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(ROWS)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(written.statusCode()).as(written.body()).isEqualTo(200);
            CapturedRun pk = run("sql", "--bootstrap-servers", bootstrap, "--direct", "-e", "CREATE TABLE " + pkTable
                    + " (id INT NOT NULL, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1');"
                    + " INSERT INTO " + pkTable + " VALUES (1, 'one'), (2, 'two'); INSERT INTO " + pkTable
                    + " VALUES (2, 'zwei')");
            assertThat(pk.code()).as(pk.out() + pk.err()).isZero();

            List<List<String>> commands = List.of(
                    List.of("sql", "-e", "SELECT * FROM " + table + " ORDER BY id"),
                    List.of("sql", "-e", "SELECT * FROM " + table),
                    List.of("sql", "--format", "csv", "-e", "SELECT * FROM " + table),
                    List.of("sql", "--format", "json", "-e", "SELECT * FROM " + table + " ORDER BY id"),
                    List.of("sql", "--format", "arrow", "-e", "SELECT id, name, ts9, ints FROM " + table),
                    List.of("read", table, "--format", "arrow", "--columns", "id,ltz9,point"),
                    List.of("sql", "-e", "SELECT count(*), max(big), 1 + 1 FROM " + table),
                    List.of("sql", "-e", "SELECT 1 AS x; SELECT * FROM " + path.getDatabaseName() + ".nope; SELECT 2"),
                    List.of("read", table, "--format", "json"),
                    List.of("read", table, "--columns", "id,name,ts9", "--from", "0:1", "--until", "0:3"),
                    List.of("read", table, "--changelog", "--format", "csv", "--columns", "id,ltz9"),
                    List.of("read", path.getDatabaseName() + ".nope"),
                    List.of("read", table, "--source", "lake"),
                    List.of("read", table, "--source", "current"),
                    List.of("read", table, "--source", "log", "--format", "csv"),
                    List.of("read", pkTable, "--from", "0:1"),
                    List.of("read", pkTable, "--changelog", "--columns", "id,name"),
                    List.of("read", pkTable, "--format", "json"));
            for (List<String> command : commands) {
                long before = apiRequests(gateway);
                CapturedRun through = run(withBootstrap(command, bootstrap, false));
                long after = apiRequests(gateway);
                CapturedRun direct = run(withBootstrap(command, bootstrap, true));
                assertThat(after).as("%s was answered by the gateway", command).isGreaterThan(before);
                assertThat(apiRequests(gateway)).as("%s --direct did not ask the gateway", command)
                        .isEqualTo(after);
                assertThat(through.code()).as("%s: exit code%n%s", command, through.err()).isEqualTo(direct.code());
                assertThat(through.bytes()).as("%s: stdout", command).isEqualTo(direct.bytes());
                if (direct.code() != 0) { // else stderr has the read's summary, which names buckets only when it knows them
                    assertThat(firstLine(through.err())).as("%s: stderr", command).isEqualTo(firstLine(direct.err()));
                }
            }
            // What the comparison above rests on: the rows are all there, as written (a read of one
            // bucket, in the order written; a bare read keeps every digit of a timestamp).
            CapturedRun csv = run("sql", "--bootstrap-servers", bootstrap, "--format", "csv", "-e",
                    "SELECT id, name, ts9, ltz9 FROM " + table);
            assertThat(csv.out()).isEqualTo("id,name,ts9,ltz9\r\n"
                    + "1,\"h\u00e9llo, \"\"quoted\"\"\nline\",2024-02-29T23:59:59.123456789,1960-06-01T00:00:00.000000001Z\r\n"
                    + "2,,,\r\n"
                    + "3,,1969-12-31T23:59:59.999999999,2024-06-01T12:30:00.123456789Z\r\n");
            // DDL and writes say what they did, as on the command's own connection.
            CapturedRun changes = run("sql", "--bootstrap-servers", bootstrap, "-e", "CREATE TABLE " + table
                    + "_copy (id INT, name STRING); INSERT INTO " + table + "_copy SELECT id, name FROM " + table);
            assertThat(changes.out()).as(changes.err()).isEqualTo("OK\nOK, 3 rows changed\n");
        }
    }

    @Test
    void aGatewayThatIsGoneIsPassedOverAndARecordOfAnEndedProcessIsRemoved(LocalCluster cluster) throws Exception {
        String bootstrap = cluster.bootstrapServers();
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        // This process is alive, but nothing answers at the address it published.
        try (RunningGateways.Publication stale = new RunningGateways(runDir).publish(bootstrap,
                "http://127.0.0.1:" + closedPort)) {
            CapturedRun answered = run("sql", "--bootstrap-servers", bootstrap, "-e", "SELECT 40 + 2 AS answer");
            assertThat(answered.code()).as(answered.err()).isZero();
            assertThat(answered.out()).isEqualTo(" answer\n--------\n 42\n(1 row)\n");
            CapturedRun status = run("tier", "--status", "--bootstrap-servers", bootstrap);
            assertThat(status.code()).as(status.err()).isZero();
        }
        // A record left behind by a process that has ended is not a gateway, and goes.
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path left = runDir.resolve(ended.pid() + "-1.gateway");
        Files.writeString(left, "pid=" + ended.pid() + "\nbootstrap.servers=" + bootstrap.replace(":", "\\:")
                + "\nurl=http\\://127.0.0.1\\:1\n");
        assertThat(new RunningGateways(runDir).find(bootstrap)).isEmpty();
        assertThat(left).doesNotExist();
    }

    @Test
    void tierStatusReadsTheSameFromTheGateway(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("lake_status");
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(Schema.newBuilder().column("id",
                            DataTypeParser.parse("INT")).build()).distributedBy(2)
                    .property("table.datalake.enabled", "true").build(), false).get();
        }
        String bootstrap = cluster.bootstrapServers();
        try (Gateway gateway = Gateway.start(connection, 0);
                RunningGateways.Publication published = new RunningGateways(runDir).publish(bootstrap, gateway.url())) {
            CapturedRun through = run("tier", "--status", "--bootstrap-servers", bootstrap);
            CapturedRun direct = run("tier", "--status", "--direct", "--bootstrap-servers", bootstrap);
            assertThat(through.code()).as(through.err()).isZero();
            assertThat(through.out()).contains(path.toString()).isEqualTo(direct.out());
        }
    }

    private static long apiRequests(Gateway gateway) {
        return gateway.meterRegistry().find("riffle.gateway.requests").timers().stream()
                .filter(timer -> timer.getId().getTag("route") != null && timer.getId().getTag("route").startsWith("/v1"))
                .mapToLong(Timer::count).sum();
    }

    private static String[] withBootstrap(List<String> command, String bootstrap, boolean direct) {
        List<String> args = new java.util.ArrayList<>(command);
        args.add("--bootstrap-servers");
        args.add(bootstrap);
        if (direct) {
            args.add("--direct");
        }
        return args.toArray(String[]::new);
    }

    /** The first line: the one a failure prints. */
    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("");
    }
}
