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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real psql 15 (Debian's postgresql-client) against Riffle's PostgreSQL protocol server, run
 * as a process the way a user runs it: unaligned, tuples-only output compared with PostgreSQL's
 * exact text forms, several statements in one {@code -c}, and an error on stderr with exit code 1.
 */
@ExtendWith({LocalClusterExtension.class, PgServerExtension.class})
class PsqlIT {
    private static final String PSQL = "/usr/bin/psql";

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

    static Run psql(PgWireServer server, String... commands) throws Exception {
        List<String> command = new ArrayList<>(List.of(PSQL, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                "-h", server.clientHost(), "-p", Integer.toString(server.port()), "-U", "riffle", "-d", "riffle"));
        for (String c : commands) {
            command.add("-c");
            command.add(c);
        }
        Path out = Files.createTempFile("psql", ".out");
        Path err = Files.createTempFile("psql", ".err");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().put("PGCONNECT_TIMEOUT", "10");
            builder.environment().remove("PGPASSWORD");
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

        Run unsupported = psql(server, "COPY x TO STDOUT");
        assertThat(unsupported.exitCode()).isEqualTo(1);
        assertThat(unsupported.err()).contains("Riffle does not serve COPY");
    }
}
