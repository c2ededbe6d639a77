package dev.riffle.server.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.session.RequestContext;
import dev.riffle.sql.ddl.DdlParser;
import dev.riffle.sql.exec.DirectRead;
import dev.riffle.sql.exec.ResultSetReader;
import dev.riffle.sql.exec.StatementShape;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Runs SQL statements for every surface, in the request's session (as its principal): prepared
 * once per SQL connection, parameters bound, and the answer given as Arrow batches. A statement
 * whose plan is one table read ({@link DirectRead}) is answered with the read's own batches; any
 * other with its computed rows, converted once.
 *
 * <pre>{@code
 * try (SqlResult result = SqlStatements.run(request, "SELECT * FROM shop.orders WHERE id = ?", List.of(42))) { ... }
 * }</pre>
 */
public final class SqlStatements {
    private SqlStatements() {}

    /**
     * @param parameters the {@code ?} values in order, as JDBC setters take them ({@code Boolean},
     *     {@code Integer}, {@code Long}, {@code BigDecimal}, {@code String}, or {@code null})
     * @throws SQLException what the SQL layer says of a statement that does not parse, plan or run
     */
    public static SqlResult run(RequestContext request, String sql, List<Object> parameters) throws SQLException {
        requireNonNull(request, "request is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(parameters, "parameters is null");
        checkLength(request, sql);
        SqlConnections.Lease lease = request.session().sql().borrow();
        try {
            PreparedStatement statement = lease.prepare(sql);
            for (int i = 0; i < parameters.size(); i++) {
                statement.setObject(i + 1, parameters.get(i));
            }
            statement.setQueryTimeout((int) Math.min(Integer.MAX_VALUE, request.limits().scanTimeout().toSeconds()));
            Optional<DirectRead> direct = DirectRead.of(statement);
            if (direct.isPresent()) {
                return new SqlResult.Rows(direct.get().open(parameters, request.allocator()), true, lease);
            }
            if (!statement.execute()) {
                long count = statement.getLargeUpdateCount();
                lease.close();
                return new SqlResult.Updated(count);
            }
            return new SqlResult.Rows(ResultSetReader.of(statement, statement.getResultSet(), request.allocator()),
                    false, lease);
        } catch (SQLException | RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    /**
     * What {@code sql} answers and takes, without running it (prepared in the request's session,
     * so running it next is planned already). DDL, which Calcite would run while preparing it, is
     * recognized first and answers no rows.
     *
     * @throws SQLException what the SQL layer says of a statement that does not parse or plan
     */
    public static StatementShape shape(RequestContext request, String sql) throws SQLException {
        requireNonNull(request, "request is null");
        requireNonNull(sql, "sql is null");
        checkLength(request, sql);
        try {
            if (DdlParser.parse(sql).isPresent()) {
                return StatementShape.UPDATE;
            }
        } catch (RuntimeException e) {
            throw new SQLException(e.getMessage(), e);
        }
        try (SqlConnections.Lease lease = request.session().sql().borrow()) {
            return StatementShape.of(lease.prepare(sql));
        }
    }

    private static void checkLength(RequestContext request, String sql) {
        if (sql.length() > request.limits().maxSqlLength()) {
            throw new ServiceException(FailureKind.TOO_LARGE, "sql_too_long", "The statement is " + sql.length()
                    + " characters long; this server takes statements of at most " + request.limits().maxSqlLength());
        }
    }
}
