package dev.riffle.core.write;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.UnsupportedTableException;
import dev.riffle.core.types.ArrowRowView;
import dev.riffle.core.types.ArrowWriteLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.TableWriter;
import org.apache.fluss.client.table.writer.Upsert;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.exception.FlussRuntimeException;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.InternalRow;

/**
 * One write to one table version, the façade every surface writes through: rows or Arrow batches
 * go in, and one {@link Acknowledgements} says, once Fluss answered, how many rows are written and
 * how many may or may not be. It chooses how the rows travel: a log table's Arrow batches as log
 * batches Riffle makes itself ({@link ArrowLogAppender}, the session's idempotent appender) when
 * Fluss takes them from Riffle, else through Fluss's own writers, which copy row by row
 * (an {@link ArrowRowView} over a batch: no value object per cell); a primary-key table's rows are
 * upserted, deleted, or upserted in part ({@link Builder#columns}).
 *
 * <p>Rows are handed over as they come and sent within the Fluss writer's batch timeout; nothing
 * waits until {@link #acknowledgements()} is awaited. No flush: it would wait for every batch in
 * flight, other writes' too (a statement that must end with its writes sent says so: {@link #flush}).
 * A write is used by one thread.
 *
 * <pre>{@code
 * TableWrite write = handles.write(info).columns(List.of("id", "amount")).open();
 * rows.forEach(write::row);
 * long written = write.acknowledgements().await(Duration.ofSeconds(30), "rows written to " + info.getTablePath());
 * }</pre>
 */
public final class TableWrite {
    private final TableInfo table;
    private final Table handle;
    private final Supplier<ArrowLogAppender> appender;
    private final Optional<List<String>> columns;
    private final boolean delete;
    private final Duration timeout;
    private final Acknowledgements acknowledgements;
    /** Fluss's writer, made at the first row that goes through one. */
    private TableWriter writer;

    private TableWrite(Builder builder) {
        this.table = builder.table;
        this.handle = builder.handle;
        this.appender = builder.appender;
        this.columns = builder.columns;
        this.delete = builder.delete;
        this.timeout = builder.timeout;
        this.acknowledgements = builder.acknowledgements;
    }

    /**
     * A write to {@code table} through its open {@code handle}, its Arrow batches appended by
     * {@code appender} when {@link ArrowLogAppender#takes} the table (asked for only then).
     */
    public static Builder to(TableInfo table, Table handle, Supplier<ArrowLogAppender> appender) {
        return new Builder(table, handle, appender);
    }

    /** What the write will be; {@link #open()} starts it. */
    public static final class Builder {
        private final TableInfo table;
        private final Table handle;
        private final Supplier<ArrowLogAppender> appender;
        private Optional<List<String>> columns = Optional.empty();
        private boolean delete;
        private Duration timeout = Duration.ofMinutes(2);
        private Acknowledgements acknowledgements = new Acknowledgements();

        private Builder(TableInfo table, Table handle, Supplier<ArrowLogAppender> appender) {
            this.table = requireNonNull(table, "table is null");
            this.handle = requireNonNull(handle, "handle is null");
            this.appender = requireNonNull(appender, "appender is null");
        }

        /**
         * Writes only {@code columns} of a primary-key table's rows (the key among them), leaving
         * the others as they are: a partial update. Empty: whole rows.
         */
        public Builder columns(Optional<List<String>> columns) {
            requireNonNull(columns, "columns is null");
            if (columns.isPresent() && !table.hasPrimaryKey()) {
                throw new UnsupportedTableException("Only a primary-key table's rows are written in part; "
                        + table.getTablePath() + " is a log table");
            }
            this.columns = columns.map(List::copyOf);
            return this;
        }

        /** Writes only {@code columns} of a primary-key table's rows: {@link #columns(Optional)}. */
        public Builder columns(List<String> columns) {
            return columns(Optional.of(columns));
        }

        /** Deletes the rows' keys from a primary-key table instead of writing the rows. */
        public Builder delete() {
            if (!table.hasPrimaryKey()) {
                throw new UnsupportedTableException("Only a primary-key table's rows are deleted; "
                        + table.getTablePath() + " is a log table, which is append-only");
            }
            this.delete = true;
            return this;
        }

