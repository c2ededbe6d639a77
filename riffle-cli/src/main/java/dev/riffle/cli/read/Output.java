package dev.riffle.cli.read;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Where {@code riffle read} writes its rows: standard output ({@code --out -}) or a file.
 *
 * <p>A file is removed again when the read fails after it was opened, so a failed read never
 * leaves a valid-looking but partial file behind (the old content is gone either way). Standard
 * output is flushed but never closed, and never throws: {@link #closedByReader()} tells when the
 * program reading it went away ({@code riffle read ... | head}).
 */
public final class Output implements AutoCloseable {
    private final Optional<Path> file;
    private final OutputStream binary;
    /** Standard output's text writer; for a file, created on first use. */
    private Writer text;
    private boolean textUsed;
    private boolean binaryUsed;
    private boolean complete;

    private Output(Optional<Path> file, OutputStream binary, Writer text) {
        this.file = file;
        this.binary = binary;
        this.text = text;
    }

    /**
     * Standard output.
     *
     * @param text where text goes (the command line's own writer, so tests can capture it)
     * @param bytes where binary output goes
     */
    public static Output stdout(PrintWriter text, PrintStream bytes) {
        return new Output(Optional.empty(), requireNonNull(bytes, "bytes is null"), requireNonNull(text, "text is null"));
    }

    /** A file, created or truncated now. */
    public static Output file(Path path) {
        requireNonNull(path, "path is null");
        try {
            return new Output(Optional.of(path), new BufferedOutputStream(Files.newOutputStream(path), 1 << 16), null);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("Cannot write " + path + ": the directory "
                    + path.toAbsolutePath().getParent() + " does not exist", e);
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException("Cannot write " + path + ": permission denied", e);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + path + ": " + e.getMessage(), e);
        }
    }

    /** For text formats: UTF-8 into a file, whatever the platform's default charset. */
    public Writer text() {
        if (text == null) {
            text = new BufferedWriter(new OutputStreamWriter(binary, UTF_8), 1 << 16);
        }
        textUsed = true;
        return text;
    }

    /** For binary formats. */
    public OutputStream binary() {
        binaryUsed = true;
        return binary;
    }

    /**
     * Whether standard output can no longer be written, typically because the program reading it
     * exited (a broken pipe): {@link PrintWriter} and {@link PrintStream} report that only here,
     * never by throwing. Flushes, so call it between batches, not between rows.
     */
    public boolean closedByReader() {
        if (file.isPresent()) {
            return false; // file writes throw instead
        }
        return (textUsed && ((PrintWriter) text).checkError()) || (binaryUsed && ((PrintStream) binary).checkError());
    }

    /** The read succeeded: flushes, and keeps the file. */
    public void complete() throws IOException {
        flush();
        complete = true;
    }

    /** Closes a file, and removes it unless {@link #complete()} was called. Standard output stays open. */
    @Override
    public void close() throws IOException {
        if (file.isEmpty()) {
            flush();
            return;
        }
        try {
            (text != null ? text : binary).close(); // the writer closes the stream under it
        } finally {
            // Only regular files: --out /dev/stderr or a named pipe must survive a failed read.
            if (!complete && Files.isRegularFile(file.get())) {
                Files.deleteIfExists(file.get());
            }
        }
    }

    private void flush() throws IOException {
        if (text != null) {
            text.flush();
        }
        binary.flush();
    }
}
