package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.sql.CommandTags;
import dev.riffle.pgwire.sql.LocalStatement;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Runs a portal, for both query protocols: its statement starts (in the SQL engine, in a request
 * of its own, or answered here: SET, SHOW, BEGIN, COMMIT, SAVEPOINT), its rows go out up to the
 * row limit, and once it is done its CommandComplete follows.
 *
 * <pre>{@code
 * boolean suspended = runner.run(portal, 100, false);
 * }</pre>
 */
final class PortalRunner {
    private final PgSession session;
    private final Outbound out;
    private final Portals portals;

    PortalRunner(PgSession session, Outbound out, Portals portals) {
        this.session = requireNonNull(session, "session is null");
        this.out = requireNonNull(out, "out is null");
        this.portals = requireNonNull(portals, "portals is null");
    }

    /**
     * Runs (or resumes) a portal, sending its rows and, once it is done, its CommandComplete.
     *
     * @param maxRows the most rows to send now (0: all of them)
     * @param describeRows for a simple query: send the RowDescription the statement's reader implies
     * @return whether the portal was suspended at the row limit
     */
    boolean run(Portal portal, int maxRows, boolean describeRows) {
        Prepared statement = portal.statement();
        if (statement.plan() instanceof Prepared.Plan.Empty) {
            out.send(new BackendMessage.EmptyQueryResponse());
            return false;
        }
        if (portal.done()) {
            out.send(new BackendMessage.CommandComplete(portal.tag().orElse("SELECT 0")));
            return false;
        }
        Cancellation cancellation = session.running();
        cancellation.checkRequested();
        if (!portal.started()) {
            if (statement.plan() instanceof Prepared.Plan.Sql sql && sql.insert().isPresent()) {
                Optional<String> written = session.inserts().write(portal, sql.insert().get());
                if (written.isPresent()) {
                    portal.complete(written.get());
                    out.send(new BackendMessage.CommandComplete(written.get()));
                    return false;
                }
            }
            if (statement.plan() instanceof Prepared.Plan.Sql) {
                // what the statement reads includes the rows written before it in its unit
                session.inserts().acknowledge();
            }
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
        session.transaction().checkNotFailed();
        String sql = plan.placeholders().sql();
        RequestContext request = session.open("PostgreSQL statement");
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
                    out.send(Prepared.rowDescription(columns, List.of()));
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
        TransactionBlock transaction = session.transaction();
        if (!(statement instanceof LocalStatement.End) && !(statement instanceof LocalStatement.Savepoint savepoint
                && savepoint.action() == LocalStatement.Savepoint.Action.ROLLBACK_TO)) {
            transaction.checkNotFailed();
        }
        SessionSettings settings = session.settings();
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
            transaction.begin();
            portal.complete("BEGIN");
        } else if (statement instanceof LocalStatement.End end) {
            boolean failed = transaction.end();
            portals.closeAllExcept(portal);
            // Fluss has no rollback: a ROLLBACK, too, reports rows of the block that were not written
            try {
                session.inserts().acknowledge();
            } finally {
                session.inserts().endUnit();
            }
            portal.complete(end.commit() && !failed ? "COMMIT" : "ROLLBACK");
        } else if (statement instanceof LocalStatement.Savepoint savepoint) {
            if (transaction.idle()) {
                throw new PgException("25P01", savepoint.action() == LocalStatement.Savepoint.Action.SAVE
                        ? "SAVEPOINT can only be used in transaction blocks"
                        : "there is no savepoint outside a transaction block");
            }
            if (savepoint.action() == LocalStatement.Savepoint.Action.ROLLBACK_TO) {
                transaction.rollbackToSavepoint();
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
                    + " yet: " + PgException.quoted(portal.statement().sql()));
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
}
