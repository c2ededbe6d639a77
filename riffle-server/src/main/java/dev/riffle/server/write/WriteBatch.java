package dev.riffle.server.write;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.write.Acknowledgements;
import dev.riffle.core.write.TableWrite;
import dev.riffle.core.write.WriteNotAcknowledgedException;
import dev.riffle.server.session.RequestContext;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;

/**
 * The rows a client sends as one unit (a PostgreSQL pipeline up to its {@code Sync}, a transaction
 * up to its {@code COMMIT}), handed to Fluss's writers as they come (appended to a log table,
 * upserted into a primary-key table) and acknowledged together: one wait for the whole unit
 * instead of one per statement, which is what makes row-at-a-time clients (JDBC batches,
 * {@code executemany}) fast. Fluss has no rollback: a failure is reported at
 * {@link #acknowledge()}, saying how many rows were written and how many may have been.
 *
 * <p>The batch holds the request it writes in from its first row to its acknowledgement. It is used
 * by one thread at a time (the client connection's).
 *
 * <pre>{@code
 * WriteBatch batch = new WriteBatch(() -> session.open("PostgreSQL writes"));
 * batch.write(table, List.of(row));           // returns once Fluss's writer took the row
 * WriteBatch.Acknowledged done = batch.acknowledge();   // or WriteNotAcknowledgedException
 * }</pre>
 */
public final class WriteBatch implements AutoCloseable {
    /** What was written since the last acknowledgement, per table. */
    public record Acknowledged(Map<TablePath, Long> rows) {
        public Acknowledged {
            rows = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rows));
        }

        public long total() {
            return rows.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private record WriterKey(long tableId, int schemaId) {}

    private final Supplier<RequestContext> opener;
    private Optional<RequestContext> request = Optional.empty();
    private final Map<WriterKey, TableWrite> writes = new HashMap<>();
    private final Map<TablePath, Long> rows = new LinkedHashMap<>();
    private Acknowledgements acks = new Acknowledgements();

    /** @param opener opens the request the batch writes in (at its first row after an acknowledgement) */
    public WriteBatch(Supplier<RequestContext> opener) {
        this.opener = requireNonNull(opener, "opener is null");
    }

    /** Hands {@code rows} (whole rows of {@code table}) to Fluss's writer; they are sent within its batch timeout. */
    public void write(TableInfo table, List<GenericRow> rows) {
        requireNonNull(table, "table is null");
        requireNonNull(rows, "rows is null");
        if (rows.isEmpty()) {
            return;
        }
        RequestContext context = request();
        // One write per table version, all counted into the unit's acknowledgements: rows of one
        // key stay in order through its one writer, and the unit is awaited as one.
        TableWrite write = writes.computeIfAbsent(new WriterKey(table.getTableId(), table.getSchemaId()),
                key -> context.session().handles().write(table).acknowledgingInto(acks).open());
        write.rows(rows);
        this.rows.merge(table.getTablePath(), (long) rows.size(), Long::sum);
    }

    /**
     * The request the batch writes in, opened now when it has none; it stays open until the next
     * {@link #acknowledge()}.
     */
    public RequestContext request() {
        if (request.isEmpty()) {
            request = Optional.of(opener.get());
        }
        return request.get();
    }

    /** The rows written since the last acknowledgement. */
    public long pendingRows() {
        return acks.count();
    }

    /**
     * Waits until Fluss acknowledged every row written since the last acknowledgement (at most the
     * request's timeout); the batch is then empty again, whatever the outcome.
     *
     * @throws WriteNotAcknowledgedException when Fluss rejected rows or did not answer in time
     */
    public Acknowledged acknowledge() {
        if (request.isEmpty()) {
            return new Acknowledged(Map.of());
        }
        RequestContext context = request.get();
        Acknowledgements waited = acks;
        Map<TablePath, Long> written = new LinkedHashMap<>(rows);
        acks = new Acknowledgements();
        rows.clear();
        writes.clear();
        request = Optional.empty();
        Duration timeout = context.limits().requestTimeout();
        try (context) {
            waited.await(timeout, "rows written to " + tables(written) + " since the last acknowledgement");
            return new Acknowledged(written);
        }
    }

    private static String tables(Map<TablePath, Long> written) {
        return written.keySet().stream().map(TablePath::toString).collect(Collectors.joining(", "));
    }

    /** Waits for what is pending (a failure is the caller's to report, as from {@link #acknowledge()}). */
    @Override
    public void close() {
        acknowledge();
    }
}
