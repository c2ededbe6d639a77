package dev.riffle.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.riffle.core.values.ArrowValueReader;
import dev.riffle.core.values.JsonValueSink;
import dev.riffle.core.values.ValueText;
import dev.riffle.gateway.Gateway;
import dev.riffle.local.LocalCluster;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Array;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.sql.Struct;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.types.DataTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One table with every Fluss type, written once, read through every surface: HTTP {@code /scan},
 * {@code /rows/{key}}, {@code /v1/sql} in JSON and in Arrow, Flight SQL, PostgreSQL (pgjdbc),
 * {@code riffle read --format json}, and {@code jdbc:riffle}; its current rows and its changelog
 * ({@code /scan} with {@code "changelog": true}, {@code riffle read --changelog}, {@code t$changelog}
 * in SQL), and a tiered log table's lake and log. Every value must come back as it was written,
 * the same on each.
 */
@ExtendWith(LocalClusterExtension.class)
class SurfacesAgreeIT {
    /** Numbers as their decimal text, so that 10.50 and 10.5 stay apart. */
    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    private static final String[] COLUMNS = {"id", "flag", "tiny", "small", "big", "r", "d", "dec_small", "dec_wide",
        "dec_whole", "name", "code", "raw", "fixed", "day", "t0", "t3", "ts0", "ts3", "ts6", "ts9", "ltz3", "ltz6",
        "ltz9", "ints", "weights", "point"};
    private static final String[] TYPES = {"INT NOT NULL", "BOOLEAN", "TINYINT", "SMALLINT", "BIGINT", "FLOAT",
        "DOUBLE", "DECIMAL(5, 2)", "DECIMAL(38, 10)", "DECIMAL(18, 0)", "STRING", "CHAR(3)", "BYTES", "BINARY(2)",
        "DATE", "TIME(0)", "TIME(3)", "TIMESTAMP(0)", "TIMESTAMP(3)", "TIMESTAMP(6)", "TIMESTAMP(9)",
        "TIMESTAMP_LTZ(3)", "TIMESTAMP_LTZ(6)", "TIMESTAMP_LTZ(9)", "ARRAY<INT>", "MAP<STRING, DOUBLE>",
        "ROW<x INT, y STRING>"};

    /**
     * The same rows in PostgreSQL's text format, as docs/pgwire.md gives each type: booleans
     * {@code t}/{@code f}, floats shortest exact, bytea in hex, timestamps with a space and the
     * fraction's trailing zeros dropped but every digit Fluss keeps, {@code timestamptz} with its
     * offset (sessions are UTC), arrays in braces, MAP and ROW as json.
     */
    private static final String[][] PG_TEXT = {
        {"1", "t", "-128", "32767", "9007199254740993", "0.1", "0.1", "-999.99",
            "1234567890123456789012345678.0000000001", "999999999999999999", "h\u00e9llo \"quoted\"\nline", "ab ",
            "\\x000102ff", "\\x0001", "1969-12-31", "12:30:00", "12:30:00", "1969-12-31 23:59:59",
            "1960-01-01 00:00:00.001", "1969-12-31 23:59:59.999999", "2024-02-29 23:59:59.123456789",
            "1969-12-31 23:59:59.999+00", "2024-06-01 12:30:00.123456+00", "1960-06-01 00:00:00.000000001+00",
            "{1,NULL,-2}", "{\"a\":0.5,\"b\":null}", "{\"x\":7,\"y\":\"seven\"}"},
        {"2", null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null,
            null, null, null, null, null, null, null, null, null},
        {"3", "f", "0", "-1", "-9223372036854775808", "-3.4028235e+38", "1e-300", "0.01", "-0.0000000001", "0", "",
            "xyz", "\\x", "\\xffff", "2024-02-29", "23:59:59", "00:00:00.25", "2024-06-01 00:00:00",
            "2024-06-01 12:30:00.12", "2024-06-01 12:30:00.000001", "1969-12-31 23:59:59.999999999",
            "1970-01-01 00:00:00+00", "1969-12-31 23:59:59.999999+00", "2024-06-01 12:30:00.123456789+00", "{}", "{}",
            "{\"x\":null,\"y\":null}"}};

