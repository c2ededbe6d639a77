package dev.riffle.server.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.Riffle;
import dev.riffle.core.tables.TableHandles;
import java.util.Optional;
import java.util.function.Function;
import org.apache.fluss.client.FlussConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one principal (or, without authentication, the server itself) works with across
 * requests: its Fluss connection, its table handles and lookupers, and its SQL connections.
 * Closing the session closes all of them (its connection too, when the session opened it).
 *
 * <pre>{@code
 * try (Sessions.Lease lease = sessions.acquire(credentials)) {
 *     TableInfo info = lease.session().handles().info(path);
 * }
 * }</pre>
 */
public final class Session implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Session.class);

    private final Optional<String> principal;
    private final Riffle riffle;
    /** The connection's place in the process's count, when the session opened it (and closes it). */
    private final Optional<FlussConnections.Held> ownConnection;
    private final TableHandles handles;
    private final Function<TableHandles, SqlConnections> sqlFactory;
    private final SessionLedger ledger;
    private volatile SqlConnections sql;
    private volatile boolean closed;

    /**
     * @param principal the user the session runs as (empty: the server's own connection)
     * @param riffle the connection, the server's allocator and its lake side
     * @param ownConnection when the session opened its connection (and closing it closes the
     *     connection): the connection's place in the process's count
     * @param sql opens the session's SQL connections, over its table handles, when a first statement
     *     needs them
     */
    Session(Optional<String> principal, Riffle riffle, Optional<FlussConnections.Held> ownConnection,
            Function<TableHandles, SqlConnections> sql,
            SessionLedger ledger) {
        this.principal = requireNonNull(principal, "principal is null");
        this.riffle = requireNonNull(riffle, "riffle is null");
        this.ownConnection = requireNonNull(ownConnection, "ownConnection is null");
        this.handles = new TableHandles(riffle);
        this.sqlFactory = requireNonNull(sql, "sql is null");
        this.ledger = requireNonNull(ledger, "ledger is null");
        ledger.opened(this);
    }

    public Optional<String> principal() {
        return principal;
    }

    public FlussConnection connection() {
        return riffle.connection();
    }

    /** The session's connection with the server's allocator and lake side. */
    public Riffle riffle() {
        return riffle;
    }

    public TableHandles handles() {
        return handles;
    }

    /** The session's SQL connections (opened on first use). */
    public SqlConnections sql() {
        SqlConnections known = sql;
        if (known == null) {
            synchronized (this) {
                if (closed) {
                    throw new IllegalStateException("The session of " + principal.orElse("the server") + " is closed");
                }
                if (sql == null) {
                    sql = sqlFactory.apply(handles);
                }
                known = sql;
            }
        }
        return known;
    }

    /** Whether {@link #close()} has run. */
    public boolean closed() {
        return closed;
    }

    @Override
    public void close() {
        SqlConnections openSql;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            openSql = sql;
        }
        try {
            // The SQL first: its statements use the session's table handles.
            if (openSql != null) {
                openSql.close();
            }
        } catch (Exception e) {
            LOG.warn("Closing the SQL of the session of {} failed", principal.orElse("the server"), e);
        }
        try {
            handles.close();
        } catch (Exception e) {
            LOG.warn("Closing the session of {} failed", principal.orElse("the server"), e);
        } finally {
            boolean connectionClosed = false;
            if (ownConnection.isPresent()) {
                try {
                    riffle.connection().close();
                    connectionClosed = true;
                } catch (Exception e) {
                    LOG.warn("Closing the Fluss connection of {} failed", principal.orElse("the server"), e);
                } finally {
                    ownConnection.get().close();
                }
            }
            ledger.closed(this, connectionClosed);
        }
    }
}
