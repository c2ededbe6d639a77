package dev.riffle.pgwire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.File;
import java.io.InputStream;
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
 * SQLAlchemy (1.4, Debian's {@code python3-sqlalchemy}) over psycopg2 and pandas against Riffle's
 * PostgreSQL port, as an application uses them: {@code create_engine} (whose first connection reads
 * {@code pg_type} and {@code current_schema()}), {@code inspect()} of schemas, tables, columns,
 * primary keys, indexes and foreign keys (SQLAlchemy's own catalog queries), a reflected
 * {@code Table} in a {@code select()}, {@code pandas.read_sql} with the engine, and
 * {@code DataFrame.to_sql} (its {@code CREATE TABLE} in PostgreSQL's types, its multi-row
 * {@code INSERT}, {@code if_exists='replace'}'s {@code DROP TABLE}) read back. The script is
 * {@code clients/sqlalchemy_pandas.py}; it prints what it saw as JSON.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class PythonClientsIT {
    private static final String PYTHON = "/usr/bin/python3";

    private PgWireServer server;

    @BeforeAll
    static void pythonClientsAreInstalled() throws Exception {
        // Not an assumption: a skipped test would hide a broken install. bin/test installs them.
        assertThat(new File(PYTHON).canExecute()).as("python3 is not installed: run the tests with bin/test").isTrue();
        Process check = new ProcessBuilder(PYTHON, "-c", "import sqlalchemy, psycopg2, psycopg, pandas").redirectErrorStream(true)
                .start();
        assertThat(check.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue()).as("SQLAlchemy, psycopg2, psycopg or pandas is missing: run the tests with bin/test,"
                + " which installs Debian's python3-sqlalchemy, python3-psycopg2, python3-psycopg and python3-pandas")
                .isZero();
    }

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    @Test
    void sqlalchemyReflectsAndPandasReadsAndWrites(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("sa");
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".orders (id BIGINT PRIMARY KEY, region TEXT, amount NUMERIC(10,2))"
                    + " COMMENT 'the orders'");
            statement.executeUpdate("INSERT INTO " + db + ".orders VALUES (1, 'eu', 5), (2, 'us', 20.5), (3, 'eu', 11)");
        }
        JsonNode out = new ObjectMapper().readTree(python("sqlalchemy_pandas.py", server.clientHost(),
                Integer.toString(server.port()), db));

        assertThat(strings(out.get("schemas"))).contains(db, "fluss", "information_schema");
        assertThat(strings(out.get("tables"))).containsExactly("orders");
        assertThat(out.get("columns").toString()).isEqualTo("[{\"name\":\"id\",\"type\":\"BIGINT\",\"nullable\":false},"
                + "{\"name\":\"region\",\"type\":\"TEXT\",\"nullable\":true},"
                + "{\"name\":\"amount\",\"type\":\"NUMERIC(10, 2)\",\"nullable\":true}]");
        assertThat(out.get("pk").toString()).isEqualTo("{\"constrained_columns\":[\"id\"],\"name\":\"orders_pkey\"}");
        // SQLAlchemy lists the indexes that are not the primary key's: Fluss has none
        assertThat(out.get("indexes").toString()).isEqualTo("[]");
        assertThat(out.get("foreign_keys").toString()).isEqualTo("[]");
        assertThat(out.get("table_comment").get("text").asText()).isEqualTo("the orders");
        assertThat(out.get("selected").toString()).isEqualTo("[[2,\"us\"],[3,\"eu\"]]");

        JsonNode read = out.get("read_sql");
        assertThat(strings(read.get("columns"))).containsExactly("id", "region", "amount");
        assertThat(read.get("rows").toString()).isEqualTo("[[\"1\",\"eu\",\"5.0\"],[\"2\",\"us\",\"20.5\"],"
                + "[\"3\",\"eu\",\"11.0\"]]");
        assertThat(strings(read.get("dtypes"))).containsExactly("int64", "object", "float64");

        assertThat(out.get("to_sql").asInt()).as("rows DataFrame.to_sql reports written").isEqualTo(3);
        JsonNode back = out.get("read_back");
        assertThat(strings(back.get("columns"))).containsExactly("n", "name", "x", "flag", "at");
        assertThat(back.get("rows").toString()).isEqualTo("[[\"1\",\"a\",\"0.5\",\"True\",\"2024-06-01 10:00:00\"],"
                + "[\"2\",\"b\",\"1.5\",\"False\",\"2024-06-02 11:30:00\"],"
                + "[\"3\",\"None\",\"2.5\",\"True\",\"2024-06-03 12:45:00\"]]");
        assertThat(strings(back.get("dtypes"))).containsExactly("int64", "object", "float64", "bool", "datetime64[ns]");
        // if_exists='replace' dropped the table and made it anew: three rows, not six
        assertThat(out.get("replaced_count").toString()).isEqualTo("[3]");
        assertThat(out.get("frame_columns").toString()).isEqualTo("[[\"n\",\"BIGINT\"],[\"name\",\"TEXT\"],"
                + "[\"x\",\"DOUBLE_PRECISION\"],[\"flag\",\"BOOLEAN\"],[\"at\",\"TIMESTAMP\"]]");
    }

    /**
     * psycopg 3's pipelined {@code executemany} and psycopg2's (a simple query per row, in a
     * transaction): every row written and read back, the rows read inside the transaction that wrote
     * them, and a batch that fails at its fourth row says the three rows before it were written,
     * which they were (Fluss has no rollback). Script: {@code clients/psycopg_writes.py}.
     */
    @Test
    void psycopgExecutemanyWritesEveryRowAndSaysWhatAFailedBatchWrote(PgWireServer server, TestNames names)
            throws Exception {
        this.server = server;
        String db = names.database("psy").toLowerCase(java.util.Locale.ROOT);
        try (Connection sql = PgJdbcIT.connect(server); Statement statement = sql.createStatement()) {
            statement.execute("CREATE DATABASE " + db);
            statement.execute("CREATE TABLE " + db + ".events (id BIGINT, name TEXT)");
            statement.execute("CREATE TABLE " + db + ".strict (id INT NOT NULL, name TEXT)");
        }
        JsonNode out = new ObjectMapper().readTree(python("psycopg_writes.py", server.clientHost(),
                Integer.toString(server.port()), db));

        assertThat(out.get("pipelined").toString()).isEqualTo("[2000,1999000]");
        assertThat(out.get("failed_batch").get("message").asText())
                .contains("NOT NULL").contains("the 3 rows the INSERTs before it in this batch sent were written");
        assertThat(out.get("strict_after_failure").asInt()).isEqualTo(3);
        assertThat(out.get("in_transaction").asInt()).isEqualTo(2500);
        assertThat(out.get("quoted").asText()).isEqualTo("it's 2499");
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new java.util.ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return values;
    }

    /** Runs the script {@code clients/<name>} with {@code arguments}; expects exit code 0; returns its standard output. */
    private static String python(String name, String... arguments) throws Exception {
        Path script = Files.createTempFile("riffle-client", ".py");
        Path out = Files.createTempFile("python", ".out");
        Path err = Files.createTempFile("python", ".err");
        try (InputStream source = PythonClientsIT.class.getResourceAsStream("/clients/" + name)) {
            Files.copy(java.util.Objects.requireNonNull(source, name), script,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            List<String> command = new java.util.ArrayList<>(List.of(PYTHON, script.toString()));
            command.addAll(List.of(arguments));
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().put("TZ", "UTC");
            Process process = builder.start();
            if (!process.waitFor(180, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(name + " did not finish within 180 s: " + Files.readString(err, UTF_8));
            }
            assertThat(process.exitValue()).as("%s failed: %s", name, Files.readString(err, UTF_8)).isZero();
            return Files.readString(out, UTF_8);
        } finally {
            Files.deleteIfExists(script);
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
