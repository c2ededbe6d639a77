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
}
