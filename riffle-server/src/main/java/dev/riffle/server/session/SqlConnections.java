package dev.riffle.server.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.tables.TableHandles;
import dev.riffle.server.failure.FailureKind;
import dev.riffle.server.failure.ServiceException;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.engine.SqlEngine;
import dev.riffle.sql.statement.StatementLimits;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.fluss.metadata.TablePath;

/**
 * A pool of connections to the embedded SQL engine for the SQL of every surface: opened on first
 * use, at most {@code size} of them, each used by one request at a time, all over one
 * {@link SqlEngine} (the session's one Fluss connection, its table handles and lookupers), so a
 * connection costs a Calcite connection, not a Fluss client, and the point queries of concurrent
 * requests are batched into the same lookups. Each connection keeps its most recent prepared
 * statements, so a repeated query (a point lookup with {@code ?} parameters) is planned once per
 * connection, not once per request.
 */
public final class SqlConnections implements AutoCloseable {
    public static final int DEFAULT_SIZE = 4;
    private static final int STATEMENTS_PER_CONNECTION = 64;

    private final Riffle riffle;
    private final StatementLimits limits;
    /** The session's table handles, which the engine's statements use too (empty: the engine's own). */
    private final Optional<TableHandles> handles;
    private final Semaphore permits;
    private final Duration waitTimeout;
    /** Idle connections by the dialect they speak. */
    private final Map<Dialect, ConcurrentLinkedDeque<Pooled>> idle = new java.util.EnumMap<>(Dialect.class);
    private final List<Pooled> all = new ArrayList<>();
    /** The key-lookup statements of each dialect (one text may name other tables in another). */
    private final Map<Dialect, KeyLookupStatements> keyLookups = new java.util.EnumMap<>(Dialect.class);
    /** The engine every connection of the pool shares; opened with the first connection. */
    private SqlEngine engine;
    private volatile boolean closed;

    private SqlConnections(Riffle riffle, StatementLimits limits, Optional<TableHandles> handles, int size,
            Duration waitTimeout) {
        this.handles = requireNonNull(handles, "handles is null");
        if (size <= 0) {
            throw new IllegalArgumentException("size must be positive, got " + size);
        }
        this.riffle = requireNonNull(riffle, "riffle is null");
        this.limits = requireNonNull(limits, "limits is null");
        this.permits = new Semaphore(size, true);
        this.waitTimeout = requireNonNull(waitTimeout, "waitTimeout is null");
        for (Dialect dialect : Dialect.values()) {
            idle.put(dialect, new ConcurrentLinkedDeque<>());
            keyLookups.put(dialect, new KeyLookupStatements());
        }
    }

    /**
     * A pool whose connections all run over {@code riffle}'s Fluss connection (a session's: one
     * connection for everything a principal does, its handles, lookups and memory accounted once),
     * which stays the caller's to close.
     *
     * @param size the most connections open at once
     * @param waitTimeout how long a request waits for a free connection before a 503
     */
    public static SqlConnections over(Riffle riffle, int size, Duration waitTimeout, StatementLimits limits) {
        return new SqlConnections(riffle, limits, Optional.empty(), size, waitTimeout);
    }

    /**
     * As {@link #over(Riffle, int, Duration, StatementLimits)}, the statements using the session's
     * table handles and lookupers ({@code handles}), which stay the caller's to close after the pool.
     */
    public static SqlConnections over(Riffle riffle, int size, Duration waitTimeout, StatementLimits limits,
            TableHandles handles) {
        return new SqlConnections(riffle, limits, Optional.of(requireNonNull(handles, "handles is null")), size,
                waitTimeout);
    }

    /** A connection of Calcite's dialect for one request; close the lease to give it back. */
    public Lease borrow() throws SQLException {
        return borrow(Dialect.CALCITE);
    }

