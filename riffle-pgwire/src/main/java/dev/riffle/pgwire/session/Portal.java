package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.ReadBatch;
import dev.riffle.core.reader.TableReader;
import dev.riffle.server.session.RequestContext;
import dev.riffle.server.sql.SqlResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A bound statement being read: its rows come from the SQL layer's reader a batch at a time and
 * go to the client as DataRows, up to the row limit of each Execute; between Executes the portal
 * keeps its place (the reader, the current batch and row). Closing it frees the read, the batch
 * and the request's Arrow memory.
 *
 * <pre>{@code
 * try (Portal portal = Portal.rows(request, rows, columns, formats)) {
 *     boolean suspended = portal.send(out, 1000, cancelled);
 * }
 * }</pre>
 */
final class Portal implements AutoCloseable {
    private static final byte DATA_ROW = 'D';
    private final Prepared statement;
    private final List<Object> parameters;
    private final List<Short> formats;
    private RequestContext request;
    private SqlResult.Rows rows;
    private ReadBatch batch;
    private DataRowWriter rowWriter;
    private int row;
    private long sent;
    private boolean done;
    private Optional<String> tag = Optional.empty();

    Portal(Prepared statement, List<Object> parameters, List<Short> formats) {
        this.statement = requireNonNull(statement, "statement is null");
        this.parameters = java.util.Collections.unmodifiableList(new ArrayList<>(parameters));
        this.formats = List.copyOf(formats);
    }

    Prepared statement() {
        return statement;
    }

    List<Object> parameters() {
        return parameters;
    }

    /** The format of each column: 0 text, 1 binary. */
    List<Short> formats() {
        return formats;
    }

    /** The request its rows are read in, once started. */
    Optional<RequestContext> request() {
        return Optional.ofNullable(request);
    }

    boolean started() {
        return rows != null || done;
    }

    boolean done() {
        return done;
    }

    /** The tag the portal completed with (once done). */
    Optional<String> tag() {
        return tag;
    }

    /** Starts reading: the request the rows are read in, and the statement's answer. */
    void start(RequestContext request, SqlResult.Rows rows) {
        this.request = requireNonNull(request, "request is null");
        this.rows = requireNonNull(rows, "rows is null");
    }

    /** Marks the portal as answered without rows (an update, a local statement). */
    void complete(String tag) {
        this.tag = Optional.of(tag);
        this.done = true;
        releaseRead();
    }

    /**
     * Sends up to {@code maxRows} rows (0: all that remain).
     *
     * @return true when rows remain (the portal is suspended), false when the read ended
     */
    boolean send(Outbound out, int maxRows, Cancellation cancellation) {
        if (done) {
            return false;
        }
        TableReader reader = rows.reader();
        long budget = maxRows <= 0 ? Long.MAX_VALUE : maxRows;
        long sentNow = 0;
        while (sentNow < budget) {
            if (batch == null || row >= batch.rowCount()) {
                closeBatch();
                cancellation.checkRequested(); // the read itself stops at its deadline
                if (!reader.hasNext()) {
                    complete(dev.riffle.pgwire.sql.CommandTags.rows(sent));
                    return false;
                }
                batch = reader.next();
                rowWriter = new DataRowWriter(batch.root().getFieldVectors(), statement.columns(), formats);
                row = 0;
            }
            out.sendRow(DATA_ROW, rowWriter, row, cancellation::requested);
            row++;
            sent++;
            sentNow++;
            if ((sentNow & 1023) == 0) {
                cancellation.checkRequested(); // the read itself stops at its deadline
            }
        }
        return true;
    }

    private void closeBatch() {
        if (batch != null) {
            batch.close();
            batch = null;
            rowWriter = null;
        }
    }

    private void releaseRead() {
        try {
            closeBatch();
        } finally {
            try {
                if (rows != null) {
                    rows.close();
                }
            } finally {
                rows = null;
                if (request != null) {
                    request.close();
                    request = null;
                }
            }
        }
    }

    @Override
    public void close() {
        done = true;
        releaseRead();
    }
}
