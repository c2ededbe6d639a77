package dev.riffle.pgwire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.riffle.local.junit.LocalClusterExtension;
import dev.riffle.local.junit.TestNames;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real psql 15 (Debian's postgresql-client) against Riffle's PostgreSQL protocol server, run
 * as a process the way a user runs it: unaligned, tuples-only output compared with PostgreSQL's
 * exact text forms, several statements in one {@code -c}, and an error on stderr with exit code 1.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class PsqlIT {
    static final String PSQL = "/usr/bin/psql";

    private PgWireServer server;

    @BeforeAll
    static void psqlIsInstalled() {
        // Not an assumption: a skipped psql test would hide a broken install. bin/test installs it.
        assertThat(new File(PSQL).canExecute()).as("psql is not installed: run the tests with bin/test, which"
                + " installs Debian's postgresql-client when it is missing").isTrue();
    }

    @AfterEach
    void noArrowMemoryHeld() {
        if (server != null) {
            await().atMost(Duration.ofSeconds(10)).until(() -> server.arrowAllocatedBytes() == 0);
        }
    }

    /** What psql printed and how it exited. */
    record Run(int exitCode, String out, String err) {}

    /** psql's default, aligned output (as a user sees it), for one command. */
    static Run psqlAligned(PgWireServer server, String command) throws Exception {
        return run(List.of(PSQL, "-X", "-h", server.clientHost(), "-p", Integer.toString(server.port()), "-U", "riffle",
                "-d", "riffle", "-c", command));
    }

    static Run psql(PgWireServer server, String... commands) throws Exception {
        List<String> command = new ArrayList<>(List.of(PSQL, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                "-h", server.clientHost(), "-p", Integer.toString(server.port()), "-U", "riffle", "-d", "riffle"));
        for (String c : commands) {
            command.add("-c");
            command.add(c);
        }
        return run(command);
    }

    private static Run run(List<String> command) throws Exception {
        return run(command, Map.of());
    }

    /** Runs psql with these environment variables (PGPASSWORD, PGSSLMODE, ...) and no others of libpq's. */
    static Run run(List<String> command, Map<String, String> environment) throws Exception {
        Path out = Files.createTempFile("psql", ".out");
        Path err = Files.createTempFile("psql", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().keySet().removeIf(name -> name.startsWith("PG"));
            builder.environment().put("PGCONNECT_TIMEOUT", "10");
            builder.environment().putAll(environment);
            Process process = builder.start();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("psql did not finish within 60 s: " + command);
            }
            return new Run(process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void selectPrintsPostgresTextForms(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("psql");
        Run setup = psql(server, "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".t (id INT, b BOOLEAN, f FLOAT, d DOUBLE, dec DECIMAL(10, 2), s STRING,"
                        + " bin BYTES, dt DATE, tm TIME, ts TIMESTAMP(6), ltz TIMESTAMP_LTZ(6), arr ARRAY<STRING>,"
                        + " m MAP<STRING, INT>, PRIMARY KEY (id) NOT ENFORCED)",
                "INSERT INTO " + db + ".t VALUES (1, TRUE, 0.1, 1e20, -12.30, 'it''s', x'0aff', DATE '2024-06-01',"
                        + " TIME '12:34:56', TIMESTAMP '2024-06-01 12:00:00.120', TIMESTAMP '2024-06-01 12:00:05',"
                        + " ARRAY['a b', 'cde'], MAP['k', 7]),"
                        + " (2, FALSE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
        assertThat(setup.exitCode()).as(setup.err()).isZero();
        assertThat(setup.out().lines()).containsExactly("CREATE DATABASE", "CREATE TABLE", "INSERT 0 2");

        Run select = psql(server, "SELECT * FROM " + db + ".t ORDER BY id");
        assertThat(select.exitCode()).as(select.err()).isZero();
        assertThat(select.out().lines()).containsExactly(
                "1|t|0.1|1e+20|-12.30|it's|\\x0aff|2024-06-01|12:34:56|2024-06-01 12:00:00.12|2024-06-01 12:00:05+00"
                        + "|{\"a b\",cde}|{\"k\":7}",
                "2|f|||||||||||");

        // A key lookup (pushed down to a point lookup) and an aggregate.
        Run lookup = psql(server, "SELECT s FROM " + db + ".t WHERE id = 1");
        assertThat(lookup.out().lines()).containsExactly("it's");
        Run count = psql(server, "SELECT count(*), max(id) FROM " + db + ".t");
        assertThat(count.out().lines()).containsExactly("2|2");
    }

    @Test
    void backslashCopyWritesAFileInTextAndCsv(PgWireServer server, TestNames names, @TempDir Path dir)
            throws Exception {
        this.server = server;
        String db = names.database("psqlcopyout");
        Run setup = psql(server, "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".events (id INT, kind STRING, amount DECIMAL(10, 2), ts TIMESTAMP(6))"
                        + " WITH ('bucket.num' = '1')",
                "INSERT INTO " + db + ".events VALUES (1, 'open', 1.50, TIMESTAMP '2024-06-01 12:00:00'),"
                        + " (2, 'say \"hi\", then\nleave', NULL, NULL),"
                        + " (3, 'back\\slash\ttab', -0.25, TIMESTAMP '2024-06-01 12:00:00.5')");
        assertThat(setup.exitCode()).as(setup.err()).isZero();

        Path text = dir.resolve("events.txt");
        Run out = psql(server, "\\copy " + db + ".events to '" + text + "'");
        assertThat(out.exitCode()).as(out.err()).isZero();
        assertThat(out.out().lines()).containsExactly("COPY 3");
        assertThat(Files.readString(text, UTF_8)).isEqualTo(
                "1\topen\t1.50\t2024-06-01 12:00:00\n"
                        + "2\tsay \"hi\", then\\nleave\t\\N\t\\N\n"
                        + "3\tback\\\\slash\\ttab\t-0.25\t2024-06-01 12:00:00.5\n");

        Path csv = dir.resolve("events.csv");
        Run outCsv = psql(server, "\\copy (SELECT id, kind, amount FROM " + db + ".events ORDER BY id DESC) to '" + csv
                + "' with (format csv, header)");
        assertThat(outCsv.exitCode()).as(outCsv.err()).isZero();
        assertThat(Files.readString(csv, UTF_8)).isEqualTo(
                "id,kind,amount\n"
                        + "3,back\\slash\ttab,-0.25\n"
                        + "2,\"say \"\"hi\"\", then\nleave\",\n"
                        + "1,open,1.50\n");
    }

    @Test
    void backslashCopyReadsACsvFileAndABadLineWritesNothing(PgWireServer server, TestNames names,
            @TempDir Path dir) throws Exception {
        this.server = server;
        String db = names.database("psqlcopyin");
        Run setup = psql(server, "CREATE DATABASE " + db,
                "CREATE TABLE " + db + ".items (id INT, name STRING, price DOUBLE, added DATE,"
                        + " PRIMARY KEY (id) NOT ENFORCED)");
        assertThat(setup.exitCode()).as(setup.err()).isZero();

        Path good = dir.resolve("items.csv");
        Files.writeString(good, "id,name,price,added\n"
                + "1,lamp,19.5,2024-06-01\n"
                + "2,\"desk, oak\",250,\n"
                + "3,\"two\nlines\",,2024-01-31\n", UTF_8);
        Run in = psql(server, "\\copy " + db + ".items from '" + good + "' with (format csv, header)");
        assertThat(in.exitCode()).as(in.err()).isZero();
        assertThat(in.out().lines()).containsExactly("COPY 3");
        Run select = psql(server, "SELECT id, name, price, added FROM " + db + ".items ORDER BY id");
        assertThat(select.out()).isEqualTo("1|lamp|19.5|2024-06-01\n2|desk, oak|250|\n3|two\nlines||2024-01-31\n");

        // The old spelling psql users type: CSV HEADER. Line 3 has a price that is no number.
        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, "id,name,price,added\n4,chair,12,2024-06-02\n5,stool,cheap,2024-06-03\n", UTF_8);
        Run failed = psql(server, "\\copy " + db + ".items from '" + bad + "' csv header");
        assertThat(failed.exitCode()).isEqualTo(1);
        assertThat(failed.err()).contains("ERROR:  invalid input syntax for type double precision: \"cheap\"")
                .contains("line 3").contains("column price");
        Run unchanged = psql(server, "SELECT count(*) FROM " + db + ".items");
        assertThat(unchanged.out().lines()).containsExactly("3");
    }

    @Test
    void catalogCommandsDescribeFlussTablesAsPostgresTables(PgWireServer server,
            org.apache.fluss.client.Connection fluss) throws Exception {
        this.server = server;
        // A fixed schema name, as the expected text is psql's aligned output; no other test uses it.
        Run setup = psql(server, "CREATE DATABASE shop COMMENT 'what we sell'",
                "CREATE TABLE shop.events (id BIGINT, kind STRING, amount DECIMAL(10, 2), seen TIMESTAMP_LTZ(6))",
                "CREATE TABLE shop.items (id INT, name STRING COMMENT 'shown to buyers', price DOUBLE,"
                        + " tags ARRAY<STRING>, PRIMARY KEY (id) NOT ENFORCED) COMMENT 'the catalog'",
                "CREATE TABLE shop.daily (dt STRING, id INT, v DOUBLE, PRIMARY KEY (dt, id) NOT ENFORCED)"
                        + " PARTITIONED BY (dt) WITH ('table.auto-partition.enabled' = 'false')");
        assertThat(setup.exitCode()).as(setup.err()).isZero();
        try (org.apache.fluss.client.admin.Admin admin = fluss.getAdmin()) {
            for (String day : List.of("2024-06-01", "2024-06-02")) {
                admin.createPartition(org.apache.fluss.metadata.TablePath.of("shop", "daily"),
                        new org.apache.fluss.metadata.PartitionSpec(java.util.Map.of("dt", day)), false).get();
            }
        }

        assertThat(aligned(server, "\\dn shop")).isEqualTo("""
                List of schemas
                 Name | Owner \s
                ------+--------
                 shop | riffle
                (1 row)

                """);
        assertThat(aligned(server, "\\dt shop.*")).isEqualTo("""
                                   List of relations
                 Schema |       Name       |       Type        | Owner \s
                --------+------------------+-------------------+--------
                 shop   | daily            | partitioned table | riffle
                 shop   | daily$2024-06-01 | table             | riffle
                 shop   | daily$2024-06-02 | table             | riffle
                 shop   | events           | table             | riffle
                 shop   | items            | table             | riffle
                (5 rows)

                """);
        assertThat(aligned(server, "\\d shop.items")).isEqualTo("""
                                     Table "shop.items"
                 Column |       Type       | Collation | Nullable | Default\s
                --------+------------------+-----------+----------+---------
                 id     | integer          |           | not null |\s
                 name   | text             |           |          |\s
                 price  | double precision |           |          |\s
                 tags   | text[]           |           |          |\s
                Indexes:
                    "items_pkey" PRIMARY KEY, btree (id)

                """);
        assertThat(aligned(server, "\\d shop.events")).isEqualTo("""
                                          Table "shop.events"
                 Column |            Type             | Collation | Nullable | Default\s
                --------+-----------------------------+-----------+----------+---------
                 id     | bigint                      |           |          |\s
                 kind   | text                        |           |          |\s
                 amount | numeric(10,2)               |           |          |\s
                 seen   | timestamp(6) with time zone |           |          |\s

                """);
        assertThat(aligned(server, "\\d shop.daily")).isEqualTo("""
                               Partitioned table "shop.daily"
                 Column |       Type       | Collation | Nullable | Default\s
                --------+------------------+-----------+----------+---------
                 dt     | text             |           | not null |\s
                 id     | integer          |           | not null |\s
                 v      | double precision |           |          |\s
                Partition key: LIST (dt)
                Indexes:
                    "daily_pkey" PRIMARY KEY, btree (dt, id)
                Number of partitions: 2 (Use \\d+ to list them.)

                """);
        assertThat(aligned(server, "\\d+ shop.items")).isEqualTo("""
                                                                  Table "shop.items"
                 Column |       Type       | Collation | Nullable | Default | Storage  | Compression | Stats target |   Description  \s
                --------+------------------+-----------+----------+---------+----------+-------------+--------------+-----------------
                 id     | integer          |           | not null |         | plain    |             |              |\s
                 name   | text             |           |          |         | extended |             |              | shown to buyers
                 price  | double precision |           |          |         | plain    |             |              |\s
                 tags   | text[]           |           |          |         | extended |             |              |\s
                Indexes:
                    "items_pkey" PRIMARY KEY, btree (id)
                Access method: heap

                """);
        assertThat(aligned(server, "\\d+ shop.events")).isEqualTo("""
                                                                     Table "shop.events"
                 Column |            Type             | Collation | Nullable | Default | Storage  | Compression | Stats target | Description\s
                --------+-----------------------------+-----------+----------+---------+----------+-------------+--------------+-------------
                 id     | bigint                      |           |          |         | plain    |             |              |\s
                 kind   | text                        |           |          |         | extended |             |              |\s
                 amount | numeric(10,2)               |           |          |         | extended |             |              |\s
                 seen   | timestamp(6) with time zone |           |          |         | plain    |             |              |\s
                Access method: heap

                """);
        assertThat(aligned(server, "\\d+ shop.daily")).isEqualTo("""
                                                          Partitioned table "shop.daily"
                 Column |       Type       | Collation | Nullable | Default | Storage  | Compression | Stats target | Description\s
                --------+------------------+-----------+----------+---------+----------+-------------+--------------+-------------
                 dt     | text             |           | not null |         | extended |             |              |\s
                 id     | integer          |           | not null |         | plain    |             |              |\s
                 v      | double precision |           |          |         | plain    |             |              |\s
                Partition key: LIST (dt)
                Indexes:
                    "daily_pkey" PRIMARY KEY, btree (dt, id)
                Partitions: shop."daily$2024-06-01" FOR VALUES IN ('2024-06-01'),
                            shop."daily$2024-06-02" FOR VALUES IN ('2024-06-02')

                """);
        assertThat(aligned(server, "\\d shop.\"daily$2024-06-01\"")).isEqualTo("""
                               Table "shop.daily$2024-06-01"
                 Column |       Type       | Collation | Nullable | Default\s
                --------+------------------+-----------+----------+---------
                 dt     | text             |           | not null |\s
                 id     | integer          |           | not null |\s
                 v      | double precision |           |          |\s
                Partition of: shop.daily FOR VALUES IN ('2024-06-01')

                """);
        assertThat(aligned(server, "\\dt+ shop.*")).isEqualTo("""
                                                             List of relations
                 Schema |       Name       |       Type        | Owner  | Persistence | Access method | Size | Description\s
                --------+------------------+-------------------+--------+-------------+---------------+------+-------------
                 shop   | daily            | partitioned table | riffle | permanent   |               |      |\s
                 shop   | daily$2024-06-01 | table             | riffle | permanent   | heap          |      |\s
                 shop   | daily$2024-06-02 | table             | riffle | permanent   | heap          |      |\s
                 shop   | events           | table             | riffle | permanent   | heap          |      |\s
                 shop   | items            | table             | riffle | permanent   | heap          |      | the catalog
                (5 rows)

                """);
        assertThat(aligned(server, "\\dn+ shop")).isEqualTo("""
                                 List of schemas
                 Name | Owner  | Access privileges | Description \s
                ------+--------+-------------------+--------------
                 shop | riffle |                   | what we sell
                (1 row)

                """);
        assertThat(aligned(server, "\\di shop.*")).isEqualTo("""
                              List of relations
                 Schema |    Name    | Type  | Owner  | Table\s
                --------+------------+-------+--------+-------
                 shop   | daily_pkey | index | riffle | daily
                 shop   | items_pkey | index | riffle | items
                (2 rows)

                """);
        assertThat(aligned(server, "\\df shop.*")).isEqualTo("""
                                       List of functions
                 Schema | Name | Result data type | Argument data types | Type\s
                --------+------+------------------+---------------------+------
                (0 rows)

                """);
        assertThat(aligned(server, "\\dT shop.*")).isEqualTo("""
                     List of data types
                 Schema | Name | Description\s
                --------+------+-------------
                (0 rows)

                """);
        assertThat(aligned(server, "\\du")).isEqualTo("""
                           List of roles
                 Role name | Attributes | Member of\s
                -----------+------------+-----------
                 riffle    |            | {}

                """);
        Run databases = psqlAligned(server, "\\l");
        assertThat(databases.exitCode()).as(databases.err()).isZero();
        assertThat(databases.out()).contains(" riffle | riffle | UTF8     | C       | C     |            | libc            |");
        Run verboseDatabases = psqlAligned(server, "\\l+");
        assertThat(verboseDatabases.exitCode()).as(verboseDatabases.err()).isZero();
        assertThat(verboseDatabases.out()).contains(" riffle | riffle | UTF8     | C       | C     |            | libc"
                + "            |                   |      | pg_default |");
        assertThat(aligned(server, "\\conninfo")).contains("You are connected to database \"riffle\" as user \"riffle\"");
        // expanded display, then a query: psql's own setting, Riffle's rows
        assertThat(psql(server, "INSERT INTO shop.items VALUES (7, 'lamp', 19.5, ARRAY['home'])").exitCode()).isZero();
        Run expanded = run(List.of(PSQL, "-X", "-h", server.clientHost(), "-p", Integer.toString(server.port()), "-U",
                "riffle", "-d", "riffle", "-c", "\\x on", "-c", "SELECT id, name FROM shop.items"));
        assertThat(expanded.exitCode()).as(expanded.err()).isZero();
        assertThat(expanded.out()).isEqualTo("Expanded display is on.\n-[ RECORD 1 ]\nid   | 7\nname | lamp\n\n");
        for (String command : List.of("\\dv shop.*", "\\ds shop.*")) {
            Run none = psqlAligned(server, command);
            assertThat(none.exitCode()).as(command).isZero();
            assertThat(none.err()).as(command).isEqualTo("Did not find any relation named \"shop.*\".\n");
        }

        Run missing = psqlAligned(server, "\\d shop.nothing");
        assertThat(missing.err()).contains("Did not find any relation named \"shop.nothing\"");
        // psql's patterns are regular expressions matched through the statement's guard (a pattern
        // that backtracks stops at the deadline, PostgresDialectIT shows): this one finds nothing
        Run regex = psqlAligned(server, "\\dt (a+)+b");
        assertThat(regex.exitCode()).as(regex.err()).isZero();
        assertThat(regex.err()).isEqualTo("Did not find any relation named \"(a+)+b\".\n");
        Run wildcards = psql(server, "\\dt sh?p.it*");
        assertThat(wildcards.exitCode()).as(wildcards.err()).isZero();
        assertThat(wildcards.out().lines()).containsExactly("shop|items|table|riffle");
        // a partition the catalog lists is a table to read
        Run partition = psql(server, "INSERT INTO shop.daily VALUES ('2024-06-01', 1, 1.5), ('2024-06-02', 2, 2.5)",
                "SELECT id, v FROM shop.\"daily$2024-06-02\"");
        assertThat(partition.exitCode()).as(partition.err()).isZero();
        assertThat(partition.out().lines()).containsExactly("INSERT 0 2", "2|2.5");
    }

    private static String aligned(PgWireServer server, String command) throws Exception {
        Run run = psqlAligned(server, command);
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        return run.out();
    }

    @Test
    void ctrlCCancelsALongQuery(PgWireServer server, org.apache.fluss.client.Connection fluss, TestNames names)
            throws Exception {
        this.server = server;
        org.apache.fluss.metadata.TablePath path = PgJdbcIT.bigTable(server, fluss, names, "psqlcancel", 30_000);
        // 3 million rows, streamed steadily (as PgJdbcIT's cancel test): every row with each of 100 values.
        StringBuilder values = new StringBuilder("(VALUES (0)");
        for (int i = 1; i < 100; i++) {
            values.append(", (").append(i).append(')');
        }
        values.append(") AS v(x)");
        List<String> command = List.of(PSQL, "-X", "-A", "-t", "-h", server.clientHost(), "-p",
                Integer.toString(server.port()), "-U", "riffle", "-d", "riffle", "-c", "SELECT a.id, v.x FROM "
                        + path.getDatabaseName() + "." + path.getTableName() + " a, " + values);
        Path err = Files.createTempFile("psql", ".err");
        try {
            // psql holds a result in memory until it is complete: its rows are not wanted here.
            Process psql = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(err.toFile()).start();
            try {
                // Once the read holds Arrow memory the query runs: Ctrl-C, as a user presses it.
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                        .until(() -> server.arrowAllocatedBytes() > 0 || !psql.isAlive());
                assertThat(psql.isAlive()).as("psql still runs the query").isTrue();
                Process kill = new ProcessBuilder("kill", "-INT", Long.toString(psql.pid())).inheritIO().start();
                assertThat(kill.waitFor()).isZero();
                assertThat(psql.waitFor(30, TimeUnit.SECONDS)).as("psql ends after the cancel").isTrue();
            } finally {
                psql.destroyForcibly();
            }
            assertThat(psql.exitValue()).isEqualTo(1);
            assertThat(Files.readString(err, UTF_8)).contains("ERROR:  canceling statement due to user request");
        } finally {
            Files.deleteIfExists(err);
        }
        // The server goes on serving (and the @AfterEach sees every byte of the read freed).
        Run count = psql(server, "SELECT count(*) FROM " + path.getDatabaseName() + "." + path.getTableName());
        assertThat(count.out().lines()).containsExactly("30000");
    }

    @Test
    void severalStatementsInOneCommand(PgWireServer server) throws Exception {
        this.server = server;
        Run run = psql(server, "SET application_name = 'psql-it'; SHOW application_name; SELECT 1 AS n;"
                + " SELECT 'a;b' AS s; BEGIN; COMMIT; SHOW server_version");
        assertThat(run.exitCode()).as(run.err()).isZero();
        // psql prints the tag of each statement that answers no rows, as with PostgreSQL itself.
        assertThat(run.out().lines()).containsExactly("SET", "psql-it", "1", "a;b", "BEGIN", "COMMIT", "14.0");
    }

    @Test
    void anErrorGoesToStderrWithExitCode1(PgWireServer server, TestNames names) throws Exception {
        this.server = server;
        String db = names.database("psqlerr");
        Run missing = psql(server, "SELECT * FROM " + db + ".nothing");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.out()).isEmpty();
        assertThat(missing.err()).startsWith("ERROR:  ").contains("not found");
        assertThat(missing.err()).doesNotContain("\tat "); // no stack trace on the wire

        Run unsupported = psql(server, "COPY " + db + ".t TO '/tmp/riffle-copy'");
        assertThat(unsupported.exitCode()).isEqualTo(1);
        assertThat(unsupported.err()).contains("Riffle does not serve COPY TO a file");
    }
}
