package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.copy.CopyRowDecoder;
import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.protocol.FrontendMessage;
import dev.riffle.pgwire.sql.CopyCommand;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.sql.SqlResult;
import dev.riffle.server.sql.SqlStatements;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * PostgreSQL's COPY sub-protocol: {@code COPY ... TO STDOUT} streams a query's rows as CopyData;
 * {@code COPY ... FROM STDIN} answers CopyInResponse and then takes the client's CopyData until
 * CopyDone (the rows are written, all or none) or CopyFail (nothing is written).
 *
 * <pre>{@code
 * copy.startIn(command);
 * CopyProtocol.Step step = copy.message(new FrontendMessage.CopyDone());
 * }</pre>
 */
final class CopyProtocol {
    /** Where a COPY FROM STDIN stands after a message of the client. */
    enum Step {
        /** It takes more data. */
        RECEIVING,
        /** Its rows were written and CommandComplete sent. */
        WRITTEN,
        /** It failed (the client's CopyFail, bad data, a cancel) and the error was sent; nothing was written. */
        FAILED,
        /** The client terminated the connection during it; nothing was written. */
        TERMINATED
    }

    private final PgSession session;
    private final Outbound out;
    private final int maxRows;
    /** The COPY FROM STDIN receiving the client's data, if one does. */
    private CopyIn copyIn;

    CopyProtocol(PgSession session, Outbound out, int maxRows) {
        this.session = requireNonNull(session, "session is null");
        this.out = requireNonNull(out, "out is null");
        this.maxRows = maxRows;
    }

    /** Whether a COPY FROM STDIN waits for the client's data: every message goes to {@link #message}. */
    boolean receiving() {
        return copyIn != null;
    }

    /** COPY ... TO STDOUT: the rows of the query (or table) streamed as CopyData, then {@code COPY n}. */
    void out(CopyCommand command) {
        session.transaction().checkNotFailed();
        String sql = command.source() instanceof CopyCommand.Source.Query query ? query.sql()
                : ((CopyCommand.Source.Table) command.source()).selectSql();
        RequestContext request = session.open("PostgreSQL COPY TO STDOUT");
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
            throw new PgException("42601", "COPY (query) TO STDOUT needs a query that answers rows: "
                    + PgException.quoted(sql));
        }
        try (CopyOut copy = new CopyOut(request, rows, command.options())) {
            long sent = copy.send(out, session.running());
            out.send(new BackendMessage.CommandComplete("COPY " + sent));
        }
    }

    /** COPY ... FROM STDIN: answers CopyInResponse; the client's CopyData follows. */
    void startIn(CopyCommand command) {
        session.transaction().checkNotFailed();
        CopyCommand.Source.Table source = (CopyCommand.Source.Table) command.source();
        RequestContext request = session.open("PostgreSQL COPY FROM STDIN");
        try {
            TablePath path = TablePath.of(source.schema().name(), source.table().name());
            TableInfo table = request.tableInfo(path);
            CopyRowDecoder decoder = CopyRowDecoder.of(table, source.columns().stream()
                    .map(CopyCommand.Identifier::name).toList());
            copyIn = new CopyIn(request, table, decoder, command.options(), maxRows);
        } catch (RuntimeException e) {
            request.close();
            throw e;
        }
        out.send(new BackendMessage.CopyInResponse(copyIn.columns()));
        out.flush();
    }

    /**
     * A message while COPY FROM STDIN runs: data, its end, or its failure; Flush and Sync are
     * ignored, as in PostgreSQL.
     */
    Step message(FrontendMessage message) {
        if (message instanceof FrontendMessage.CopyData data) {
            copyIn.data(data.data());
            return Step.RECEIVING;
        }
        if (message instanceof FrontendMessage.Flush || message instanceof FrontendMessage.Sync) {
            return Step.RECEIVING;
        }
        if (message instanceof FrontendMessage.Terminate) {
            end();
            return Step.TERMINATED;
        }
        try {
            if (message instanceof FrontendMessage.CopyDone) {
                long written = copyIn.finish(session.running());
                out.send(new BackendMessage.CommandComplete("COPY " + written));
                return Step.WRITTEN;
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
            session.error(e, Optional.empty());
            return Step.FAILED;
        } finally {
            end();
        }
    }

    /** Ends a COPY FROM STDIN, if one runs, freeing what it holds (nothing it received is written). */
    void end() {
        if (copyIn != null) {
            CopyIn ending = copyIn;
            copyIn = null;
            ending.close();
        }
    }
}
