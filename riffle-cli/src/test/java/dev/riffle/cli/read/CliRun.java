package dev.riffle.cli.read;

import dev.riffle.cli.RiffleCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** One in-process run of the {@code riffle} command line, with what it printed. */
record CliRun(int exitCode, String out, String err) {

    static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = RiffleCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Stdout's lines after the first (a CSV header). */
    List<String> outLinesAfterHeader() {
        return out.lines().skip(1).toList();
    }
}
