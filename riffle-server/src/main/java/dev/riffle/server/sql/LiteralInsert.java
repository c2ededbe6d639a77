package dev.riffle.server.sql;

import dev.riffle.core.write.TableWrite;
import dev.riffle.core.write.WriteNotAcknowledgedException;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.statement.RunningStatement;
import dev.riffle.server.write.InsertRowDecoder;
import dev.riffle.server.write.StandardLiteralReader;
import dev.riffle.sql.engine.InsertValues;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;

/**
 * An {@code INSERT ... VALUES} of literals and parameters, written straight to Fluss's writer
 * rather than planned: the one write path of a literal INSERT on every surface (the PostgreSQL port
 * does the same before this, with PostgreSQL's literals, and defers the acknowledgement to its
 * {@code Sync}). The engine plans a VALUES row that needs a conversion as one select per row,
 * which is slow for many rows and, past a few thousand, too deep to plan at all.
 *
 * <p>Only what the decoder takes without doubt is written here: a table named exactly (with its
 * database, or in the request's schema), every value of its column's type. Anything else answers
 * empty and runs through the engine, which writes it or says what is wrong, as for any INSERT.
 *
 * <pre>{@code
 * Optional<SqlResult> written = LiteralInsert.run(request, running, sql, parameters);
 * }</pre>
 */
final class LiteralInsert {
    private LiteralInsert() {}

    /**
     * The INSERT's result once its rows are acknowledged, or empty when the engine must run it.
     *
     * @throws SQLException when Fluss did not acknowledge every row, saying how many were and may
     *     have been written: classified as the engine's failed INSERT is (an ACL that denies the
     *     write stays a permission failure)
     */
    static Optional<SqlResult> run(RequestContext request, RunningStatement running, String sql,
            List<Object> parameters) throws SQLException {
        Optional<Decoded> decoded = decode(request, sql, parameters);
        if (decoded.isEmpty()) {
            return Optional.empty();
        }
        if (!running.tryAdmit()) {
            running.admit();
        }
        running.guard().check(); // cancelled or out of time while it waited
        TableInfo table = decoded.get().table();
        TableWrite write = request.session().handles().write(table).timeout(request.limits().requestTimeout()).open();
        write.rows(decoded.get().rows());
        try {
            long written = write.acknowledgements().await(request.limits().requestTimeout(),
                    "rows of the INSERT into " + table.getTablePath());
            return Optional.of(new SqlResult.Updated(written));
        } catch (WriteNotAcknowledgedException e) {
            throw new SQLException(e.getMessage(), e);
        }
    }

    /**
     * Whether {@code sql} is an INSERT of literals only that {@link #run} writes without the engine:
     * a prepared statement's shape then needs no plan either (and a few thousand rows could not be
     * planned).
     */
    static boolean writesWithoutEngine(RequestContext request, String sql) {
        return decode(request, sql, List.of()).isPresent();
    }

    private record Decoded(TableInfo table, List<GenericRow> rows) {}

    private static Optional<Decoded> decode(RequestContext request, String sql, List<Object> parameters) {
        Optional<InsertValues> insert = InsertValues.parse(sql, request.dialect());
        if (insert.isEmpty() || insert.get().parameters() != parameters.size()) {
            return Optional.empty();
        }
        Optional<TableInfo> table = table(request, insert.get());
        if (table.isEmpty()) {
            return Optional.empty();
        }
        return InsertRowDecoder.of(table.get(), insert.get(), StandardLiteralReader.INSTANCE)
                .flatMap(decoder -> decoder.decode(parameters))
                .map(rows -> new Decoded(table.get(), rows));
    }

    /** The table as the statement names it, exactly; empty when only the engine can tell which it is. */
    private static Optional<TableInfo> table(RequestContext request, InsertValues insert) {
        Optional<String> database = insert.name().size() == 2 ? Optional.of(insert.name().get(0)) : request.schema();
        if (database.isEmpty()) {
            return Optional.empty();
        }
        try {
            // Asked of the cluster now, as the engine plans against (a table dropped and created again
            // elsewhere a moment ago is the new one). No such table under this spelling: the engine
            // names what is missing, or finds it ignoring case.
            return request.session().handles().find(
                    TablePath.of(database.get(), insert.name().get(insert.name().size() - 1)));
        } catch (RuntimeException e) {
            return Optional.empty(); // a name Fluss refuses, or the cluster unreachable: the engine says which
        }
    }
}
