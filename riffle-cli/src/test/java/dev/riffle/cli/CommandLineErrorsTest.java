package dev.riffle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input to the CLI: one clear line naming the problem, a non-zero exit, no stack trace. */
class CommandLineErrorsTest {

    record Result(int exitCode, String out, String err) {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RiffleCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void helpListsTheCommands() {
        Result result = run("--help");
        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).contains("local");
    }

    @Test
    void unknownFlag() {
        Result result = run("local", "--bogus");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err()).isEqualTo("riffle: Unknown option: '--bogus' (see 'riffle local --help')" + System.lineSeparator());
    }

    @Test
    void unknownConsoleModeNamesTheChoices() {
        for (String command : new String[] {"local", "serve"}) {
            Result result = run(command, "--console", "sideways");
            assertThat(result.exitCode()).as(command).isEqualTo(2);
            assertThat(result.err().lines()).as(command).singleElement().asString()
                    .contains("--console").contains("on, read-only, off").contains("'sideways'");
        }
    }

    @Test
    void lakeOptionsAreCheckedBeforeAnythingStarts(@TempDir Path dataDir) {
        Result unpaired = run("local", "--data-dir", dataDir.toString(), "--lake-option", "warehouse");
        assertThat(unpaired.exitCode()).isEqualTo(2);
        assertThat(unpaired.err().lines()).singleElement().asString().contains("--lake-option").contains("warehouse");

        Result prefixed = run("local", "--data-dir", dataDir.toString(), "--port", "0",
                "--lake-option", "datalake.paimon.warehouse=s3://b/w");
        assertThat(prefixed.exitCode()).isEqualTo(2);
        assertThat(prefixed.err().lines()).singleElement().asString()
                .contains("--lake-option").contains("'datalake.paimon.warehouse'").contains("as Paimon names it");

        Result withoutLake = run("local", "--data-dir", dataDir.toString(), "--port", "0", "--no-lake",
                "--lake-option", "warehouse=s3://b/w");
        assertThat(withoutLake.exitCode()).isEqualTo(2);
        assertThat(withoutLake.err().lines()).singleElement().asString().contains("--no-lake");
        assertThat(dataDir.resolve("lake")).as("nothing started").doesNotExist();
    }

    @Test
    void malformedPort() {
        Result result = run("local", "--port", "abc");
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.err().lines()).singleElement().asString().contains("'--port'").contains("'abc'");
    }

    @Test
    void portAlreadyInUse(@TempDir Path dataDir) throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            Result result = run("local", "--data-dir", dataDir.toString(), "--port", Integer.toString(taken.getLocalPort()));
            assertThat(result.exitCode()).isEqualTo(1);
            assertThat(result.err()).isEqualTo("riffle: Port " + taken.getLocalPort()
                    + " is already in use; choose another port (0 picks a free one)" + System.lineSeparator());
        }
    }

    @Test
    void unwritableDataDirectory(@TempDir Path tmp) throws Exception {
        Path file = Files.createFile(tmp.resolve("a-file"));
        Result result = run("local", "--data-dir", file.resolve("data").toString(), "--port", "0");
        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.err().lines()).singleElement().asString()
                .startsWith("riffle: Data directory " + file.resolve("data") + " is not writable");
    }

    @Test
    void postgresTlsAndPasswordFileOptionsAreCheckedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        Result keyless = run("serve", "--http-host", "127.0.0.1", "--pg-tls-cert", "cert.pem");
        assertThat(keyless.exitCode()).isEqualTo(2);
        assertThat(keyless.err()).isEqualTo("riffle: --pg-tls-cert and --pg-tls-key go together (see 'riffle serve "
                + "--help')" + System.lineSeparator());
        Result localKeyless = run("local", "--data-dir", dir.toString(), "--pg-tls-key", "key.pem");
        assertThat(localKeyless.exitCode()).isEqualTo(2);
        assertThat(localKeyless.err()).startsWith("riffle: --pg-tls-cert and --pg-tls-key go together");

        Result noPg = run("serve", "--http-host", "127.0.0.1", "--pg-port", "-1", "--pg-tls-cert", "c.pem",
                "--pg-tls-key", "k.pem");
        assertThat(noPg.exitCode()).isEqualTo(2);
        assertThat(noPg.err()).startsWith("riffle: --pg-tls-cert is for the PostgreSQL protocol, which --pg-port -1 "
                + "turns off");

        Path users = Files.writeString(dir.resolve("pg-users"), "alice:alice-secret\n");
        Result withoutAuth = run("serve", "--http-host", "127.0.0.1", "--pg-password-file", users.toString());
        assertThat(withoutAuth.exitCode()).isEqualTo(2);
        assertThat(withoutAuth.err()).startsWith("riffle: --pg-password-file goes with --auth basic");
        Result missing = run("serve", "--auth", "basic", "--pg-password-file", dir.resolve("none").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err()).startsWith("riffle: Cannot read --pg-password-file " + dir.resolve("none")
                + ": no such file");
        Path bad = Files.writeString(dir.resolve("bad"), "alice:alice-secret\nbob-secret\n");
        Result malformed = run("serve", "--auth", "basic", "--pg-password-file", bad.toString());
        assertThat(malformed.exitCode()).isEqualTo(2);
        assertThat(malformed.err()).startsWith("riffle: Password file " + bad + ", line 2: expected user:password")
                .doesNotContain("bob-secret");
    }
}