        /** How long the appender may take to take a write's batches (two minutes unless set). */
        public Builder timeout(Duration timeout) {
            this.timeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        /**
         * Counts the write's acknowledgements into {@code acknowledgements}, so that writes to
         * several tables are awaited as one (a transaction's, say); a write has its own otherwise.
         */
        public Builder acknowledgingInto(Acknowledgements acknowledgements) {
            this.acknowledgements = requireNonNull(acknowledgements, "acknowledgements is null");
            return this;
        }

        public TableWrite open() {
            return new TableWrite(this);
        }
    }

    /** The table version written. */
    public TableInfo table() {
        return table;
    }

    /** Hands {@code row} to Fluss's writer (written, deleted or written in part, as the write is). */
    public void row(InternalRow row) {
        requireNonNull(row, "row is null");
        CompletableFuture<?> acknowledgement;
        try {
            acknowledgement = send(row);
        } catch (FlussRuntimeException e) {
            if (!mixedTargetColumns(e)) {
                throw e;
            }
            // Fluss 0.9.1's client refuses a record whose target columns (a partial update's, or
            // none) differ from those of its bucket's open batch, instead of starting a batch of
            // its own: another write to the table, sharing the connection, left that batch open.
            // Once the open batches are sent, the record starts one.
            writer.flush();
            acknowledgement = send(row);
        }
        acknowledgements.add(acknowledgement);
    }

    private CompletableFuture<?> send(InternalRow row) {
        TableWriter fluss = writer();
        if (fluss instanceof UpsertWriter upsert) {
            return delete ? upsert.delete(row) : upsert.upsert(row);
        }
        return ((AppendWriter) fluss).append(row);
    }

    private static boolean mixedTargetColumns(Throwable failure) {
        for (Throwable cause = failure; cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof IllegalStateException && cause.getMessage() != null
                    && cause.getMessage().contains("target columns")) {
                return true;
            }
        }
        return false;
    }

    /** Hands every row of {@code rows} over, as {@link #row} does. */
    public void rows(Iterable<? extends InternalRow> rows) {
        requireNonNull(rows, "rows is null");
        for (InternalRow row : rows) {
            row(row);
        }
    }

    /**
     * Appends the rows of a log table's Arrow {@code batches}, column {@code c} held by field
     * {@code layout[c]} of each in the column's own Arrow type ({@link ArrowWriteLayout#of}): as
     * Riffle-made log batches when the appender takes the table, else row by row through a view of
     * the vectors. The batches stay the caller's; they may be closed once this returns.
     */
    public void batches(List<VectorSchemaRoot> batches, int[] layout) {
        requireNonNull(batches, "batches is null");
        requireNonNull(layout, "layout is null");
        if (table.hasPrimaryKey() || delete || columns.isPresent()) {
            throw new UnsupportedTableException("Arrow batches are appended to log tables; " + table.getTablePath()
                    + " takes rows");
        }
        long rows = batches.stream().mapToLong(VectorSchemaRoot::getRowCount).sum();
        if (rows == 0) {
            return;
        }
        if (ArrowLogAppender.takes(table)) {
            List<VectorSchemaRoot> inTableOrder = new ArrayList<>(batches.size());
            for (VectorSchemaRoot batch : batches) {
                inTableOrder.add(ArrowWriteLayout.inTableOrder(batch, layout));
            }
            acknowledgements.add(appender.get().append(inTableOrder, timeout), rows);
            return;
        }
        for (VectorSchemaRoot batch : batches) {
            ArrowRowView row = new ArrowRowView(batch, layout);
            for (int i = 0; i < batch.getRowCount(); i++) {
                row(row.at(i));
            }
        }
    }

    /**
     * Sends what Fluss's writer holds now and waits until it is sent (not acknowledged): for a
     * statement whose rows must all be on their way before it waits for them. Waits for the other
     * writes of the connection too.
     */
    public void flush() {
        if (writer != null) {
            writer.flush();
        }
    }

    /** The acknowledgements of everything handed over so far (and of the writes sharing them). */
    public Acknowledgements acknowledgements() {
        return acknowledgements;
    }

    private TableWriter writer() {
        if (writer == null) {
            if (!table.hasPrimaryKey()) {
                writer = handle.newAppend().createWriter();
            } else {
                Upsert upsert = handle.newUpsert();
                if (columns.isPresent()) {
                    upsert = upsert.partialUpdate(columns.get().toArray(String[]::new));
                }
                writer = upsert.createWriter();
            }
        }
        return writer;
    }
}
