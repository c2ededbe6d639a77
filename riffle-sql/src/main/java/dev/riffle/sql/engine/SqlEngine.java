package dev.riffle.sql.engine;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.tables.TableHandles;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.exec.FlussSession;
import dev.riffle.sql.exec.PreparedTables;
import dev.riffle.sql.exec.SessionSchema;
import dev.riffle.sql.jdbc.RiffleDriver;
import dev.riffle.sql.statement.StatementLimits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.calcite.avatica.AvaticaPreparedStatement;
import org.apache.calcite.jdbc.CalciteConnection;
import org.apache.fluss.config.ConfigOptions;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TablePath;

/**
 * Riffle's SQL engine, embedded: the SQL of one session (a principal's, or a server's own) over a
 * Fluss connection its caller holds. Its statements share that connection, their memory is a
 * child of the caller's allocator, and its table handles and lookupers are one set for every
 * statement, so point queries of concurrent statements are batched into the same lookups. A
 * server calls the engine directly; {@code jdbc:riffle} is one more client of it.
 *
 * <pre>{@code
 * try (Riffle riffle = Riffle.connect("127.0.0.1:9123");
 *         SqlEngine engine = SqlEngine.over(riffle, StatementLimits.DEFAULT);
 *         Connection sql = engine.connect(Dialect.POSTGRESQL);
 *         ResultSet rs = sql.createStatement().executeQuery("SELECT count(*) FROM shop.orders")) {
 *     rs.next();
 * }
 * }</pre>
 *
 * <p>A connection is a Calcite connection speaking one dialect; statements are prepared, run and
 * explained through it ({@code EXPLAIN PLAN FOR ...}) and its {@code DatabaseMetaData} lists the
 * cluster's databases and tables. Close each connection when done; closing the engine closes its
 * table handles and memory, never the caller's Fluss connection.
 */
public final class SqlEngine implements AutoCloseable {
    private static final RiffleDriver DRIVER = new RiffleDriver();

    private final BufferAllocator allocator;
    private final FlussSession session;

    private SqlEngine(BufferAllocator allocator, FlussSession session) {
        this.allocator = allocator;
        this.session = session;
    }

    /**
     * The engine of a session over {@code riffle}'s Fluss connection and lake side, its memory a
     * child of {@code riffle}'s allocator; {@code riffle} stays the caller's to close, after the engine.
     */
    public static SqlEngine over(Riffle riffle, StatementLimits limits) {
        return over(riffle, limits, Optional.empty());
    }

    /**
     * As {@link #over(Riffle, StatementLimits)}, its statements using the caller's table handles
     * and lookupers ({@code handles}, opened on {@code riffle}'s connection): a server session's,
     * so that the session keeps one handle per table version for its requests and its SQL alike.
     * They stay the caller's to close, after the engine.
     */
    public static SqlEngine over(Riffle riffle, StatementLimits limits, TableHandles handles) {
        return over(riffle, limits, Optional.of(requireNonNull(handles, "handles is null")));
    }

    private static SqlEngine over(Riffle riffle, StatementLimits limits, Optional<TableHandles> handles) {
        requireNonNull(riffle, "riffle is null");
        requireNonNull(limits, "limits is null");
        BufferAllocator allocator = riffle.allocator().newChildAllocator("sql-engine", 0, Long.MAX_VALUE);
        try {
            Riffle own = riffle.withAllocator(allocator);
            return new SqlEngine(allocator, handles.isPresent() ? FlussSession.using(own, limits, handles.get())
                    : FlussSession.using(own, limits));
        } catch (RuntimeException e) {
            allocator.close();
            throw e;
        }
    }

    /** A new connection speaking {@code dialect} over this engine's session; the caller closes it. */
    public Connection connect(Dialect dialect) throws SQLException {
        return DRIVER.connect(session, requireNonNull(dialect, "dialect is null"));
    }

    /** What this engine's statements may cost. */
    public StatementLimits limits() {
        return session.limits();
    }

    /**
     * Forgets what the engine knows of {@code path} (its handle, its recent metadata): it was
     * created, dropped or altered through this process, and the next statement must see it as it
     * is now rather than as it was up to a second ago.
     */
    public void forget(TablePath path) {
        session.forget(requireNonNull(path, "path is null"));
    }

    /** The session the engine's connections share (for the planner's own callers in this module). */
    FlussSession session() {
        return session;
    }

    /**
     * The {@code jdbc:riffle} URL of the cluster {@code clientConfig} names first, for telling a
     * user how to reach the same tables from a JDBC tool.
     *
     * @throws IllegalArgumentException when the settings name no bootstrap server
     */
    public static String jdbcUrl(Configuration clientConfig) {
        List<String> servers = requireNonNull(clientConfig, "clientConfig is null").get(ConfigOptions.BOOTSTRAP_SERVERS);
        if (servers == null || servers.isEmpty()) {
            throw new IllegalArgumentException("The Fluss client settings have no " + ConfigOptions.BOOTSTRAP_SERVERS.key());
        }
        return RiffleDriver.PREFIX + "//" + servers.get(0);
    }

    /**
     * Whether a table {@code statement} (prepared on one of an engine's connections) was planned
     * for has since been dropped, created again or altered, as the connection's metadata (at most
     * a second old) says: then it must be prepared anew.
     *
     * <pre>{@code
     * if (SqlEngine.isStale(statement)) { statement.close(); statement = connection.prepareStatement(sql); }
     * }</pre>
     */
    public static boolean isStale(PreparedStatement statement) throws SQLException {
        requireNonNull(statement, "statement is null");
        var handle = statement.unwrap(AvaticaPreparedStatement.class).handle;
        if (handle == null || handle.signature == null || handle.signature.internalParameters == null) {
            return false;
        }
        Optional<FlussSession> session = SessionSchema.sessionOf(
                statement.getConnection().unwrap(CalciteConnection.class).getRootSchema());
        return session.isPresent() && PreparedTables.stale(handle.signature.internalParameters, session.get());
    }

    @Override
    public void close() throws Exception {
        try {
            session.close();
        } finally {
            allocator.close(); // fails if a statement's memory leaked
        }
    }
}
