package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.error.PgErrors;
import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.protocol.FrontendMessage;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.Sessions;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.statement.SessionHost;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection's protocol state machine, run on the connection's worker (one message at
 * a time): its login ({@link PgLogin}), then simple and extended queries and COPY. Statements run in the
 * caller's Riffle session ({@link Sessions}: the shared one, or the principal's own SASL/PLAIN
 * connection), each in a {@link RequestContext} of its own that a portal holds while its rows
 * are read. The session holds what its statements share (settings, transaction block, the
 * cancellation of what runs now, prepared statements and portals); each protocol is a role of its
 * own: {@link SimpleQuery}, {@link ExtendedQuery}, {@link CopyProtocol}, running statements through
 * {@link StatementPreparer} and {@link PortalRunner}.
 *
 * <pre>{@code
 * PgSession session = new PgSession(context, out);
 * session.handle(new FrontendMessage.Query("SELECT 1"));
 * }</pre>
 */
public final class PgSession implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PgSession.class);

    /** The state of the connection. */
    private enum Phase { LOGIN, READY, CLOSED }

    private final PgServerContext context;
    private final Outbound out;
    private Phase phase = Phase.LOGIN;
    private Optional<CancelRegistry.Key> key = Optional.empty();
    private String user = "";
    private Optional<Credentials> credentials = Optional.empty();
    private SessionSettings settings = SessionSettings.startup(Map.of());
    private final TransactionBlock transaction = new TransactionBlock();
    /** After an error in an extended-query batch: messages are skipped until Sync. */
    private boolean skipUntilSync;
    private final PreparedStatements statements = new PreparedStatements();
    private final Portals portals = new Portals();
    private final CopyProtocol copy;
    private final SimpleQuery simple;
    private final ExtendedQuery extended;
    /**
     * The cancellation of what the session runs now: renewed at each ReadyForQuery, so a cancel
     * request reaches every statement of the client's current query (or extended-query batch),
     * from parsing to the last row, as in PostgreSQL.
     */
    private volatile Cancellation running = new Cancellation();

    private final PgLogin login;
    private final BatchedInserts inserts;

    public PgSession(PgServerContext context, Outbound out) {
        this.context = requireNonNull(context, "context is null");
        this.out = requireNonNull(out, "out is null");
        this.login = new PgLogin(context, out, this::loggedIn, this::fatal, this::close);
        this.inserts = new BatchedInserts(this);
        StatementPreparer preparer = new StatementPreparer(this);
        PortalRunner runner = new PortalRunner(this, out, portals);
        this.copy = new CopyProtocol(this, out, context.maxCopyRows());
        this.simple = new SimpleQuery(this, out, statements, portals, preparer, runner, copy);
        this.extended = new ExtendedQuery(out, statements, portals, preparer, runner);
    }

    /** Handles one message (on the connection's worker). */
    public void handle(FrontendMessage message) {
        if (phase == Phase.CLOSED) {
            return;
        }
        try {
            switch (phase) {
                case LOGIN -> login.handle(message);
                case READY -> ready(message);
                default -> { }
            }
        } catch (Outbound.ClientGoneException e) {
            close();
        } catch (RuntimeException e) {
            LOG.warn("PostgreSQL session {} failed", phase == Phase.LOGIN ? login.user() : user, e);
            fatal(PgErrors.toError(e, Optional.empty()));
        } catch (StackOverflowError | LinkageError | AssertionError e) {
            // what a statement's own code throws must end its session with an answer, not leave
            // the client waiting on a connection nothing reads any more
            LOG.error("PostgreSQL session {} failed", phase == Phase.LOGIN ? login.user() : user, e);
            fatal(PgErrors.toError(e, Optional.empty()));
        }
    }

    /** Asks the statement running now (if any) to stop: a CancelRequest, or another backend's pg_cancel_backend. */
    void cancelRunning() {
        running.request(Cancellation.USER_REQUEST);
    }

    /** Stops what the session runs: its client went away (called on the event loop). */
    void clientGone() {
        running.request("canceling statement: its client went away");
    }

    /**
     * Ends the session from another backend ({@code pg_terminate_backend}): its statement stops,
     * the client is told why (57P01) and the connection closes.
     */
    void terminate() {
        running.request("terminating connection due to administrator command");
        out.terminate(new BackendMessage.ErrorResponse("FATAL", "57P01",
                "terminating connection due to administrator command"));
    }

    /** The user the session logged in as. */
    String user() {
        return user;
    }

    /** Whether the session's user logged in (false when the server takes no logins: everyone is the server). */
    boolean authenticated() {
        return credentials.isPresent();
    }

    /** What the session functions of this session's statements are answered by. */
    SessionHost host() {
        return host;
    }

    private final SessionHost host = new SessionHost() {
        @Override
        public int backendPid() {
            return key.map(CancelRegistry.Key::processId).orElse(0);
        }

        @Override
        public boolean cancelBackend(int pid) {
            return context.cancels().cancelFrom(PgSession.this, pid, false);
        }

        @Override
        public boolean terminateBackend(int pid) {
            return context.cancels().cancelFrom(PgSession.this, pid, true);
        }

        @Override
        public String user() {
            return user;
        }

        @Override
        public Map<String, String> settings() {
            return settings.all();
        }

        @Override
        public Optional<String> setting(String name) {
            return settings.show(name);
        }

        @Override
        public String set(String name, String value) {
            settings.set(name, value);
            return settings.show(name).orElse(value);
        }

        @Override
        public List<String> searchPath() {
            return settings.searchPath();
        }
    };

    /** Sends a FATAL error and closes the connection. */
    public void fatal(BackendMessage.ErrorResponse error) {
        if (phase == Phase.CLOSED) {
            return;
        }
        try {
            out.send(new BackendMessage.ErrorResponse("FATAL", error.sqlState(), error.message()));
            out.closeConnection();
        } finally {
            close();
        }
    }

    // ---- login

    /** Called (on the worker, before the startup message) once the connection speaks TLS. */
    void encrypted() {
        login.encrypted();
    }

    /** The login succeeded: the session is ready for queries. */
    private void loggedIn(String user, Optional<Credentials> credentials, SessionSettings settings) {
        this.user = user;
        this.credentials = credentials;
        this.settings = settings;
        ready();
    }

    private void ready() {
        CancelRegistry.Key registered = context.cancels().register(this);
        key = Optional.of(registered);
        phase = Phase.READY;
        out.send(new BackendMessage.AuthenticationOk());
        settings.reported().forEach((name, value) -> out.send(new BackendMessage.ParameterStatus(name, value)));
        out.send(new BackendMessage.BackendKeyData(registered.processId(), registered.secretKey()));
        readyForQuery();
    }

    // ---- queries

    private void ready(FrontendMessage message) {
        if (copy.receiving()) {
            simple.copyMessage(message);
            return;
        }
        if (message instanceof FrontendMessage.CopyData || message instanceof FrontendMessage.CopyDone
                || message instanceof FrontendMessage.CopyFail) {
            return; // as PostgreSQL: what a client still sends of a COPY that failed is dropped
        }
        if (message instanceof FrontendMessage.Terminate) {
            out.closeConnection();
            close();
            return;
        }
        if (message instanceof FrontendMessage.Sync) {
            skipUntilSync = false;
            if (transaction.idle()) {
                portals.closeAll(); // the implicit transaction of the batch ends
            }
            readyForQuery();
            return;
        }
        if (message instanceof FrontendMessage.Flush) {
            out.flush();
            return;
        }
        if (message instanceof FrontendMessage.Query query) {
            skipUntilSync = false;
            simple.run(query.sql());
            return;
        }
        if (skipUntilSync) {
            return;
        }
        try {
            extended.handle(message);
        } catch (Outbound.ClientGoneException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError | AssertionError e) {
            error(e instanceof RuntimeException failure ? failure : PgException.unplannable((Error) e),
                    extended.sqlOf(message));
            out.flush(); // as PostgreSQL does: the client may be waiting on a Flush, not a Sync
            skipUntilSync = true;
        }
    }

    /** The cancellation of what the session runs now (renewed at each ReadyForQuery). */
    Cancellation running() {
        return running;
    }

    /** The session's transaction block. */
    TransactionBlock transaction() {
        return transaction;
    }

    /** The session's INSERTs written together, acknowledged at the end of their unit. */
    BatchedInserts inserts() {
        return inserts;
    }

    /** The session's settings (SET, SHOW, search_path, statement_timeout). */
    SessionSettings settings() {
        return settings;
    }

    /**
     * A request of this session: its statements have the session's {@code statement_timeout} (when
     * set), answer its session functions, and stop when the session's current query is cancelled.
     */
    RequestContext open(String purpose) {
        RequestContext request = context.sessions().open(credentials, purpose);
        settings.statementTimeout().ifPresent(request::limitTime);
        request.speaks(Dialect.POSTGRESQL, settings.searchPath().stream().findFirst());
        request.host(host);
        running.watch(request);
        return request;
    }

    /** Answers a failed statement (quoting {@code sql} when known); inside a transaction block, the block fails. */
    void error(RuntimeException e, Optional<String> sql) {
        Throwable failure = e instanceof SqlFailure sqlFailure ? sqlFailure.getCause() : e;
        Optional<String> statement = e instanceof SqlFailure sqlFailure ? Optional.of(sqlFailure.sql()) : sql;
        BackendMessage.ErrorResponse error = PgErrors.toError(failure, statement);
        if (inserts.wroteInUnit()) {
            // A client takes a failed batch or block for rolled back; Fluss has no rollback, so
            // the rows written before the failure are acknowledged now and the error says so.
            error = new BackendMessage.ErrorResponse(error.severity(), error.sqlState(), error.message() + "; "
                    + inserts.acknowledgeBefore(transaction.idle() ? "batch" : "transaction block"));
        }
        out.send(error);
        transaction.statementFailed();
    }

    /** Ends a query or batch: a new cancellation for what comes next, then ReadyForQuery. */
    void readyForQuery() {
        if (transaction.idle()) {
            // the end of a query or pipeline outside a transaction block: its rows are acknowledged
            try {
                inserts.acknowledge();
            } catch (RuntimeException e) {
                inserts.endUnit();
                error(e, Optional.empty());
            }
            inserts.endUnit();
        }
        running = new Cancellation();
        // a portal suspended in this query is read on in the next: a cancel then reaches it too
        portals.reading().forEach(running::watch);
        out.send(new BackendMessage.ReadyForQuery(transaction.status()));
        out.flush();
    }

    private void closeInserts() {
        try {
            inserts.close();
        } catch (RuntimeException e) {
            LOG.warn("PostgreSQL session {} ended before Fluss acknowledged its last rows: {}", user, e.getMessage());
        }
    }

    /** Frees every portal's read and unregisters the session; the connection is gone or going. */
    @Override
    public void close() {
        if (phase == Phase.CLOSED) {
            return;
        }
        phase = Phase.CLOSED;
        try {
            closeInserts();
            copy.end();
            portals.closeAll();
            statements.clear();
        } finally {
            key.ifPresent(context.cancels()::unregister);
            out.close();
        }
    }
}