    /** A connection speaking {@code dialect} for one request; close the lease to give it back. */
    public Lease borrow(Dialect dialect) throws SQLException {
        requireNonNull(dialect, "dialect is null");
        if (closed) {
            throw new ServiceException(FailureKind.UNAVAILABLE, "shutting_down", "The server is shutting down");
        }
        try {
            if (!permits.tryAcquire(waitTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new ServiceException(FailureKind.UNAVAILABLE, "busy", "Every SQL connection stayed busy for "
                        + waitTimeout + "; retry later");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceException(FailureKind.UNAVAILABLE, "interrupted",
                    "Interrupted while waiting for a SQL connection");
        }
        Pooled pooled = idle.get(dialect).pollFirst();
        if (pooled == null) {
            try {
                pooled = open(dialect);
            } catch (SQLException | RuntimeException e) {
                permits.release();
                throw e;
            }
        }
        return new Lease(pooled);
    }

    private Pooled open(Dialect dialect) throws SQLException {
        SqlEngine shared;
        synchronized (all) {
            if (engine == null) {
                engine = handles.isPresent() ? SqlEngine.over(riffle, limits, handles.get())
                        : SqlEngine.over(riffle, limits);
            }
            shared = engine;
        }
        Pooled pooled = new Pooled(shared.connect(dialect), dialect);
        synchronized (all) {
            all.add(pooled);
        }
        return pooled;
    }

    @Override
    public void close() throws Exception {
        closed = true;
        List<Pooled> open;
        SqlEngine shared;
        synchronized (all) {
            open = new ArrayList<>(all);
            all.clear();
            shared = engine;
            engine = null;
        }
        Exception failure = null;
        for (Pooled pooled : open) {
            try {
                pooled.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        idle.values().forEach(ConcurrentLinkedDeque::clear);
        if (shared != null) {
            try {
                shared.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e;
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
     * Tells every connection of the pool that {@code path} was created, dropped or altered through
     * this process, so that statements kept for reuse are checked against the table as it is now
     * rather than as it was up to a second ago (changes made elsewhere are seen within that second).
     */
    public void tableChanged(TablePath path) {
        keyLookups.values().forEach(KeyLookupStatements::clear);
        SqlEngine shared;
        synchronized (all) {
            shared = engine;
        }
        if (shared != null) {
            shared.forget(path);
        }
    }

    /** The key-lookup statements run on this pool's connections, answered without one next time. */
    public KeyLookupStatements keyLookups() {
        return keyLookups(Dialect.CALCITE);
    }

    /** The key-lookup statements of {@code dialect}'s connections. */
    public KeyLookupStatements keyLookups(Dialect dialect) {
        return keyLookups.get(dialect);
    }

    /** One connection lent to one request. */
    public final class Lease implements AutoCloseable {
        private final Pooled pooled;
        private final List<Runnable> onClose = new ArrayList<>();
        private boolean broken;
        private boolean returned;

        private Lease(Pooled pooled) {
            this.pooled = pooled;
        }

        /** A prepared statement for {@code sql}, reused across requests on this connection. */
        public PreparedStatement prepare(String sql) throws SQLException {
            return pooled.prepare(sql, Optional.empty());
        }

        /**
         * A prepared statement for {@code sql}, its unqualified names resolved in {@code schema}
         * (empty: the connection's default), reused across requests on this connection.
         */
        public PreparedStatement prepare(String sql, Optional<String> schema) throws SQLException {
            return pooled.prepare(sql, schema);
        }

        /** Whether this connection holds a prepared statement for exactly {@code sql} (in its default schema). */
        public boolean isPrepared(String sql) {
            PreparedStatement statement = pooled.statements.get(Pooled.key(sql, Optional.empty()));
            try {
                return statement != null && !statement.isClosed();
            } catch (SQLException e) {
                return false;
            }
        }

        /**
         * Runs DDL on this connection as a plain statement: Calcite runs DDL while preparing it, so
         * a DDL statement is never prepared (nor kept for reuse).
         */
        public void executeDdl(String sql) throws SQLException {
            executeDdl(sql, Optional.empty());
        }

        /** As {@link #executeDdl(String)}, its unqualified table names in {@code schema} (empty: the default). */
        public void executeDdl(String sql, Optional<String> schema) throws SQLException {
            pooled.use(schema);
            try (java.sql.Statement statement = pooled.connection.createStatement()) {
                statement.execute(sql);
            }
        }

        /** Runs {@code action} after this lease is given back (to release what the lease was taken under). */
        public Lease onClose(Runnable action) {
            onClose.add(requireNonNull(action, "action is null"));
            return this;
        }

        /** The connection must not be reused (a statement failed in a way that may leave it unusable). */
        public void discard() {
            broken = true;
        }

        @Override
        public void close() {
            if (returned) {
                return;
            }
            returned = true;
            try {
                if (broken || closed || pooled.connection.isClosed()) {
                    synchronized (all) {
                        all.remove(pooled);
                    }
                    pooled.close();
                } else {
                    idle.get(pooled.dialect).addFirst(pooled);
                }
            } catch (Exception ignored) {
                // a connection that cannot be closed cleanly is dropped either way
            } finally {
                permits.release();
                onClose.forEach(Runnable::run);
            }
        }
    }

    private static final class Pooled implements AutoCloseable {
        private final Connection connection;
        private final Dialect dialect;
        /** The schema unqualified names resolve in now (empty: the connection's default). */
        private Optional<String> schema = Optional.empty();
        private String defaultSchema;
        private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
                if (size() > STATEMENTS_PER_CONNECTION) {
                    closeQuietly(eldest.getValue());
                    return true;
                }
                return false;
            }
        };

        Pooled(Connection connection, Dialect dialect) throws SQLException {
            this.connection = connection;
            this.dialect = dialect;
            this.defaultSchema = connection.getSchema();
        }

        /** Statements are kept by their text and the schema their names were resolved in. */
        static String key(String sql, Optional<String> schema) {
            return schema.map(s -> s + "\u0000" + sql).orElse(sql);
        }

        /** Resolves unqualified names in {@code inSchema} (empty: the connection's default) from now on. */
        void use(Optional<String> inSchema) throws SQLException {
            if (!inSchema.equals(schema)) {
                connection.setSchema(inSchema.orElse(defaultSchema));
                schema = inSchema;
            }
        }

        PreparedStatement prepare(String sql, Optional<String> inSchema) throws SQLException {
            use(inSchema);
            String key = key(sql, inSchema);
            PreparedStatement statement = statements.get(key);
            if (statement != null && !statement.isClosed() && SqlEngine.isStale(statement)) {
                // A table it was planned for was dropped and created again, or altered: plan anew.
                closeQuietly(statement);
                statement = null;
            }
            if (statement == null || statement.isClosed()) {
                statement = prepareNew(sql);
                statements.put(key, statement);
            } else {
                statement.clearParameters();
            }
            return statement;
        }

        /**
         * Plans {@code sql}. Calcite plans a VALUES list whose rows need converting as a union of
         * one row each and walks such trees recursively, so thousands of those rows (or expressions
         * nested thousands deep) overflow the thread's stack: that is a statement too complex to
         * plan, answered as such, not a thread dying with its request unanswered.
         */
        private PreparedStatement prepareNew(String sql) throws SQLException {
            try {
                return connection.prepareStatement(sql);
            } catch (StackOverflowError e) {
                throw new ServiceException(FailureKind.TOO_LARGE, "statement_too_complex", "The statement nests too"
                        + " deeply to plan: a VALUES list of thousands of rows is planned as one union per row, and"
                        + " so are expressions nested thousands deep. Send fewer rows per INSERT, or bind them as"
                        + " parameters of one prepared INSERT (a JDBC batch, executemany)");
            }
        }

        @Override
        public void close() throws SQLException {
            statements.values().forEach(Pooled::closeQuietly);
            statements.clear();
            connection.close();
        }

        private static void closeQuietly(PreparedStatement statement) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // closing a cached statement is best effort
            }
        }
    }
}
