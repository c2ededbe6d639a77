package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.protocol.FrontendMessage;
import dev.riffle.pgwire.sql.LocalStatement;
import dev.riffle.sql.dialect.StatementSplitter;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL's simple query protocol: a Query message's statements run in order, each answering
 * its rows (text format) and CommandComplete, the first failure ending the rest; then
 * ReadyForQuery. A COPY FROM STDIN among them takes the client's data before the statements after
 * it run.
 *
 * <pre>{@code
 * simple.run("SET search_path TO acc; SELECT count(*) FROM c_log");
 * }</pre>
 */
final class SimpleQuery {
    private final PgSession session;
    private final Outbound out;
    private final PreparedStatements statements;
    private final Portals portals;
    private final StatementPreparer preparer;
    private final PortalRunner runner;
    private final CopyProtocol copy;
    /** The statements of the query after its COPY FROM STDIN, run once that ends. */
    private List<String> afterCopy = List.of();

    SimpleQuery(PgSession session, Outbound out, PreparedStatements statements, Portals portals,
            StatementPreparer preparer, PortalRunner runner, CopyProtocol copy) {
        this.session = requireNonNull(session, "session is null");
        this.out = requireNonNull(out, "out is null");
        this.statements = requireNonNull(statements, "statements is null");
        this.portals = requireNonNull(portals, "portals is null");
        this.preparer = requireNonNull(preparer, "preparer is null");
        this.runner = requireNonNull(runner, "runner is null");
        this.copy = requireNonNull(copy, "copy is null");
    }

    /** Runs a Query message's statements; ReadyForQuery follows, unless a COPY FROM STDIN now waits for data. */
    void run(String sql) {
        // as in PostgreSQL, a simple query replaces the unnamed statement and portal
        statements.remove("");
        portals.close("");
        List<String> parts;
        try {
            parts = StatementSplitter.split(sql);
        } catch (RuntimeException e) {
            session.error(e, Optional.of(sql));
            session.readyForQuery();
            return;
        }
        if (parts.isEmpty()) {
            out.send(new BackendMessage.EmptyQueryResponse());
        }
        if (runStatements(parts)) {
            session.readyForQuery();
        }
    }

    /** A message of the client while COPY FROM STDIN runs: once the COPY ends, the query goes on. */
    void copyMessage(FrontendMessage message) {
        switch (copy.message(message)) {
            case RECEIVING -> { }
            case TERMINATED -> {
                afterCopy = List.of();
                out.closeConnection();
                session.close();
            }
            case FAILED -> {
                afterCopy = List.of();
                session.readyForQuery();
            }
            case WRITTEN -> {
                List<String> rest = afterCopy;
                afterCopy = List.of();
                if (rest.isEmpty() || runStatements(rest)) {
                    session.readyForQuery();
                }
            }
        }
    }

    /**
     * Runs statements in order, stopping at the first error.
     *
     * @return false when a COPY FROM STDIN now waits for the client's data (the rest runs after it)
     */
    private boolean runStatements(List<String> parts) {
        for (int i = 0; i < parts.size(); i++) {
            String statement = parts.get(i);
            try {
                Prepared prepared = preparer.prepare("", statement, List.of(), false);
                if (prepared.plan() instanceof Prepared.Plan.Local local
                        && local.statement() instanceof LocalStatement.Copy command) {
                    session.inserts().acknowledge(); // COPY reads and writes after the INSERTs before it
                    if (command.command().in()) {
                        copy.startIn(command.command());
                        afterCopy = List.copyOf(parts.subList(i + 1, parts.size()));
                        return false;
                    }
                    copy.out(command.command());
                    continue;
                }
                try (Portal portal = new Portal(prepared, List.of(), List.of())) {
                    if (!prepared.columns().isEmpty()) {
                        out.send(Prepared.rowDescription(prepared.columns(), List.of()));
                    }
                    runner.run(portal, 0, prepared.columns().isEmpty());
                }
            } catch (Outbound.ClientGoneException e) {
                throw e;
            } catch (RuntimeException e) {
                session.error(e, Optional.of(statement));
                break;
            } catch (StackOverflowError | AssertionError e) {
                session.error(PgException.unplannable(e), Optional.of(statement));
                break;
            }
        }
        return true;
    }
}
