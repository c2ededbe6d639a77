package dev.riffle.pgwire.session;

import dev.riffle.sql.pgcatalog.PgType;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.PgErrors;
import dev.riffle.pgwire.copy.CopyRowDecoder;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.protocol.BackendMessage.TransactionStatus;
import dev.riffle.pgwire.protocol.FrontendMessage;
import dev.riffle.pgwire.sql.CommandTags;
import dev.riffle.pgwire.sql.CopyCommand;
import dev.riffle.pgwire.sql.LocalStatement;
import dev.riffle.pgwire.sql.LocalStatements;
import dev.riffle.pgwire.sql.Placeholders;
import dev.riffle.pgwire.sql.StatementSplitter;
import dev.riffle.pgwire.types.ColumnType;
import dev.riffle.pgwire.types.ParameterDecoder;
import dev.riffle.server.principal.Credentials;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.session.Sessions;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import dev.riffle.sql.dialect.Dialect;
import dev.riffle.sql.exec.StatementShape;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection's protocol state machine, run on the connection's worker (one message at
 * a time): its login ({@link PgLogin}), then simple and extended queries and COPY. Statements run in the
 * caller's Riffle session ({@link Sessions}: the shared one, or the principal's own SASL/PLAIN
 * connection), each in a {@link RequestContext} of its own that a portal holds while its rows
 * are read.
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
    private TransactionStatus transaction = TransactionStatus.IDLE;
    /** After an error in an extended-query batch: messages are skipped until Sync. */
    private boolean skipUntilSync;
    private final Map<String, Prepared> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();
    /** The COPY FROM STDIN receiving the client's data, if one does. */
    private CopyIn copyIn;
    /** The statements of the simple query after that COPY, run once it ends. */
    private List<String> afterCopy = List.of();
    /**
     * The cancellation of what the session runs now: renewed at each ReadyForQuery, so a cancel
     * request reaches every statement of the client's current query (or extended-query batch),
     * from parsing to the last row, as in PostgreSQL.
     */
    private volatile Cancellation running = new Cancellation();

    private final PgLogin login;

    public PgSession(PgServerContext context, Outbound out) {
        this.context = requireNonNull(context, "context is null");
        this.out = requireNonNull(out, "out is null");
        this.login = new PgLogin(context, out, this::loggedIn, this::fatal, this::close);
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
    dev.riffle.sql.exec.SessionHost host() {
        return host;
    }

    private final dev.riffle.sql.exec.SessionHost host = new dev.riffle.sql.exec.SessionHost() {
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
        public java.util.Map<String, String> settings() {
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
        if (copyIn != null) {
            copyMessage(message);
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
            if (transaction == TransactionStatus.IDLE) {
                closePortals(); // the implicit transaction of the batch ends
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
            simpleQuery(query.sql());
            return;
        }
        if (skipUntilSync) {
            return;
        }
        try {
            if (message instanceof FrontendMessage.Parse parse) {
                parse(parse);
            } else if (message instanceof FrontendMessage.Bind bind) {
                bind(bind);
            } else if (message instanceof FrontendMessage.Describe describe) {
                describe(describe);
            } else if (message instanceof FrontendMessage.Execute execute) {
                execute(execute);
            } else if (message instanceof FrontendMessage.Close close) {
                closeObject(close);
            } else if (message instanceof FrontendMessage.Unsupported unsupported) {
                throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve protocol message '"
                        + unsupported.type() + "' (function calls are not supported)");
            } else {
                throw new PgException(PgException.PROTOCOL_VIOLATION, "Unexpected message " + message);
            }
        } catch (Outbound.ClientGoneException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError | AssertionError e) {
            error(e instanceof RuntimeException failure ? failure : unplannable((Error) e), sqlOf(message));
            out.flush(); // as PostgreSQL does: the client may be waiting on a Flush, not a Sync
            skipUntilSync = true;
        }
    }

    /**
     * A statement the SQL engine could not plan: one whose parsing or planning recursed past the
     * stack (PostgreSQL's 54001), or one Calcite met a case it has no code for (an assertion of
     * its own fails): 0A000 with Calcite's words, not an internal error of the server.
     */
    private static PgException unplannable(Error e) {
        if (e instanceof StackOverflowError) {
            return new PgException("54001", "statement too complex: its expressions nest too deeply to plan");
        }
        LOG.warn("A statement the SQL engine cannot plan", e);
        return new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle cannot run this statement: " + e.getMessage());
    }

    private void simpleQuery(String sql) {
        statements.remove("");
        closePortal("");
        List<String> parts;
        try {
            parts = StatementSplitter.split(sql);
        } catch (RuntimeException e) {
            error(e, Optional.of(sql));
            readyForQuery();
            return;
        }
        if (parts.isEmpty()) {
            out.send(new BackendMessage.EmptyQueryResponse());
        }
        if (runStatements(parts)) {
            readyForQuery();
        }
    }

    /**
     * Runs the statements of a simple query in order, stopping at the first error.
     *
     * @return false when a COPY FROM STDIN now waits for the client's data (the rest runs after it)
     */
    private boolean runStatements(List<String> parts) {
        for (int i = 0; i < parts.size(); i++) {
            String statement = parts.get(i);
            try {
                Prepared prepared = prepare("", statement, List.of(), false);
                if (prepared.plan() instanceof Prepared.Plan.Local local
                        && local.statement() instanceof LocalStatement.Copy copy) {
                    if (copy.command().in()) {
                        startCopyIn(copy.command(), parts.subList(i + 1, parts.size()));
                        return false;
                    }
                    copyOut(copy.command());
                    continue;
                }
                try (Portal portal = new Portal(prepared, List.of(), List.of())) {
                    if (!prepared.columns().isEmpty()) {
                        out.send(rowDescription(prepared.columns(), List.of()));
                    }
                    runPortal(portal, 0, prepared.columns().isEmpty());
                }
            } catch (Outbound.ClientGoneException e) {
                throw e;
            } catch (RuntimeException e) {
                error(e, Optional.of(statement));
                break;
            } catch (StackOverflowError | AssertionError e) {
                error(unplannable(e), Optional.of(statement));
                break;
            }
        }
        return true;
    }

    // ---- COPY

    private void checkNotFailed() {
        if (transaction == TransactionStatus.FAILED) {
            throw new PgException("25P02", "current transaction is aborted, commands ignored until end of transaction"
                    + " block");
        }
    }

    /** COPY ... TO STDOUT: the rows of the query (or table) streamed as CopyData, then {@code COPY n}. */
    private void copyOut(CopyCommand command) {
        checkNotFailed();
        String sql = command.source() instanceof CopyCommand.Source.Query query ? query.sql()
                : ((CopyCommand.Source.Table) command.source()).selectSql();
        RequestContext request = open("PostgreSQL COPY TO STDOUT");
        SqlResult result;
        try {
            result = SqlStatements.run(request, sql, List.of());
        } catch (SQLException e) {
            request.close();
            throw new SqlFailure(e, sql);
        } catch (RuntimeException e) {
            request.close();
            throw e;
        }
        if (!(result instanceof SqlResult.Rows rows)) {
            result.close();
            request.close();
            throw new PgException("42601", "COPY (query) TO STDOUT needs a query that answers rows: " + abbreviate(sql));
        }
        try (CopyOut copy = new CopyOut(request, rows, command.options())) {
            long sent = copy.send(out, running);
            out.send(new BackendMessage.CommandComplete("COPY " + sent));
        }
    }

    /** COPY ... FROM STDIN: answers CopyInResponse; the client's CopyData follows. */
    private void startCopyIn(CopyCommand command, List<String> rest) {
        checkNotFailed();
        CopyCommand.Source.Table source = (CopyCommand.Source.Table) command.source();
        RequestContext request = open("PostgreSQL COPY FROM STDIN");
        try {
            TablePath path = TablePath.of(source.schema().name(), source.table().name());
            TableInfo table = request.tableInfo(path);
            CopyRowDecoder decoder = CopyRowDecoder.of(table, source.columns().stream()
                    .map(CopyCommand.Identifier::name).toList());
            copyIn = new CopyIn(request, table, decoder, command.options(), context.maxCopyRows());
        } catch (RuntimeException e) {
            request.close();
            throw e;
        }
        afterCopy = List.copyOf(rest);
        out.send(new BackendMessage.CopyInResponse(copyIn.columns()));
        out.flush();
    }

    /** A message while COPY FROM STDIN runs: data, its end, or its failure; Flush and Sync are ignored, as in PostgreSQL. */
    private void copyMessage(FrontendMessage message) {
        if (message instanceof FrontendMessage.CopyData data) {
            copyIn.data(data.data());
            return;
        }
        if (message instanceof FrontendMessage.Flush || message instanceof FrontendMessage.Sync) {
            return;
        }
        if (message instanceof FrontendMessage.Terminate) {
            endCopy();
            out.closeConnection();
            close();
            return;
        }
        boolean more = false;
        try {
            if (message instanceof FrontendMessage.CopyDone) {
                long written = copyIn.finish(running);
                out.send(new BackendMessage.CommandComplete("COPY " + written));
                more = true;
            } else if (message instanceof FrontendMessage.CopyFail fail) {
                throw new PgException(PgException.QUERY_CANCELED, "COPY from stdin failed: " + fail.message()
                        + " (nothing was written)");
            } else {
                throw new PgException(PgException.PROTOCOL_VIOLATION, "unexpected message during COPY from stdin: "
                        + message + " (nothing was written)");
            }
        } catch (Outbound.ClientGoneException e) {
            throw e;
        } catch (RuntimeException e) {
            error(e, Optional.empty());
        } finally {
            endCopy();
        }
        List<String> rest = afterCopy;
        afterCopy = List.of();
        if (!more || rest.isEmpty() || runStatements(rest)) {
            readyForQuery();
        }
    }

    private void endCopy() {
        if (copyIn != null) {
            CopyIn ending = copyIn;
            copyIn = null;
            ending.close();
        }
    }

    private void parse(FrontendMessage.Parse parse) {
        if (!parse.name().isEmpty() && statements.containsKey(parse.name())) {
            throw new PgException("42P05", "prepared statement \"" + parse.name() + "\" already exists");
        }
        Prepared prepared = prepare(parse.name(), parse.sql(), parse.parameterTypes(), true);
        statements.put(parse.name(), prepared);
        out.send(new BackendMessage.ParseComplete());
    }

    /**
     * What {@code sql} is and takes: a local statement, or one the SQL layer shapes now (for a
     * simple query, SQL statements are shaped by running them).
     */
    private Prepared prepare(String name, String sql, List<Integer> declared, boolean shape) {
        if (StatementSplitter.isBlank(sql)) {
            return new Prepared(name, sql, new Prepared.Plan.Empty(), declaredTypes(declared, 0), List.of(), List.of());
        }
        Optional<LocalStatement> local = LocalStatements.recognize(sql);
        if (local.isPresent() && local.get() instanceof LocalStatement.Copy && shape) {
            throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle serves COPY in the simple query protocol"
                    + " (psql's \\copy, pgjdbc's CopyManager), not as a prepared statement");
        }
        if (local.isPresent()) {
            List<Prepared.Column> columns = local.get().column().map(c -> List.of(Prepared.textColumn(c)))
                    .orElse(List.of());
            return new Prepared(name, sql, new Prepared.Plan.Local(local.get()), declaredTypes(declared, 0), List.of(),
                    columns);
        }
        Placeholders placeholders;
        try {
            placeholders = Placeholders.rewrite(sql);
        } catch (IllegalArgumentException e) {
            throw new PgException("42P02", e.getMessage());
        }
        if (transaction == TransactionStatus.FAILED) {
            throw new PgException("25P02", "current transaction is aborted, commands ignored until end of transaction"
                    + " block");
        }
        StatementShape statementShape = null;
        if (shape) {
            try (RequestContext request = open("PostgreSQL parse")) {
                statementShape = SqlStatements.shape(request, placeholders.sql());
            } catch (SQLException e) {
                throw new SqlFailure(e, placeholders.sql());
            }
            running.checkRequested();
        }
        List<PgType> targets = new ArrayList<>();
        List<Prepared.Column> columns = new ArrayList<>();
        if (statementShape != null) {
            List<Field> parameters = statementShape.parameters().getFields();
            for (int i = 0; i < placeholders.order().size(); i++) {
                targets.add(i < parameters.size() ? ColumnType.of(parameters.get(i)).scalar() : PgType.TEXT);
            }
            for (Field field : statementShape.rows().getFields()) {
                columns.add(Prepared.Column.of(field));
            }
        }
        int count = Math.max(placeholders.count(), declared.size());
        List<PgType> types = new ArrayList<>(declaredTypes(declared, count));
        for (int i = 0; i < placeholders.order().size(); i++) {
            int parameter = placeholders.order().get(i) - 1;
            if (declared.size() <= parameter || declared.get(parameter) == 0) {
                types.set(parameter, targets.get(i));
            }
        }
        return new Prepared(name, sql, new Prepared.Plan.Sql(placeholders, statementShape == null
                ? StatementShape.UPDATE : statementShape), types, targets, columns);
    }

    private static List<PgType> declaredTypes(List<Integer> declared, int count) {
        List<PgType> types = new ArrayList<>();
        for (int i = 0; i < Math.max(count, declared.size()); i++) {
            int oid = i < declared.size() ? declared.get(i) : 0;
            types.add(oid == 0 ? PgType.TEXT : PgType.ofOid(oid).orElse(PgType.TEXT));
        }
        return types;
    }

    private void bind(FrontendMessage.Bind bind) {
        Prepared statement = statement(bind.statement());
        int expected = statement.parameterTypes().size();
        if (bind.parameters().size() != expected) {
            throw new PgException(PgException.PROTOCOL_VIOLATION, "bind message supplies " + bind.parameters().size()
                    + " parameters, but prepared statement \"" + statement.name() + "\" requires " + expected);
        }
        if (bind.parameterFormats().size() > 1 && bind.parameterFormats().size() != expected) {
            throw new PgException(PgException.PROTOCOL_VIOLATION, "bind message has " + bind.parameterFormats().size()
                    + " parameter formats but " + expected + " parameters");
        }
        List<Object> values = new ArrayList<>();
        if (statement.plan() instanceof Prepared.Plan.Sql sql) {
            List<Integer> order = sql.placeholders().order();
            for (int i = 0; i < order.size(); i++) {
                int parameter = order.get(i) - 1;
                boolean binary = format(bind.parameterFormats(), parameter) == 1;
                values.add(ParameterDecoder.decode(bind.parameters().get(parameter), binary,
                        statement.parameterTypes().get(parameter), statement.targetTypes().get(i), parameter + 1));
            }
        }
        int columns = statement.columns().size();
        if (bind.resultFormats().size() > 1 && bind.resultFormats().size() != columns) {
            throw new PgException(PgException.PROTOCOL_VIOLATION, "bind message has " + bind.resultFormats().size()
                    + " result formats but the statement answers " + columns + " columns");
        }
        List<Short> formats = new ArrayList<>();
        for (int c = 0; c < columns; c++) {
            short format = format(bind.resultFormats(), c);
            Prepared.Column column = statement.columns().get(c);
            if (format == 1 && !column.type().binaryCapable()) {
                throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Column \"" + column.name() + "\" of type "
                        + column.type().scalar().typeName() + "[][] (an array of arrays) is sent in text format only");
            }
            formats.add(format);
        }
        closePortal(bind.portal());
        portals.put(bind.portal(), new Portal(statement, values, formats));
        out.send(new BackendMessage.BindComplete());
    }

    private static short format(List<Short> formats, int index) {
        return formats.isEmpty() ? 0 : formats.size() == 1 ? formats.get(0) : formats.get(index);
    }

    private void describe(FrontendMessage.Describe describe) {
        if (describe.kind() == 'S') {
            Prepared statement = statement(describe.name());
            out.send(new BackendMessage.ParameterDescription(statement.parameterTypes().stream().map(PgType::oid)
                    .toList()));
            out.send(statement.columns().isEmpty() ? new BackendMessage.NoData()
                    : rowDescription(statement.columns(), List.of()));
        } else {
            Portal portal = portal(describe.name());
            out.send(portal.statement().columns().isEmpty() ? new BackendMessage.NoData()
                    : rowDescription(portal.statement().columns(), portal.formats()));
        }
    }

    private void execute(FrontendMessage.Execute execute) {
        Portal portal = portal(execute.portal());
        boolean suspended;
        try {
            suspended = runPortal(portal, execute.maxRows(), false);
        } catch (SqlFailure | Outbound.ClientGoneException e) {
            closePortal(execute.portal());
            throw e;
        } catch (RuntimeException e) {
            closePortal(execute.portal());
            // classified as the failure of its statement (1 / 0 is the user's), not of the server
            throw new SqlFailure(e, portal.statement().sql());
        }
        if (suspended) {
            out.send(new BackendMessage.PortalSuspended());
        }
    }

    /**
     * Runs (or resumes) a portal, sending its rows and, once it is done, its CommandComplete.
     *
     * @param describeRows for a simple query: send the RowDescription the statement's reader implies
     * @return whether the portal was suspended at the row limit
     */
    private boolean runPortal(Portal portal, int maxRows, boolean describeRows) {
        Prepared statement = portal.statement();
        if (statement.plan() instanceof Prepared.Plan.Empty) {
            out.send(new BackendMessage.EmptyQueryResponse());
            return false;
        }
        if (portal.done()) {
            out.send(new BackendMessage.CommandComplete(portal.tag().orElse("SELECT 0")));
            return false;
        }
        Cancellation cancellation = running;
        cancellation.checkRequested();
        if (!portal.started()) {
            if (statement.plan() instanceof Prepared.Plan.Local local) {
                runLocal(local.statement(), portal);
                out.send(new BackendMessage.CommandComplete(portal.tag().orElseThrow()));
                return false;
            }
            start(portal, (Prepared.Plan.Sql) statement.plan(), describeRows);
            if (portal.done()) {
                out.send(new BackendMessage.CommandComplete(portal.tag().orElseThrow()));
                return false;
            }
        }
        boolean suspended = portal.send(out, maxRows, cancellation);
        if (!suspended) {
            out.send(new BackendMessage.CommandComplete(portal.tag().orElseThrow()));
        }
        return suspended;
    }

    private void start(Portal portal, Prepared.Plan.Sql plan, boolean describeRows) {
        if (transaction == TransactionStatus.FAILED) {
            throw new PgException("25P02", "current transaction is aborted, commands ignored until end of transaction"
                    + " block");
        }
        String sql = plan.placeholders().sql();
        RequestContext request = open("PostgreSQL statement");
        try {
            SqlResult result;
            try {
                result = SqlStatements.run(request, sql, portal.parameters());
            } catch (SQLException e) {
                throw new SqlFailure(e, sql);
            }
            if (result instanceof SqlResult.Rows rows) {
                if (describeRows) {
                    List<Prepared.Column> columns = new ArrayList<>();
                    for (Field field : rows.reader().schema().getFields()) {
                        columns.add(Prepared.Column.of(field));
                    }
                    out.send(rowDescription(columns, List.of()));
                }
                portal.start(request, rows);
                return;
            }
            SqlResult.Updated updated = (SqlResult.Updated) result;
            updated.notices().forEach(notice -> out.send(new BackendMessage.NoticeResponse(notice)));
            long count = updated.count();
            result.close();
            request.close();
            portal.complete(CommandTags.updated(portal.statement().sql(), Math.max(0, count)));
        } catch (RuntimeException e) {
            request.close();
            throw e;
        }
    }

    private void runLocal(LocalStatement statement, Portal portal) {
        if (transaction == TransactionStatus.FAILED && !(statement instanceof LocalStatement.End)
                && !(statement instanceof LocalStatement.Savepoint savepoint
                        && savepoint.action() == LocalStatement.Savepoint.Action.ROLLBACK_TO)) {
            throw new PgException("25P02", "current transaction is aborted, commands ignored until end of transaction"
                    + " block");
        }
        if (statement instanceof LocalStatement.SetParameter set) {
            settings.set(set.name(), set.value())
                    .ifPresent(status -> out.send(new BackendMessage.ParameterStatus(status.getKey(), status.getValue())));
            portal.complete("SET");
        } else if (statement instanceof LocalStatement.SetIgnored) {
            portal.complete("SET");
        } else if (statement instanceof LocalStatement.ResetParameter reset) {
            if (reset.name().isPresent()) {
                settings.reset(reset.name().get())
                        .ifPresent(s -> out.send(new BackendMessage.ParameterStatus(s.getKey(), s.getValue())));
            } else {
                settings.resetAll();
            }
            portal.complete(reset.tag());
        } else if (statement instanceof LocalStatement.ShowParameter show) {
            String value = settings.show(show.name()).orElseThrow(() -> new PgException("42704",
                    "unrecognized configuration parameter \"" + show.name() + "\""));
            sendOneRow(value, portal);
        } else if (statement instanceof LocalStatement.Begin) {
            transaction = TransactionStatus.IN_TRANSACTION;
            portal.complete("BEGIN");
        } else if (statement instanceof LocalStatement.End end) {
            boolean failed = transaction == TransactionStatus.FAILED;
            transaction = TransactionStatus.IDLE;
            closePortalsExcept(portal);
            portal.complete(end.commit() && !failed ? "COMMIT" : "ROLLBACK");
        } else if (statement instanceof LocalStatement.Savepoint savepoint) {
            if (transaction == TransactionStatus.IDLE) {
                throw new PgException("25P01", savepoint.action() == LocalStatement.Savepoint.Action.SAVE
                        ? "SAVEPOINT can only be used in transaction blocks"
                        : "there is no savepoint outside a transaction block");
            }
            if (savepoint.action() == LocalStatement.Savepoint.Action.ROLLBACK_TO) {
                transaction = TransactionStatus.IN_TRANSACTION;
            }
            portal.complete(switch (savepoint.action()) {
                case SAVE -> "SAVEPOINT";
                case RELEASE -> "RELEASE";
                case ROLLBACK_TO -> "ROLLBACK";
            });
        } else if (statement instanceof LocalStatement.Copy) {
            throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle serves COPY in the simple query protocol"
                    + " only");
        } else if (statement instanceof LocalStatement.Unsupported unsupported) {
            throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve " + unsupported.what()
                    + " yet: " + abbreviate(portal.statement().sql()));
        }
    }

    private void sendOneRow(String value, Portal portal) {
        // A text value's binary form is its UTF-8 bytes too, so the format asked for does not matter.
        out.send(new BackendMessage.DataRow(List.of(Optional.ofNullable(value)
                .map(v -> v.getBytes(StandardCharsets.UTF_8)))));
        boolean show = portal.statement().plan() instanceof Prepared.Plan.Local local
                && local.statement() instanceof LocalStatement.ShowParameter;
        portal.complete(show ? "SHOW" : "SELECT 1");
    }

    private void closeObject(FrontendMessage.Close close) {
        if (close.kind() == 'S') {
            statements.remove(close.name());
        } else {
            closePortal(close.name());
        }
        out.send(new BackendMessage.CloseComplete());
    }

    private Prepared statement(String name) {
        Prepared statement = statements.get(name);
        if (statement == null) {
            throw new PgException("26000", name.isEmpty() ? "unnamed prepared statement does not exist"
                    : "prepared statement \"" + name + "\" does not exist");
        }
        return statement;
    }

    private Portal portal(String name) {
        Portal portal = portals.get(name);
        if (portal == null) {
            throw new PgException("34000", name.isEmpty() ? "unnamed portal does not exist"
                    : "portal \"" + name + "\" does not exist");
        }
        return portal;
    }

    /**
     * A request of this session: its statements have the session's {@code statement_timeout} (when
     * set), answer its session functions, and stop when the session's current query is cancelled.
     */
    private RequestContext open(String purpose) {
        RequestContext request = context.sessions().open(credentials, purpose);
        settings.statementTimeout().ifPresent(request::limitTime);
        request.speaks(Dialect.POSTGRESQL, settings.searchPath().stream().findFirst());
        request.host(host);
        running.watch(request);
        return request;
    }

    private BackendMessage.RowDescription rowDescription(List<Prepared.Column> columns, List<Short> formats) {
        List<BackendMessage.Column> described = new ArrayList<>(columns.size());
        for (int c = 0; c < columns.size(); c++) {
            Prepared.Column column = columns.get(c);
            short format = c < formats.size() ? formats.get(c) : 0;
            described.add(new BackendMessage.Column(column.name(), column.type().oid(), column.type().size(),
                    column.typmod(), format));
        }
        return new BackendMessage.RowDescription(described);
    }

    private void error(RuntimeException e, Optional<String> sql) {
        Throwable failure = e instanceof SqlFailure sqlFailure ? sqlFailure.getCause() : e;
        Optional<String> statement = e instanceof SqlFailure sqlFailure ? Optional.of(sqlFailure.sql) : sql;
        out.send(PgErrors.toError(failure, statement));
        if (transaction == TransactionStatus.IN_TRANSACTION) {
            transaction = TransactionStatus.FAILED;
        }
    }

    private Optional<String> sqlOf(FrontendMessage message) {
        if (message instanceof FrontendMessage.Parse parse) {
            return Optional.of(parse.sql());
        }
        if (message instanceof FrontendMessage.Execute execute && portals.containsKey(execute.portal())) {
            return Optional.of(portals.get(execute.portal()).statement().sql());
        }
        return Optional.empty();
    }

    private void readyForQuery() {
        running = new Cancellation();
        // a portal suspended in this query is read on in the next: a cancel then reaches it too
        portals.values().forEach(portal -> portal.request().ifPresent(running::watch));
        out.send(new BackendMessage.ReadyForQuery(transaction));
        out.flush();
    }

    private void closePortal(String name) {
        Portal portal = portals.remove(name);
        if (portal != null) {
            portal.close();
        }
    }

    private void closePortals() {
        portals.values().forEach(Portal::close);
        portals.clear();
    }

    private void closePortalsExcept(Portal keep) {
        portals.values().removeIf(portal -> {
            if (portal != keep) {
                portal.close();
                return true;
            }
            return false;
        });
    }

    private static String abbreviate(String sql) {
        String flat = sql.strip().replaceAll("\\s+", " ");
        return flat.length() > 80 ? flat.substring(0, 80) + "..." : flat;
    }

    /** Frees every portal's read and unregisters the session; the connection is gone or going. */
    @Override
    public void close() {
        if (phase == Phase.CLOSED) {
            return;
        }
        phase = Phase.CLOSED;
        try {
            endCopy();
            closePortals();
            statements.clear();
        } finally {
            key.ifPresent(context.cancels()::unregister);
            out.close();
        }
    }

    /** A statement's SQLException carried to the error mapping with the statement it came from. */
    private static final class SqlFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String sql;

        SqlFailure(Exception cause, String sql) {
            super(cause.getMessage(), cause);
            this.sql = sql;
        }
    }
}
