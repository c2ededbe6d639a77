package dev.riffle.cli.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.cli.running.GatewayFailure;
import dev.riffle.server.failure.Failures;
import dev.riffle.server.failure.SqlFailures;
import dev.riffle.sql.dialect.StatementSplitter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.OptionalLong;

/**
 * {@code riffle sql -e SQL} and {@code -f FILE}: runs each statement on one {@link StatementTarget}
 * (the command's own {@code jdbc:riffle} connection, or a running gateway) and prints its rows in
 * the chosen {@link OutputFormat}, or what it changed. The first statement that fails stops the
 * run with one line on stderr, {@code ERROR: table_not_found: Table 'nope' not found ...}, and exit
 * code 1, so a script never goes on past a failure.
 *
 * <pre>{@code
 * int code = new OneShotSql(target, OutputFormat.TABLE, out, System.out, err).run("SELECT 1");
 * }</pre>
 */
final class OneShotSql {
    private final StatementTarget target;
    private final OutputFormat format;
    private final PrintWriter out;
    private final OutputStream binary;
    private final PrintWriter err;

    /** @param binary where Arrow's bytes go: the stream behind {@code out} */
    OneShotSql(StatementTarget target, OutputFormat format, PrintWriter out, OutputStream binary, PrintWriter err) {
        this.target = requireNonNull(target, "target is null");
        this.format = requireNonNull(format, "format is null");
        this.out = requireNonNull(out, "out is null");
        this.binary = requireNonNull(binary, "binary is null");
        this.err = requireNonNull(err, "err is null");
    }

    /** Runs every statement of {@code script}; 0 when all ran, 1 at the first that failed. */
    int run(String script) throws IOException {
        for (String sql : StatementSplitter.split(script)) {
            try {
                runOne(sql);
            } catch (Exception e) {
                out.flush();
                err.println("ERROR: " + describe(e, sql).replace('\n', ' '));
                err.flush();
                return 1;
            }
        }
        out.flush();
        return 0;
    }

    /** {@code code: message}, as every surface classifies the failure. */
    private static String describe(Exception e, String sql) {
        if (e instanceof GatewayFailure gateway) {
            return gateway.code() + ": " + gateway.getMessage();
        }
        Failures.Failure failure = e instanceof SQLException sqlFailure ? SqlFailures.classify(sqlFailure, sql)
                : Failures.classify(e);
        return failure.code() + ": " + failure.message();
    }

    private void runOne(String sql) throws Exception {
        try (StatementTarget.Outcome outcome = target.run(sql)) {
            if (outcome instanceof StatementTarget.Outcome.Rows rows) {
                format.write(rows.reader(), out, binary);
            } else {
                changed(((StatementTarget.Outcome.Changed) outcome).rows());
            }
        }
    }

    /** What a statement that answers no rows did: said only where a person reads it (the table format). */
    private void changed(OptionalLong rows) {
        if (format == OutputFormat.TABLE) {
            out.println(rows.isEmpty() ? "OK" : "OK, " + rows.getAsLong() + (rows.getAsLong() == 1 ? " row" : " rows")
                    + " changed");
        }
    }
}
