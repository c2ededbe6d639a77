package dev.riffle.pgwire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The npm {@code pg} client (node-postgres, a third driver stack beside psql's libpq and pgjdbc)
 * against Riffle's PostgreSQL protocol server: a node script connects, runs a query with a
 * {@code $1} parameter and prints the rows as node-postgres hands them to an application.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class NodePgIT {
    private static final String NODE = "/usr/bin/node";
    private static final String NPM = "/usr/bin/npm";
    /** Pinned exactly: a new release must not change what this test checks unannounced. */
    private static final String PG_VERSION = "8.23.1";
    /** Under target/, so {@code mvn clean} removes it; kept between runs so the install happens once. */
    private static final Path CLIENT_DIR = Path.of("target", "node-pg-" + PG_VERSION);

    private static final String SCRIPT = """
            // Prints the rows of one parameterized query as node-postgres returns them, with the type OIDs.
            const { Client } = require('pg');
            const [host, port, table] = process.argv.slice(2);
            (async () => {
              const client = new Client({ host, port: Number(port), user: 'riffle', database: 'riffle' });
              await client.connect();
              try {
                const result = await client.query(
                  `SELECT i, bi, num, s, b, dt, ts, note FROM ${table} WHERE i >= $1 ORDER BY i`, [1]);
                console.log(JSON.stringify({
                  types: result.fields.map(f => f.dataTypeID),
                  rows: result.rows,
                  jsTypes: result.rows.map(r => Object.fromEntries(Object.entries(r).map(([k, v]) =>
                    [k, v instanceof Date ? 'Date' : v === null ? 'null' : typeof v]))),
                }));
              } finally {
                await client.end();
              }
            })().catch(e => { console.error(e.stack || String(e)); process.exit(1); });
            """;

    /** Prints, for each statement, its rows and types, or its error's SQLSTATE and message. */
    private static final String ERRORS_SCRIPT = """
            const { Client } = require('pg');
            const [host, port, table] = process.argv.slice(2);
            (async () => {
              const client = new Client({ host, port: Number(port), user: 'riffle', database: 'riffle' });
              await client.connect();
              const out = [];
              for (const [text, values] of [
                  [`SELECT count(*), max(v)::text, now() > $1::timestamptz AS recent FROM ${table}`, ['2020-01-01T00:00:00Z']],
                  [`SELECT * FROM ${table}_missing`, []],
                  ['SELECT 1 / 0', []],
                  [`SELECT v FROM ${table} WHERE id = $1`, ['not a number']],
                  [`SELECT v FROM ${table} WHERE v ILIKE $1 ORDER BY id`, ['B%']]]) {
                try {
                  const result = await client.query(text, values);
                  out.push({ rows: result.rows, types: result.fields.map(f => f.name + ':' + f.dataTypeID) });
                } catch (e) {
                  out.push({ code: e.code, message: e.message });
                }
              }
              console.log(JSON.stringify(out));
              await client.end();
            })().catch(e => { console.error(e.stack || String(e)); process.exit(1); });
            """;

    private PgWireServer server;

    @BeforeAll
    static void nodeIsInstalled() {
        // Not an assumption: a skipped test would hide a broken install. bin/test installs node and npm.
        assertThat(new File(NODE).canExecute() && new File(NPM).canExecute()).as("node or npm is not installed:"
                + " run the tests with bin/test, which installs Debian's nodejs and npm when they are missing").isTrue();
    }

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    @Test
    void parameterizedQueryReadsPostgresTypesAsNodeValues(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("nodepg");
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (i INT, bi BIGINT, num DECIMAL(12, 4), s STRING, b BOOLEAN,"
                    + " dt DATE, ts TIMESTAMP(6), note STRING, PRIMARY KEY (i) NOT ENFORCED)");
            statement.executeUpdate("INSERT INTO " + db + ".t VALUES"
                    + " (0, 0, 0, 'not selected', FALSE, NULL, NULL, NULL),"
                    + " (1, 9007199254740993, -12345.6789, 'it''s \u00fc', TRUE, DATE '2024-06-01',"
                    + " TIMESTAMP '2024-06-01 12:00:00.5', NULL),"
                    + " (2, NULL, NULL, NULL, FALSE, NULL, NULL, 'only a note')");
        }
        Path script = installPg().resolve("query.js");
        Files.writeString(script, SCRIPT, UTF_8);

        JsonNode out = new ObjectMapper().readTree(node(script, server.clientHost(), Integer.toString(server.port()),
                db + ".t"));
        // int4, int8, numeric, text, bool, date, timestamp, text: the OIDs node-postgres picks parsers by.
        assertThat(out.get("types").toString()).isEqualTo("[23,20,1700,25,16,1082,1114,25]");
        assertThat(out.get("rows")).hasSize(2);

        JsonNode first = out.get("rows").get(0);
        assertThat(out.get("jsTypes").get(0).toString()).isEqualTo("{\"i\":\"number\",\"bi\":\"string\","
                + "\"num\":\"string\",\"s\":\"string\",\"b\":\"boolean\",\"dt\":\"Date\",\"ts\":\"Date\","
                + "\"note\":\"null\"}");
        assertThat(first.get("i").asInt()).isEqualTo(1);
        // node-postgres reads int8 and numeric as strings: every digit arrives.
        assertThat(first.get("bi").asText()).isEqualTo("9007199254740993");
        assertThat(first.get("num").asText()).isEqualTo("-12345.6789");
        assertThat(first.get("s").asText()).isEqualTo("it's \u00fc");
        assertThat(first.get("b").asBoolean()).isTrue();
        // Dates and timestamps become JavaScript Dates in the process's zone (UTC here), printed as ISO.
        assertThat(first.get("dt").asText()).isEqualTo("2024-06-01T00:00:00.000Z");
        assertThat(first.get("ts").asText()).isEqualTo("2024-06-01T12:00:00.500Z");
        assertThat(first.get("note").isNull()).isTrue();

        JsonNode second = out.get("rows").get(1);
        assertThat(second.get("i").asInt()).isEqualTo(2);
        for (String column : List.of("bi", "num", "s", "dt", "ts")) {
            assertThat(second.get(column).isNull()).as(column).isTrue();
        }
        assertThat(second.get("b").asBoolean()).isFalse();
        assertThat(second.get("note").asText()).isEqualTo("only a note");
    }

    @Test
    void errorsCarryTheirSqlstateAndTheSessionGoesOn(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("nodeerr");
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".t (id INTEGER, v TEXT)");
            statement.executeUpdate("INSERT INTO " + db + ".t VALUES (1, 'apple'), (2, 'banana'), (3, 'Blueberry')");
        }
        Path script = installPg().resolve("errors.js");
        Files.writeString(script, ERRORS_SCRIPT, UTF_8);
        JsonNode out = new ObjectMapper().readTree(node(script, server.clientHost(), Integer.toString(server.port()),
                db + ".t"));
        assertThat(out.get(0).get("rows").toString()).isEqualTo("[{\"count\":\"3\",\"max\":\"banana\",\"recent\":true}]");
        // count is int8 (20), max(v)::text text (25), the comparison bool (16): PostgreSQL's names and types
        assertThat(out.get(0).get("types").toString()).isEqualTo("[\"count:20\",\"max:25\",\"recent:16\"]");
        assertThat(out.get(1).get("code").asText()).isEqualTo("42P01");
        assertThat(out.get(2).get("code").asText()).isEqualTo("22012");
        assertThat(out.get(2).get("message").asText()).isEqualTo("division by zero");
        assertThat(out.get(3).get("code").asText()).isEqualTo("22P02");
        // after three errors the same session still answers
        assertThat(out.get(4).get("rows").toString()).isEqualTo("[{\"v\":\"banana\"},{\"v\":\"Blueberry\"}]");
    }

    /** The pinned {@code pg} in {@link #CLIENT_DIR}, installed from the npm registry unless it is there already. */
    private static Path installPg() throws Exception {
        Path installed = CLIENT_DIR.resolve("node_modules/pg/package.json");
        if (Files.exists(installed) && Files.readString(installed, UTF_8).contains("\"version\": \"" + PG_VERSION + "\"")) {
            return CLIENT_DIR;
        }
        Files.createDirectories(CLIENT_DIR);
        String output = run(List.of(NPM, "install", "--no-audit", "--no-fund", "--prefix", CLIENT_DIR.toString(),
                "pg@" + PG_VERSION), 300);
        assertThat(installed).as("npm installed pg %s: %s", PG_VERSION, output).exists();
        return CLIENT_DIR;
    }

    private static String node(Path script, String... arguments) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(NODE, script.toString()));
        command.addAll(List.of(arguments));
        return run(command, 60);
    }

    /** Runs {@code command}, expects exit code 0, and returns its standard output. */
    private static String run(List<String> command, int timeoutSeconds) throws Exception {
        Path out = Files.createTempFile("node", ".out");
        Path err = Files.createTempFile("node", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().put("TZ", "UTC");
            Process process = builder.start();
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(command + " did not finish within " + timeoutSeconds + " s");
            }
            String stdout = Files.readString(out, UTF_8);
            assertThat(process.exitValue()).as("%s failed: %s%s", command, stdout, Files.readString(err, UTF_8))
                    .isZero();
            return stdout;
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
