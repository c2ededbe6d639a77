package dev.riffle.cli.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.dialect.StatementSplitter;
import dev.riffle.server.failure.Failures;
import dev.riffle.server.failure.SqlFailures;
import dev.riffle.sql.ddl.DdlParser;
import dev.riffle.sql.exec.ResultSetReader;
import dev.riffle.sql.exec.StatementShape;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import org.apache.arrow.memory.BufferAllocator;

/**
 * {@code riffle sql -e SQL} and {@code -f FILE}: runs each statement over one {@code jdbc:riffle}
 * connection and prints its rows in the chosen {@link OutputFormat}, or what it changed. The first
 * statement that fails stops the run with one line on stderr,
 * {@code ERROR: table_not_found: Table 'nope' not found ...}, and exit code 1, so a script never
 * goes on past a failure.
 *
 * <pre>{@code
 * int code = new OneShotSql(connection, allocator, OutputFormat.TABLE, out, System.out, err).run("SELECT 1");
 * }</pre>
 */
final class OneShotSql {
    private final Connection connection;
    private final BufferAllocator allocator;
    private final OutputFormat format;
    private final PrintWriter out;
    private final OutputStream binary;
    private final PrintWriter err;

    /** @param binary where Arrow's bytes go: the stream behind {@code out} */
    OneShotSql(Connection connection, BufferAllocator allocator, OutputFormat format, PrintWriter out,
            OutputStream binary, PrintWriter err) {
        this.connection = requireNonNull(connection, "connection is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
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
            } catch (SQLException | RuntimeException e) {
                Failures.Failure failure = e instanceof SQLException sqlFailure ? SqlFailures.classify(sqlFailure, sql)
                        : Failures.classify(e);
                out.flush();
                err.println("ERROR: " + failure.code() + ": " + failure.message().replace('\n', ' '));
                err.flush();
                return 1;
            }
        }
        out.flush();
        return 0;
    }

    private void runOne(String sql) throws SQLException, IOException {
        if (DdlParser.parse(sql).isPresent()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
            changed(-1);
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            if (!StatementShape.of(statement).query()) {
                changed(statement.executeLargeUpdate());
                return;
            }
            try (TableReader rows = ResultSetReader.of(statement, statement.executeQuery(), allocator)) {
                format.write(rows, out, binary);
            }
        }
    }

    /** What a statement that answers no rows did: said only where a person reads it (the table format). */
    private void changed(long rows) {
        if (format == OutputFormat.TABLE) {
            out.println(rows < 0 ? "OK" : "OK, " + rows + (rows == 1 ? " row" : " rows") + " changed");
        }
    }
}
