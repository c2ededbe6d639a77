package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.error.PgException;
import dev.riffle.pgwire.protocol.BackendMessage;
import dev.riffle.pgwire.protocol.FrontendMessage;
import dev.riffle.pgwire.types.ParameterDecoder;
import dev.riffle.sql.dialect.PgType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL's extended query protocol: Parse makes a prepared statement, Bind a portal of it with
 * the parameters decoded to the types the statement takes, Describe tells their shape, Execute
 * runs a portal (resuming a suspended one), Close forgets either. Sync and Flush, which end or
 * push a batch of these, are the session's.
 *
 * <pre>{@code
 * extended.handle(new FrontendMessage.Parse("s1", "SELECT $1::int", List.of()));
 * }</pre>
 */
final class ExtendedQuery {
    private final Outbound out;
    private final PreparedStatements statements;
    private final Portals portals;
    private final StatementPreparer preparer;
    private final PortalRunner runner;

    ExtendedQuery(Outbound out, PreparedStatements statements, Portals portals, StatementPreparer preparer,
            PortalRunner runner) {
        this.out = requireNonNull(out, "out is null");
        this.statements = requireNonNull(statements, "statements is null");
        this.portals = requireNonNull(portals, "portals is null");
        this.preparer = requireNonNull(preparer, "preparer is null");
        this.runner = requireNonNull(runner, "runner is null");
    }

    /** Handles one message of the protocol; its failure is the caller's to answer (then skip to Sync). */
    void handle(FrontendMessage message) {
        if (message instanceof FrontendMessage.Parse parse) {
            parse(parse);
        } else if (message instanceof FrontendMessage.Bind bind) {
            bind(bind);
        } else if (message instanceof FrontendMessage.Describe describe) {
            describe(describe);
        } else if (message instanceof FrontendMessage.Execute execute) {
            execute(execute);
        } else if (message instanceof FrontendMessage.Close close) {
            close(close);
        } else if (message instanceof FrontendMessage.Unsupported unsupported) {
            throw new PgException(PgException.FEATURE_NOT_SUPPORTED, "Riffle does not serve protocol message '"
                    + unsupported.type() + "' (function calls are not supported)");
        } else {
            throw new PgException(PgException.PROTOCOL_VIOLATION, "Unexpected message " + message);
        }
    }

    /** The statement a message is about, for its error to quote. */
    Optional<String> sqlOf(FrontendMessage message) {
        if (message instanceof FrontendMessage.Parse parse) {
            return Optional.of(parse.sql());
        }
        if (message instanceof FrontendMessage.Execute execute) {
            return portals.find(execute.portal()).map(portal -> portal.statement().sql());
        }
        return Optional.empty();
    }

    private void parse(FrontendMessage.Parse parse) {
        statements.checkFree(parse.name()); // before the statement is planned, as PostgreSQL does
        statements.add(preparer.prepare(parse.name(), parse.sql(), parse.parameterTypes(), true));
        out.send(new BackendMessage.ParseComplete());
    }

    private void bind(FrontendMessage.Bind bind) {
        Prepared statement = statements.get(bind.statement());
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
        portals.open(bind.portal(), new Portal(statement, values, formats));
        out.send(new BackendMessage.BindComplete());
    }

    private static short format(List<Short> formats, int index) {
        return formats.isEmpty() ? 0 : formats.size() == 1 ? formats.get(0) : formats.get(index);
    }

    private void describe(FrontendMessage.Describe describe) {
        if (describe.kind() == 'S') {
            Prepared statement = statements.get(describe.name());
            out.send(new BackendMessage.ParameterDescription(statement.parameterTypes().stream().map(PgType::oid)
                    .toList()));
            out.send(statement.columns().isEmpty() ? new BackendMessage.NoData()
                    : Prepared.rowDescription(statement.columns(), List.of()));
        } else {
            Portal portal = portals.get(describe.name());
            out.send(portal.statement().columns().isEmpty() ? new BackendMessage.NoData()
                    : Prepared.rowDescription(portal.statement().columns(), portal.formats()));
        }
    }

    private void execute(FrontendMessage.Execute execute) {
        Portal portal = portals.get(execute.portal());
        boolean suspended;
        try {
            suspended = runner.run(portal, execute.maxRows(), false);
        } catch (SqlFailure | Outbound.ClientGoneException e) {
            portals.close(execute.portal());
            throw e;
        } catch (RuntimeException e) {
            portals.close(execute.portal());
            // classified as the failure of its statement (1 / 0 is the user's), not of the server
            throw new SqlFailure(e, portal.statement().sql());
        }
        if (suspended) {
            out.send(new BackendMessage.PortalSuspended());
        }
    }

    private void close(FrontendMessage.Close close) {
        if (close.kind() == 'S') {
            statements.remove(close.name());
        } else {
            portals.close(close.name());
        }
        out.send(new BackendMessage.CloseComplete());
    }
}
