package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.write.WriteNotAcknowledgedException;
import dev.riffle.pgwire.types.PgLiteralReader;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.write.InsertRowDecoder;
import dev.riffle.server.write.WriteBatch;
import dev.riffle.sql.dialect.PublicSchema;
import dev.riffle.sql.engine.InsertValues;
import java.util.List;
import java.util.Optional;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;

/**
 * The session's {@code INSERT ... VALUES} of literals and parameters, written as PostgreSQL runs the
 * statements of one unit: an extended-query pipeline up to its {@code Sync} (one implicit
 * transaction), a simple query's statements, or an explicit transaction up to its {@code COMMIT}.
 * Each INSERT's rows are decoded and checked when it runs (a bad value fails that statement, as
 * always) and handed to Fluss's writer; its {@code INSERT 0 n} answers at once, and the unit's
 * rows are acknowledged together at its end ({@link #acknowledge()}), where a failure is reported
 * saying how many rows were written and how many may have been (Fluss has no rollback). Any other
 * statement first waits for the rows before it ({@link PortalRunner}), so it reads what the unit
 * wrote; so does an INSERT this class does not take, which then runs through the SQL engine.
 *
 * <pre>{@code
 * Optional<String> tag = inserts.write(portal, insert);   // "INSERT 0 1", or run it as any statement
 * inserts.acknowledge();                                  // at Sync, the end of a query, COMMIT
 * }</pre>
 */
final class BatchedInserts implements AutoCloseable {
    /** Past this many rows waiting for their acknowledgement, the session waits for them before going on. */
    static final int MAX_PENDING_ROWS = 100_000;

    private final PgSession session;
    private final WriteBatch batch;
    /** The rows written in the current unit (a batch up to Sync, a query, a transaction block), acknowledged or not. */
    private long unitRows;

    BatchedInserts(PgSession session) {
        this.session = requireNonNull(session, "session is null");
        this.batch = new WriteBatch(() -> session.open("PostgreSQL writes"));
    }

    /**
     * Writes the portal's INSERT when it is one this class takes: its table exists under the name as
     * PostgreSQL folds it or as written (PostgreSQL's {@code public} being Fluss's {@code fluss}), its
     * columns are named exactly, and every value is one its column takes without a conversion.
     *
     * @return the statement's command tag, or empty when it must run through the SQL engine (after
     *     {@link #acknowledge()})
     */
    Optional<String> write(Portal portal, InsertValues insert) {
        session.transaction().checkNotFailed();
        Optional<TableInfo> table = table(insert);
        if (table.isEmpty()) {
            return Optional.empty();
        }
        Optional<List<GenericRow>> rows = InsertRowDecoder.of(table.get(), insert, PgLiteralReader.INSTANCE)
                .flatMap(decoder -> decoder.decode(portal.parameters()));
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        session.running().checkRequested();
        batch.write(table.get(), rows.get());
        unitRows += rows.get().size();
        if (batch.pendingRows() >= MAX_PENDING_ROWS) {
            acknowledge(); // memory stays bounded in a long transaction; a failure is this statement's
        }
        return Optional.of("INSERT 0 " + rows.get().size());
    }

    /** Whether rows wait for their acknowledgement. */
    boolean pending() {
        return batch.pendingRows() > 0;
    }

    /** Whether the current unit wrote rows (acknowledged or not). */
    boolean wroteInUnit() {
        return unitRows > 0;
    }

    /** The unit ended (its rows acknowledged): the next statement starts a new one. */
    void endUnit() {
        unitRows = 0;
    }

    /**
     * Waits until Fluss acknowledged every row written since the last time.
     *
     * @throws dev.riffle.core.write.WriteNotAcknowledgedException saying what was and may have been written
     */
    void acknowledge() {
        try {
            batch.acknowledge();
        } catch (WriteNotAcknowledgedException e) {
            unitRows = 0; // the failure says what became of them
            throw e;
        }
    }

    /**
     * Acknowledges what is pending before a failed statement of the {@code unit}, for its error message.
     *
     * @return what was written, or what may have been, as the end of an error message
     */
    String acknowledgeBefore(String unit) {
        try {
            acknowledge();
            long written = unitRows;
            return "the " + written + (written == 1 ? " row" : " rows") + " the INSERTs before it in this " + unit
                    + " sent were written (Fluss has no rollback)";
        } catch (WriteNotAcknowledgedException e) {
            return "of the rows the INSERTs before it in this " + unit + " sent: " + e.getMessage();
        }
    }

    private Optional<TableInfo> table(InsertValues insert) {
        Optional<TableInfo> found = table(insert.name());
        return found.isPresent() || insert.written().equals(insert.name()) ? found : table(insert.written());
    }

    private Optional<TableInfo> table(List<String> name) {
        Optional<String> database = name.size() == 2 ? Optional.of(name.get(0)) : session.settings().searchPath()
                .stream().findFirst();
        if (database.isEmpty()) {
            return Optional.empty();
        }
        String table = name.get(name.size() - 1);
        RequestContext request = batch.request();
        Optional<TableInfo> found = find(request, TablePath.of(database.get(), table));
        if (found.isEmpty() && database.get().equals(PublicSchema.NAME)) {
            found = find(request, TablePath.of(PublicSchema.DATABASE, table));
        }
        return found;
    }

    private static Optional<TableInfo> find(RequestContext request, TablePath path) {
        try {
            return Optional.of(request.session().handles().info(path));
        } catch (RuntimeException e) {
            // no such table (or none under this spelling): the engine names what is missing, or
            // finds the table ignoring case
            return Optional.empty();
        }
    }

    /** Waits for what is pending (the client went away: a failure can only be logged). */
    @Override
    public void close() {
        batch.close();
    }
}
