package dev.riffle.cli.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OutputTest {

    @Test
    void aCompletedFileIsKeptAsUtf8(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("out.csv");
        try (Output output = Output.file(file)) {
            output.text().write("Zürich\n");
            output.complete();
        }
        assertThat(Files.readString(file)).isEqualTo("Zürich\n");
    }

    @Test
    void aFileOfAFailedReadIsRemoved(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("out.csv"), "old");
        try (Output output = Output.file(file)) {
            output.binary().write(new byte[] {1, 2, 3});
        }
        assertThat(file).doesNotExist();
    }

    @Test
    void aMissingDirectoryIsNamed(@TempDir Path dir) {
        Path file = dir.resolve("no-such-dir").resolve("out.csv");
        assertThatThrownBy(() -> Output.file(file))
                .hasMessage("Cannot write " + file + ": the directory " + file.getParent() + " does not exist");
    }

    @Test
    void stdoutIsFlushedButNotClosed() throws Exception {
        StringWriter text = new StringWriter();
        PrintWriter writer = new PrintWriter(text);
        try (Output output = Output.stdout(writer, new PrintStream(new ByteArrayOutputStream()))) {
            output.text().write("a");
            assertThat(output.closedByReader()).isFalse();
        }
        writer.write("b");
        writer.flush();
        assertThat(text).hasToString("ab");
    }

    @Test
    void aClosedPipeIsReportedNotThrown() throws Exception {
        PrintWriter broken = new PrintWriter(new Writer() {
            @Override
            public void write(char[] buffer, int offset, int length) throws IOException {
                throw new IOException("Broken pipe");
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        });
        try (Output output = Output.stdout(broken, new PrintStream(new ByteArrayOutputStream()))) {
            output.text().write("rows");
            assertThat(output.closedByReader()).isTrue();
        }
    }
}
