package dev.riffle.cli;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * One run of the {@code riffle} command line in this JVM, with what it wrote to stdout (rows go to
 * {@code System.out} itself, Arrow's as bytes) and to stderr, as a user of the process sees them.
 */
public record CapturedRun(int code, byte[] bytes, String err) {

    public static CapturedRun of(String... args) {
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, UTF_8));
            System.setErr(new PrintStream(err, true, UTF_8));
            StringWriter picocliOut = new StringWriter();
            StringWriter picocliErr = new StringWriter();
            code = RiffleCli.run(args, new PrintWriter(picocliOut, true), new PrintWriter(picocliErr, true));
            System.out.print(picocliOut);
            System.err.print(picocliErr);
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
        }
        return new CapturedRun(code, out.toByteArray(), err.toString(UTF_8));
    }

    /** Stdout as text. */
    public String out() {
        return new String(bytes, UTF_8);
    }
}