    /**
     * The nested columns, left out of the lake table: a table with them is tiered through Fluss
     * 0.9.1's log scanner, which cannot read a TIMESTAMP(9) before 1970 with a fraction (these rows
     * have two), so it would never reach the lake (see ScannedLogTieringIT).
     */
    private static final List<String> NESTED = List.of("ints", "weights", "point");

    /** The rows as written, which is also how every surface must render them. */
    private static final String ROWS = "["
            + "{\"id\": 1, \"flag\": true, \"tiny\": -128, \"small\": 32767, \"big\": 9007199254740993, \"r\": 0.1,"
            + " \"d\": 0.1, \"dec_small\": -999.99, \"dec_wide\": 1234567890123456789012345678.0000000001,"
            + " \"dec_whole\": 999999999999999999, \"name\": \"héllo \\\"quoted\\\"\\nline\", \"code\": \"ab \","
            + " \"raw\": \"AAEC/w==\", \"fixed\": \"AAE=\", \"day\": \"1969-12-31\", \"t0\": \"12:30:00\","
            + " \"t3\": \"12:30:00\", \"ts0\": \"1969-12-31T23:59:59\", \"ts3\": \"1960-01-01T00:00:00.001\","
            + " \"ts6\": \"1969-12-31T23:59:59.999999\", \"ts9\": \"2024-02-29T23:59:59.123456789\","
            + " \"ltz3\": \"1969-12-31T23:59:59.999Z\", \"ltz6\": \"2024-06-01T12:30:00.123456Z\","
            + " \"ltz9\": \"1960-06-01T00:00:00.000000001Z\", \"ints\": [1, null, -2],"
            + " \"weights\": {\"a\": 0.5, \"b\": null}, \"point\": {\"x\": 7, \"y\": \"seven\"}},"
            + "{\"id\": 2, \"flag\": null, \"tiny\": null, \"small\": null, \"big\": null, \"r\": null, \"d\": null,"
            + " \"dec_small\": null, \"dec_wide\": null, \"dec_whole\": null, \"name\": null, \"code\": null,"
            + " \"raw\": null, \"fixed\": null, \"day\": null, \"t0\": null, \"t3\": null, \"ts0\": null, \"ts3\": null,"
            + " \"ts6\": null, \"ts9\": null, \"ltz3\": null, \"ltz6\": null, \"ltz9\": null, \"ints\": null,"
            + " \"weights\": null, \"point\": null},"
            + "{\"id\": 3, \"flag\": false, \"tiny\": 0, \"small\": -1, \"big\": -9223372036854775808,"
            + " \"r\": -3.4028235E38, \"d\": 1.0E-300, \"dec_small\": 0.01, \"dec_wide\": -0.0000000001,"
            + " \"dec_whole\": 0, \"name\": \"\", \"code\": \"xyz\", \"raw\": \"\", \"fixed\": \"//8=\","
            + " \"day\": \"2024-02-29\", \"t0\": \"23:59:59\", \"t3\": \"00:00:00.250\","
            + " \"ts0\": \"2024-06-01T00:00:00\", \"ts3\": \"2024-06-01T12:30:00.120\","
            + " \"ts6\": \"2024-06-01T12:30:00.000001\", \"ts9\": \"1969-12-31T23:59:59.999999999\","
            + " \"ltz3\": \"1970-01-01T00:00:00Z\", \"ltz6\": \"1969-12-31T23:59:59.999999Z\","
            + " \"ltz9\": \"2024-06-01T12:30:00.123456789Z\", \"ints\": [], \"weights\": {}, "
            + " \"point\": {\"x\": null, \"y\": null}}]";

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void everyValueReadsTheSameOnEverySurface(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("every_type");
        Schema.Builder schema = Schema.newBuilder();
        for (int c = 0; c < COLUMNS.length; c++) {
            schema.column(COLUMNS[c], DataTypeParser.parse(TYPES[c]));
        }
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema.primaryKey("id").build())
                    .distributedBy(2, "id").build(), false).get();
        }
        List<JsonNode> expected = new ArrayList<>();
        JSON.readTree(ROWS).forEach(expected::add);

        try (Gateway gateway = Gateway.start(connection, 0)) {
            String table = gateway.url() + "/v1/databases/" + path.getDatabaseName() + "/tables/" + path.getTableName();
            HttpResponse<byte[]> written = post(table + "/rows", ROWS, "application/json");
            assertThat(written.statusCode()).as(new String(written.body(), UTF_8)).isEqualTo(200);

            // /rows/{key}: Fluss rows rendered straight from the lookup.
            List<JsonNode> looked = new ArrayList<>();
            for (JsonNode row : expected) {
                HttpResponse<byte[]> found = get(table + "/rows/" + row.get("id").asInt());
                assertThat(found.statusCode()).as(new String(found.body(), UTF_8)).isEqualTo(200);
                looked.add(JSON.readTree(found.body()));
            }
            assertSame("/rows/{key}", looked, expected);

            // /scan of the changelog: Arrow batches of the log, rendered by the value layer.
            HttpResponse<byte[]> scanned = post(table + "/scan", "{\"changelog\": true}", "application/json");
            assertThat(scanned.statusCode()).as(new String(scanned.body(), UTF_8)).isEqualTo(200);
            assertSame("/scan", dataColumns(JSON.readTree(scanned.body()).get("rows")), expected);

            String query = "{\"sql\": \"SELECT * FROM " + path.getDatabaseName() + ".\\\"" + path.getTableName()
                    + "\\\"\"}";
            HttpResponse<byte[]> sql = post(gateway.url() + "/v1/sql", query, "application/json");
            assertThat(sql.statusCode()).as(new String(sql.body(), UTF_8)).isEqualTo(200);
            assertSame("/v1/sql JSON", rows(JSON.readTree(sql.body()).get("rows")), expected);
            HttpResponse<byte[]> changes = post(gateway.url() + "/v1/sql", "{\"sql\": "
                    + JSON.writeValueAsString(changelogQuery(path)) + "}", "application/json");
            assertThat(changes.statusCode()).as(new String(changes.body(), UTF_8)).isEqualTo(200);
            assertSame("/v1/sql JSON of $changelog", rows(JSON.readTree(changes.body()).get("rows")), expected);

            HttpResponse<byte[]> arrow = post(gateway.url() + "/v1/sql", query, "application/json",
                    "Accept", "application/vnd.apache.arrow.stream");
            assertThat(arrow.statusCode()).as(new String(arrow.body(), UTF_8)).isEqualTo(200);
            assertSame("/v1/sql Arrow", arrowRows(arrow.body()), expected);
        }

        // Flight SQL: the same statement over gRPC, its Arrow batches rendered by the value layer.
        try (dev.riffle.flight.FlightSqlServer flight = dev.riffle.flight.FlightSqlServer.builder()
                        .clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0).start();
                BufferAllocator allocator = new RootAllocator();
                org.apache.arrow.flight.sql.FlightSqlClient client = new org.apache.arrow.flight.sql.FlightSqlClient(
                        org.apache.arrow.flight.FlightClient.builder(allocator, flight.location()).build())) {
            for (String query : List.of("SELECT * FROM " + path.getDatabaseName() + ".\"" + path.getTableName() + "\"",
                    changelogQuery(path))) {
                org.apache.arrow.flight.FlightInfo info = client.execute(query);
                List<JsonNode> rows = new ArrayList<>();
                for (org.apache.arrow.flight.FlightEndpoint endpoint : info.getEndpoints()) {
                    try (org.apache.arrow.flight.FlightStream stream = client.getStream(endpoint.getTicket())) {
                        while (stream.next()) {
                            rows.addAll(rootRows(stream.getRoot()));
                        }
                    }
                }
                assertSame("Flight SQL: " + query, rows, expected);
            }
        }

        // PostgreSQL: pgjdbc reading each value as PostgreSQL's text format writes it.
        try (dev.riffle.pgwire.PgWireServer pg = dev.riffle.pgwire.PgWireServer.builder()
                        .clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0).start()) {
            java.util.Properties user = new java.util.Properties();
            user.setProperty("user", "riffle");
            try (java.sql.Connection jdbc = DriverManager.getConnection(pg.jdbcUrl(), user)) {
                assertPgText("PostgreSQL", jdbc, "SELECT * FROM " + path.getDatabaseName() + ".\""
                        + path.getTableName() + "\"");
                assertPgText("PostgreSQL of $changelog", jdbc, changelogQuery(path));
            }
        }

        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = RiffleCli.run(new String[] {"read", path.toString(), "--bootstrap-servers", cluster.bootstrapServers(),
            "--changelog", "--format", "json"}, new PrintWriter(out, true), new PrintWriter(err, true));
        assertThat(exit).as(err.toString()).isZero();
        List<JsonNode> cli = new ArrayList<>();
        for (String line : out.toString().lines().toList()) {
            cli.add(JSON.readTree(line));
        }
        assertSame("riffle read --format json", dataColumns(JSON.valueToTree(cli)), expected);

        // JDBC values pass through Calcite's row engine, which holds timestamps as epoch
        // milliseconds: finer digits are cut there (docs/sql.md says so). Everything else agrees.
        List<JsonNode> millis = new ArrayList<>();
        for (JsonNode row : expected) {
            ObjectNode cut = row.deepCopy();
            for (String column : new String[] {"ts6", "ts9", "ltz6", "ltz9"}) {
                if (!row.get(column).isNull()) {
                    cut.put(column, toMillis(row.get(column).asText()));
                }
            }
            millis.add(cut);
        }
        try (java.sql.Connection jdbc = DriverManager.getConnection("jdbc:riffle://" + cluster.bootstrapServers());
                Statement statement = jdbc.createStatement()) {
            for (String query : List.of("SELECT * FROM " + path.getDatabaseName() + ".\"" + path.getTableName() + "\"",
                    changelogQuery(path))) {
                try (ResultSet rows = statement.executeQuery(query)) {
                    assertSame("JDBC: " + query, jdbcRows(rows), millis);
                }
            }
        }
    }

    /**
     * The same values in a datalake-enabled log table, tiered into Paimon: its lake side and its log
     * read the same on every surface (HTTP, SQL over HTTP, Flight SQL, PostgreSQL, the CLI).
     */
    @Test
    void lakeAndLogReadsOfEveryTypeAgreeOnEverySurface(LocalCluster cluster, Connection connection, TestNames names)
            throws Exception {
        TablePath path = names.table("lake_every_type");
        Schema.Builder schema = Schema.newBuilder();
        List<String> columns = new ArrayList<>();
        for (int c = 0; c < COLUMNS.length; c++) {
            if (!NESTED.contains(COLUMNS[c])) {
                schema.column(COLUMNS[c], DataTypeParser.parse(TYPES[c]));
                columns.add(COLUMNS[c]);
            }
        }
        String[] scalars = columns.toArray(String[]::new);
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(path, TableDescriptor.builder().schema(schema.build()).distributedBy(1)
                    .property("table.datalake.enabled", "true").property("table.datalake.freshness", "1s").build(),
                    false).get();
        }
        List<JsonNode> expected = new ArrayList<>();
        for (JsonNode row : JSON.readTree(ROWS)) {
            ObjectNode scalar = ((ObjectNode) row).deepCopy();
            NESTED.forEach(scalar::remove);
            expected.add(scalar);
        }
        String rows = JSON.writeValueAsString(expected);
        String quoted = path.getDatabaseName() + ".\"" + path.getTableName();
        try (Gateway gateway = Gateway.start(connection, 0)) {
            String table = gateway.url() + "/v1/databases/" + path.getDatabaseName() + "/tables/" + path.getTableName();
            HttpResponse<byte[]> written = post(table + "/rows", rows, "application/json");
            assertThat(written.statusCode()).as(new String(written.body(), UTF_8)).isEqualTo(200);
            try (dev.riffle.lake.tiering.TieringService tiering = dev.riffle.lake.tiering.TieringService.builder()
                    .clientConfig(cluster.clientConfig()).lake("paimon", cluster.lakeCatalogOptions())
                    .pollInterval(java.time.Duration.ofMillis(200)).start()) {
                org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60))
                        .until(() -> tiering.tieredTables().stream().anyMatch(t -> t.table().equals(path)
                                && t.rows() == expected.size()));
            }

            for (String source : new String[] {"lake", "log", "union"}) {
                HttpResponse<byte[]> scanned = post(table + "/scan", "{\"source\": \"" + source + "\"}",
                        "application/json");
                assertThat(scanned.statusCode()).as(new String(scanned.body(), UTF_8)).isEqualTo(200);
                assertSame("/scan " + source, rows(JSON.readTree(scanned.body()).get("rows")), expected, scalars);
            }
            for (String suffix : new String[] {"$lake", "$log", ""}) {
                String query = "{\"sql\": \"SELECT * FROM " + path.getDatabaseName() + ".\\\"" + path.getTableName()
                        + suffix + "\\\"\"}";
                HttpResponse<byte[]> arrow = post(gateway.url() + "/v1/sql", query, "application/json",
                        "Accept", "application/vnd.apache.arrow.stream");
                assertThat(arrow.statusCode()).as(new String(arrow.body(), UTF_8)).isEqualTo(200);
                assertSame("/v1/sql Arrow of " + suffix, arrowRows(arrow.body()), expected, scalars);
            }
        }

        try (dev.riffle.flight.FlightSqlServer flight = dev.riffle.flight.FlightSqlServer.builder()
                        .clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0).start();
                BufferAllocator allocator = new RootAllocator();
                org.apache.arrow.flight.sql.FlightSqlClient client = new org.apache.arrow.flight.sql.FlightSqlClient(
                        org.apache.arrow.flight.FlightClient.builder(allocator, flight.location()).build())) {
            for (String suffix : new String[] {"$lake", "$log", ""}) {
                org.apache.arrow.flight.FlightInfo info = client.execute("SELECT * FROM " + quoted + suffix + "\"");
                List<JsonNode> read = new ArrayList<>();
                for (org.apache.arrow.flight.FlightEndpoint endpoint : info.getEndpoints()) {
                    try (org.apache.arrow.flight.FlightStream stream = client.getStream(endpoint.getTicket())) {
                        while (stream.next()) {
                            read.addAll(rootRows(stream.getRoot()));
                        }
                    }
                }
                assertSame("Flight SQL of " + suffix, read, expected, scalars);
            }
        }

        try (dev.riffle.pgwire.PgWireServer pg = dev.riffle.pgwire.PgWireServer.builder()
                        .clientConfig(cluster.clientConfig()).host("127.0.0.1").port(0).start()) {
            java.util.Properties user = new java.util.Properties();
            user.setProperty("user", "riffle");
            try (java.sql.Connection jdbc = DriverManager.getConnection(pg.jdbcUrl(), user)) {
                for (String suffix : new String[] {"$lake", "$log", ""}) {
                    assertPgText("PostgreSQL of " + suffix, jdbc, "SELECT * FROM " + quoted + suffix + "\"", columns);
                }
            }
        }

        for (String source : new String[] {"lake", "log", "union"}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int exit = RiffleCli.run(new String[] {"read", path.toString(), "--bootstrap-servers",
                cluster.bootstrapServers(), "--source", source, "--direct", "--format", "json"},
                    new PrintWriter(out, true), new PrintWriter(err, true));
            assertThat(exit).as(err.toString()).isZero();
            List<JsonNode> cli = new ArrayList<>();
            for (String line : out.toString().lines().toList()) {
                cli.add(JSON.readTree(line));
            }
            assertSame("riffle read --source " + source, cli, expected, scalars);
        }
    }

    /** The table's changelog in SQL ({@code t$changelog}), its data columns in {@link #COLUMNS}' order. */
    private static String changelogQuery(TablePath path) {
        return "SELECT \"" + String.join("\", \"", COLUMNS) + "\" FROM " + path.getDatabaseName() + ".\""
                + path.getTableName() + "$changelog\"";
    }

    /** Every value of {@code query}'s rows in PostgreSQL's text format, as {@link #PG_TEXT} gives them. */
    private static void assertPgText(String surface, java.sql.Connection jdbc, String query) throws Exception {
        assertPgText(surface, jdbc, query, List.of(COLUMNS));
    }

    /** As above, for a table of {@code columns} only (a subset of {@link #COLUMNS}, in their order). */
    private static void assertPgText(String surface, java.sql.Connection jdbc, String query, List<String> columns)
            throws Exception {
        try (Statement statement = jdbc.createStatement(); ResultSet rows = statement.executeQuery(query)) {
            List<List<String>> text = new ArrayList<>();
            while (rows.next()) {
                List<String> row = new ArrayList<>();
                for (int c = 1; c <= columns.size(); c++) {
                    row.add(rows.getString(c));
                }
                text.add(row);
            }
            text.sort(java.util.Comparator.comparing(row -> Integer.parseInt(row.get(0))));
            assertThat(text).as(surface + ": the rows").hasSize(PG_TEXT.length);
            List<String> all = List.of(COLUMNS);
            for (int r = 0; r < PG_TEXT.length; r++) {
                for (int c = 0; c < columns.size(); c++) {
                    assertThat(text.get(r).get(c)).as("%s, id %d, column %s", surface, r + 1, columns.get(c))
                            .isEqualTo(PG_TEXT[r][all.indexOf(columns.get(c))]);
                }
            }
        }
    }

    /** An ISO timestamp or instant with its fraction cut to milliseconds, as the value layer writes it. */
    private static String toMillis(String text) {
        if (text.endsWith("Z")) {
            java.time.Instant instant = java.time.Instant.parse(text).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
            return ValueText.instant(instant.getEpochSecond(), instant.getNano());
        }
        LocalDateTime local = LocalDateTime.parse(text).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        return ValueText.timestamp(local.toEpochSecond(ZoneOffset.UTC), local.getNano());
    }

    /** Compares by id, value by value, naming the surface and the column of the first difference. */
    private static void assertSame(String surface, List<JsonNode> actual, List<JsonNode> expected) {
        assertSame(surface, actual, expected, COLUMNS);
    }

    /** As above, for a table of {@code columns} only. */
    private static void assertSame(String surface, List<JsonNode> actual, List<JsonNode> expected, String[] columns) {
        Map<Integer, JsonNode> byId = new TreeMap<>();
        actual.forEach(row -> byId.put(row.get("id").asInt(), row));
        assertThat(byId.keySet()).as(surface + ": the ids read").containsExactly(1, 2, 3);
        for (JsonNode want : expected) {
            JsonNode got = byId.get(want.get("id").asInt());
            assertThat(fieldNames(got)).as(surface + ": the columns").containsExactly(columns);
            for (String column : columns) {
                assertThat(got.get(column)).as("%s, id %s, column %s", surface, want.get("id"), column)
                        .isEqualTo(want.get(column));
            }
        }
    }

    private static List<String> fieldNames(JsonNode row) {
        List<String> names = new ArrayList<>();
        row.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static List<JsonNode> rows(JsonNode array) {
        List<JsonNode> rows = new ArrayList<>();
        array.forEach(rows::add);
        return rows;
    }

    /** Rows without the changelog's own columns ({@code _change_type}, ...). */
    private static List<JsonNode> dataColumns(JsonNode array) {
        List<JsonNode> rows = new ArrayList<>();
        for (JsonNode row : array) {
            ObjectNode data = ((ObjectNode) row).deepCopy();
            for (Iterator<String> it = row.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                if (name.startsWith("_")) {
                    data.remove(name);
                }
            }
            rows.add(data);
        }
        return rows;
    }

    /** The Arrow batches' rows, each value as the value layer renders it from the vectors. */
    private static List<JsonNode> arrowRows(byte[] stream) throws IOException {
        List<JsonNode> rows = new ArrayList<>();
        try (BufferAllocator allocator = new RootAllocator();
                ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(stream), allocator)) {
            VectorSchemaRoot root = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
                rows.addAll(rootRows(root));
            }
        }
        return rows;
    }

    /** One batch's rows, each value as the value layer renders it from the vectors. */
    private static List<JsonNode> rootRows(VectorSchemaRoot root) throws IOException {
        List<JsonNode> rows = new ArrayList<>();
        List<ArrowValueReader> columns = ArrowValueReader.ofColumns(root.getFieldVectors());
        for (int row = 0; row < root.getRowCount(); row++) {
            StringWriter text = new StringWriter();
            try (JsonGenerator json = JSON.createGenerator(text)) {
                JsonValueSink.writeRow(json, columns, row, new JsonValueSink(json));
            }
            rows.add(JSON.readTree(text.toString()));
        }
        return rows;
    }

    /** The JDBC rows, each value from its Java object as JSON. */
    private static List<JsonNode> jdbcRows(ResultSet rows) throws Exception {
        ResultSetMetaData meta = rows.getMetaData();
        List<JsonNode> result = new ArrayList<>();
        while (rows.next()) {
            StringWriter text = new StringWriter();
            try (JsonGenerator json = JSON.createGenerator(text)) {
                json.writeStartObject();
                for (int c = 1; c <= meta.getColumnCount(); c++) {
                    String column = meta.getColumnLabel(c);
                    json.writeFieldName(column);
                    Object value = rows.getObject(c);
                    String type = TYPES[List.of(COLUMNS).indexOf(column)];
                    writeJdbc(json, value, type);
                }
                json.writeEndObject();
            }
            result.add(JSON.readTree(text.toString()));
        }
        return result;
    }

    private static void writeJdbc(JsonGenerator json, Object value, String type) throws Exception {
        if (value == null) {
            json.writeNull();
        } else if (value instanceof Boolean b) {
            json.writeBoolean(b);
        } else if (value instanceof Float f) {
            json.writeNumber(ValueText.floatNumber(f));
        } else if (value instanceof Double d) {
            json.writeNumber(ValueText.doubleNumber(d));
        } else if (value instanceof BigDecimal decimal) {
            json.writeNumber(ValueText.decimal(decimal));
        } else if (value instanceof Number n) {
            json.writeNumber(n.longValue());
        } else if (value instanceof byte[] bytes) {
            json.writeString(ValueText.binary(bytes));
        } else if (value instanceof java.sql.Date date) {
            json.writeString(ValueText.date((int) date.toLocalDate().toEpochDay()));
        } else if (value instanceof Time time) {
            json.writeString(ValueText.time(time.toLocalTime().toNanoOfDay()
                    + (time.getTime() % 1000 + 1000) % 1000 * 1_000_000L));
        } else if (value instanceof Timestamp timestamp) {
            if (type.startsWith("TIMESTAMP_LTZ")) {
                var instant = timestamp.toInstant();
                json.writeString(ValueText.instant(instant.getEpochSecond(), instant.getNano()));
            } else {
                LocalDateTime local = timestamp.toLocalDateTime();
                json.writeString(ValueText.timestamp(local.toEpochSecond(ZoneOffset.UTC), local.getNano()));
            }
        } else if (value instanceof Array array) {
            json.writeStartArray();
            for (Object element : (Object[]) array.getArray()) {
                writeJdbc(json, element, "INT");
            }
            json.writeEndArray();
        } else if (value instanceof Map<?, ?> map) {
            json.writeStartObject();
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.writeFieldName(String.valueOf(entry.getKey()));
                writeJdbc(json, entry.getValue(), "DOUBLE");
            }
            json.writeEndObject();
        } else if (value instanceof Struct struct) {
            writeRowOf(json, struct.getAttributes());
        } else if (value instanceof Object[] fields) {
            writeRowOf(json, fields);
        } else if (value instanceof List<?> list && type.startsWith("ROW")) {
            writeRowOf(json, list.toArray());
        } else {
            json.writeString(value.toString());
        }
    }

    /** The one ROW column, {@code ROW<x INT, y STRING>}. */
    private static void writeRowOf(JsonGenerator json, Object[] fields) throws Exception {
        json.writeStartObject();
        json.writeFieldName("x");
        writeJdbc(json, fields[0], "INT");
        json.writeFieldName("y");
        writeJdbc(json, fields[1], "STRING");
        json.writeEndObject();
    }

    private HttpResponse<byte[]> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpResponse<byte[]> post(String url, String body, String contentType, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        for (int i = 0; i < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
}
