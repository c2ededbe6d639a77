package dev.riffle.server.sql;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.TableReader;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.server.session.KeyLookupStatements;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.SqlConnections;
import dev.riffle.server.statement.RunningStatement;
import dev.riffle.sql.ddl.DdlParser;
import dev.riffle.sql.ddl.DdlStatement;
import dev.riffle.sql.engine.ResultSetReader;
import dev.riffle.sql.engine.StatementShape;
import dev.riffle.sql.statement.BucketOffsets;
import dev.riffle.sql.statement.DirectRead;
import dev.riffle.sql.statement.ExecutionGuard;
import dev.riffle.sql.statement.LookedUpRows;
import dev.riffle.sql.statement.SessionHost;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.fluss.metadata.TablePath;

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
     *     {@code Integer}, {@code Long}, {@code BigDecimal}, {@code String}, or {@code null}); a
     *     string for a date, time or timestamp parameter is read as the JSON API writes that type
     * @throws SQLException what the SQL layer says of a statement that does not parse, plan or run
     */
    public static SqlResult run(RequestContext request, String sql, List<Object> parameters) throws SQLException {
        return run(request, sql, parameters, Optional.empty());
    }

    /**
     * As {@link #run(RequestContext, String, List)}, reading only {@code part} of a statement that
     * is a bare log or changelog read: those buckets, each between its offsets (see {@link #offsets}).
     *
     * <p>Every statement runs under its request's deadline and can be cancelled through its
     * request ({@link RequestContext#beginStatement}); while it runs it is listed among the
     * server's running statements. A statement that is no key lookup first waits for a place
     * under the server's admission, without holding a SQL connection meanwhile.
     */
    public static SqlResult run(RequestContext request, String sql, List<Object> parameters,
            Optional<BucketOffsets> part) throws SQLException {
        requireNonNull(request, "request is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(parameters, "parameters is null");
        requireNonNull(part, "part is null");
        checkLength(request, sql);
        RunningStatement running = request.beginStatement(sql);
        try {
            SqlResult result = run(request, running, sql, parameters, part);
            if (result instanceof SqlResult.Updated) {
                running.close();
            }
            return result;
        } catch (SQLException | RuntimeException e) {
            running.failed();
            running.close();
            throw e;
        }
    }

    private static SqlResult run(RequestContext request, RunningStatement running, String sql,
            List<Object> parameters, Optional<BucketOffsets> part) throws SQLException {
        if (part.isEmpty()) {
            Optional<SqlResult> written = LiteralInsert.run(request, running, sql, parameters);
            if (written.isPresent()) {
                return written.get();
            }
        }
        SqlConnections.Lease lease = request.session().sql().borrow(request.dialect());
        Optional<DdlStatement> ddlStatement;
        try {
            // A statement this connection prepared before is no DDL (DDL is never prepared): a
            // repeated query skips tokenizing its text again.
            ddlStatement = lease.isPrepared(sql) ? Optional.empty() : DdlParser.parse(sql);
        } catch (RuntimeException e) {
            lease.close();
            throw new SQLException(e.getMessage(), e);
        }
        if (ddlStatement.isPresent()) {
            return ddl(request, lease, sql, ddlStatement.get(), !parameters.isEmpty() || part.isPresent());
        }
        return query(request, running, lease, sql, parameters, part);
    }

    private static SqlResult ddl(RequestContext request, SqlConnections.Lease lease, String sql, DdlStatement ddl,
            boolean withParameters) throws SQLException {
        try (lease) {
            if (withParameters) {
                throw new SQLException("DDL takes no parameters");
            }
            lease.executeDdl(sql, request.schema());
            changedTable(ddl).ifPresent(request.session().sql()::tableChanged);
            return new SqlResult.Updated(0, ddl.notice().stream().toList());
        }
    }

    private static SqlResult query(RequestContext request, RunningStatement running, SqlConnections.Lease lease,
            String sql, List<Object> parameters, Optional<BucketOffsets> part) throws SQLException {
        try {
            Prepared prepared = Prepared.of(lease, sql, parameters, request.schema());
            if (prepared.bareRead()) {
                // Opening the reader asks Fluss and computes nothing; its batches take a place each
                // (GuardedTableReader). The parts of one Flight scan so open at once, not in turns.
                running.admitWhenComputing();
            } else if (!prepared.keyLookup() && !running.tryAdmit()) {
                // Wait for a place without keeping a SQL connection from the requests that have one.
                lease.close();
                lease = null;
                running.admit();
                lease = request.session().sql().borrow(request.dialect());
                prepared = Prepared.of(lease, sql, parameters, request.schema());
            }
            ExecutionGuard guard = running.guard();
            guard.check(); // cancelled or out of time while it waited
            Optional<DirectRead> direct = prepared.direct();
            SqlConnections.Lease held = lease;
            if (direct.isPresent()) {
                if (direct.get().isKeyLookup() && request.schema().isEmpty()) {
                    request.session().sql().keyLookups(request.dialect()).remember(sql, direct.get(),
                            prepared.statement());
                }
                TableReader reader = part.isPresent() ? direct.get().open(prepared.bound(), request.allocator(), part.get())
                        : direct.get().open(prepared.bound(), request.allocator());
                return new SqlResult.Rows(new GuardedTableReader(reader, running), true, () -> {
                    try (running; held) {
                        // the read is closed first, by the result
                    }
                });
            }
            if (part.isPresent()) {
                throw new SQLException("The statement is not a bare table read, so it cannot be read in parts");
            }
            PreparedStatement statement = prepared.statement();
            AutoCloseable guarded = guard.attachTo(statement);
            AutoCloseable hosted = request.host().isPresent()
                    ? ExecutionGuard.attach(statement, SessionHost.KEY, request.host().get()) : () -> { };
            AutoCloseable attached = () -> closeAll(guarded, hosted);
            try {
                if (!statement.execute()) {
                    long count = statement.getLargeUpdateCount();
                    closeAll(attached, lease);
                    return new SqlResult.Updated(count);
                }
                return new SqlResult.Rows(new GuardedTableReader(ResultSetReader.of(statement, statement.getResultSet(),
                        request.allocator()), running), false, () -> closeAll(attached, held, running));
            } catch (SQLException | RuntimeException e) {
                closeAll(attached);
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            if (lease != null) {
                lease.close();
            }
            throw e;
        }
    }

    /** A statement prepared on a connection, its parameters bound, and its direct read when it is one. */
    private record Prepared(PreparedStatement statement, List<Object> bound, Optional<DirectRead> direct) {
        static Prepared of(SqlConnections.Lease lease, String sql, List<Object> parameters, Optional<String> schema)
                throws SQLException {
            PreparedStatement statement = lease.prepare(sql, schema);
            List<Object> bound = parameters.stream().anyMatch(String.class::isInstance)
                    ? TemporalParameters.typed(statement.getParameterMetaData(), parameters) : parameters;
            for (int i = 0; i < bound.size(); i++) {
                statement.setObject(i + 1, bound.get(i));
            }
            return new Prepared(statement, bound, DirectRead.of(statement));
        }

        /** Whether it is a point or prefix lookup: short work that never waits for a place. */
        boolean keyLookup() {
            return direct.isPresent() && direct.get().isKeyLookup();
        }

        /** Whether it reads a table directly and is no key lookup: its work is its batches. */
        boolean bareRead() {
            return direct.isPresent() && !direct.get().isKeyLookup();
        }
    }

    private static void closeAll(AutoCloseable... resources) {
        RuntimeException failure = null;
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("Ending a statement failed: " + e.getMessage(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Answers {@code sql} without a SQL connection when this session ran the same text before on
     * one and it is a key lookup ({@link KeyLookupStatements}) that these parameters bind to as
     * they would there: the rows {@link #run} answers, once the keys are found, with no thread
     * waiting meanwhile, as the found rows themselves ({@link LookedUpRows}). Empty when the
     * statement must {@link #run}.
     *
     * <pre>{@code
     * SqlStatements.lookUp(request, "SELECT * FROM shop.orders WHERE id = ?", List.of(42))
     *         .ifPresent(found -> found.thenAccept(rows -> render(rows)));
     * }</pre>
     *
     * @throws RuntimeException what the SQL layer says of parameters it cannot look up with (as
     *     {@link #run} would throw it); the future fails as {@link #run} would for a failed lookup
     */
    public static Optional<CompletableFuture<LookedUpRows>> lookUp(RequestContext request, String sql,
            List<Object> parameters) {
        return lookUp(request, sql, parameters, false);
    }

    /**
     * As {@link #lookUp}, for a thread that must not wait (a server's selector thread): empty also
     * when the lookup could be sent only after asking the cluster something (its table's metadata
     * is not recent, the table is partitioned) or waiting for room in Fluss's lookup queue;
     * {@link #lookUp} on another thread then does that.
     */
    public static Optional<CompletableFuture<LookedUpRows>> lookUpWithoutWaiting(RequestContext request, String sql,
            List<Object> parameters) {
        return lookUp(request, sql, parameters, true);
    }

    private static Optional<CompletableFuture<LookedUpRows>> lookUp(RequestContext request, String sql,
            List<Object> parameters, boolean withoutAsking) {
        requireNonNull(request, "request is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(parameters, "parameters is null");
        checkLength(request, sql);
        if (request.schema().isPresent()) {
            return Optional.empty(); // remembered lookups resolved their names in the default schema
        }
        KeyLookupStatements statements = request.session().sql().keyLookups(request.dialect());
        Optional<KeyLookupStatements.Known> known = withoutAsking ? statements.getWithoutAsking(sql) : statements.get(sql);
        if (known.isEmpty() || !known.get().binds(parameters)) {
            return Optional.empty();
        }
        return withoutAsking ? known.get().read().lookUpWithoutWaiting(parameters) : known.get().read().lookUp(parameters);
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
            if (DdlParser.parse(sql).isPresent() || LiteralInsert.writesWithoutEngine(request, sql)) {
                return StatementShape.UPDATE;
            }
        } catch (RuntimeException e) {
            throw new SQLException(e.getMessage(), e);
        }
        try (SqlConnections.Lease lease = request.session().sql().borrow(request.dialect())) {
            return StatementShape.of(lease.prepare(sql, request.schema()));
        }
    }

    /**
     * Where {@code sql} would start and stop reading in each bucket, when it is a bare log or
     * changelog read (no computation over the rows, no row limit), captured now: the statement can
     * then be read in parts by bucket, each part by any server, every row once, and no part asks
     * Fluss for offsets again.
     */
    public static Optional<BucketOffsets> offsets(RequestContext request, String sql, List<Object> parameters)
            throws SQLException {
        requireNonNull(request, "request is null");
        checkLength(request, sql);
        try {
            if (DdlParser.parse(sql).isPresent()) {
                return Optional.empty();
            }
        } catch (RuntimeException e) {
            throw new SQLException(e.getMessage(), e);
        }
        try (SqlConnections.Lease lease = request.session().sql().borrow(request.dialect())) {
            PreparedStatement statement = lease.prepare(sql, request.schema());
            Optional<DirectRead> direct = DirectRead.of(statement);
            return direct.isEmpty() ? Optional.empty() : direct.get().offsets(
                    TemporalParameters.typed(statement.getParameterMetaData(), parameters), request.allocator());
        }
    }

    /** The table a DDL statement creates, alters or drops, when it names its database. */
    private static Optional<TablePath> changedTable(DdlStatement statement) {
        if (statement instanceof DdlStatement.CreateTable create && create.database().isPresent()) {
            return Optional.of(TablePath.of(create.database().get(), create.name()));
        }
        if (statement instanceof DdlStatement.AlterTable alter && alter.database().isPresent()) {
            return Optional.of(TablePath.of(alter.database().get(), alter.name()));
        }
        if (statement instanceof DdlStatement.DropTable drop && drop.database().isPresent()) {
            return Optional.of(TablePath.of(drop.database().get(), drop.name()));
        }
        return Optional.empty();
    }

    private static void checkLength(RequestContext request, String sql) {
        if (sql.length() > request.limits().maxSqlLength()) {
            throw new ServiceException(FailureKind.TOO_LARGE, "sql_too_long", "The statement is " + sql.length()
                    + " characters long; this server takes statements of at most " + request.limits().maxSqlLength());
        }
    }
}
