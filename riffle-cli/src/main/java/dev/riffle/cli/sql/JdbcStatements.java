package dev.riffle.cli.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.cli.process.BackgroundClose;
import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.ddl.DdlParser;
import dev.riffle.sql.engine.ResultSetReader;
import dev.riffle.sql.engine.StatementShape;
import dev.riffle.sql.statement.DirectRead;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;

/**
 * Statements run over this process's own {@code jdbc:riffle} connection: a Fluss client and
 * Calcite's planner in the command's JVM. The connection closes in the background
 * ({@link BackgroundClose}) once the last answer is printed.
 */
final class JdbcStatements implements StatementTarget {
    private final Connection connection;
    private final BufferAllocator allocator;

    private JdbcStatements(Connection connection, BufferAllocator allocator) {
        this.connection = connection;
        this.allocator = allocator;
    }

    /** Connects to {@code jdbc:riffle://BOOTSTRAP}; rows are read from {@code allocator}. */
    static JdbcStatements connect(String bootstrapServers, BufferAllocator allocator) throws SQLException {
        requireNonNull(allocator, "allocator is null");
        try {
            Class.forName("dev.riffle.sql.jdbc.RiffleDriver"); // registers jdbc:riffle:
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("The jdbc:riffle driver is not on the class path", e);
        }
        return new JdbcStatements(DriverManager.getConnection(url(bootstrapServers)), allocator);
    }

    static String url(String bootstrapServers) {
        return "jdbc:riffle://" + requireNonNull(bootstrapServers, "bootstrapServers is null");
    }

    @Override
    public Outcome run(String sql) throws SQLException {
        if (DdlParser.parse(sql).isPresent()) {
            try (Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
            return new Outcome.Changed(OptionalLong.empty());
        }
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            if (!StatementShape.of(statement).query()) {
                try (statement) {
                    return new Outcome.Changed(OptionalLong.of(statement.executeLargeUpdate()));
                }
            }
            // A query that is one read of a table is answered by the read itself, at full precision (the
            // row engine would cut timestamps to milliseconds), as every server surface answers it.
            Optional<DirectRead> direct = DirectRead.of(statement);
            TableReader rows = direct.isPresent() ? direct.get().open(List.of(), allocator)
                    : ResultSetReader.of(statement, statement.executeQuery(), allocator);
            return new Outcome.Rows(rows, statement);
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }

    /**
     * Plans {@code sql} without running it (nothing is read or written): how a run that archives
     * the JVM's classes ({@code bin/riffle}'s first one-shot command after a build) also loads the
     * planner's, when it answered through a gateway.
     */
    void prepareOnly(String sql) throws SQLException {
        if (DdlParser.parse(sql).isEmpty()) {
            connection.prepareStatement(sql).close();
        }
    }

    @Override
    public void close() {
        BackgroundClose.close(connection, "the SQL connection");
    }
}
