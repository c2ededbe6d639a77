package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.core.TableModify;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.TableWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;

/**
 * Runs one {@code INSERT}, {@code UPDATE} or {@code DELETE}: the generated code hands it the rows
 * ({@code Object[]} each, Calcite's values) and gets back the count once Fluss acknowledged every
 * write.
 *
 * <p>Rows are converted and checked (types, {@code NOT NULL}) in chunks of {@value #CHUNK} before
 * any of the chunk is sent, so a statement of up to that many rows writes nothing when one row is
 * bad. A larger {@code INSERT ... SELECT} that fails part-way says how many rows Fluss already took.
 */
public final class TableWriteExecutor {
    static final int CHUNK = 10_000;
    private static final long ACK_TIMEOUT_SECONDS = 120;

    private final FlussSession session;
    private final TableInfo table;
    private final TableModify.Operation operation;
    private final int[] updated;

    public TableWriteExecutor(FlussSession session, TableInfo table, TableModify.Operation operation,
            List<String> updateColumns) {
        this.session = requireNonNull(session, "session is null");
        this.table = requireNonNull(table, "table is null");
        this.operation = requireNonNull(operation, "operation is null");
        RowType rowType = table.getRowType();
        this.updated = updateColumns.stream().mapToInt(rowType::getFieldIndex).toArray();
    }

    /** Writes every row; returns how many (one row: the count). */
    public Enumerable<Long> write(Enumerable<Object[]> rows, DataContext context) {
        Table handle = session.table(table);
        TableWriter writer = table.hasPrimaryKey() ? handle.newUpsert().createWriter()
                : handle.newAppend().createWriter();
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        List<GenericRow> chunk = new ArrayList<>();
        long converted = 0;
        long sent = 0;
        try (Enumerator<Object[]> input = rows.enumerator()) {
            while (input.moveNext()) {
                try {
                    chunk.add(toFluss(input.current()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(describeFailure(converted, sent, e.getMessage()), e);
                }
                converted++;
                if (chunk.size() == CHUNK) {
                    acks.add(send(writer, chunk));
                    sent += chunk.size();
                    chunk = new ArrayList<>();
                }
            }
        }
        if (!chunk.isEmpty()) {
            acks.add(send(writer, chunk));
            sent += chunk.size();
        }
        writer.flush();
        for (CompletableFuture<Void> ack : acks) {
            await(ack);
        }
        return Linq4j.singletonEnumerable(sent);
    }

    private String describeFailure(long row, long sent, String message) {
        String verb = switch (operation) {
            case DELETE -> "deleting from";
            case UPDATE -> "updating";
            default -> "writing to";
        };
        return "Row " + row + " (counting from 0) cannot be written to " + table.getTablePath() + ": " + message
                + (sent == 0 ? "; nothing was written" : "; " + sent + " rows were already sent to Fluss while "
                        + verb + " it");
    }

    private CompletableFuture<Void> send(TableWriter writer, List<GenericRow> rows) {
        CompletableFuture<?>[] futures = new CompletableFuture<?>[rows.size()];
        for (int i = 0; i < futures.length; i++) {
            GenericRow row = rows.get(i);
            futures[i] = switch (operation) {
                case DELETE -> ((UpsertWriter) writer).delete(row);
                case INSERT, UPDATE -> writer instanceof UpsertWriter upsert ? upsert.upsert(row)
                        : ((AppendWriter) writer).append(row);
                default -> throw new IllegalStateException("Unexpected operation " + operation);
            };
        }
        return CompletableFuture.allOf(futures);
    }

    private void await(CompletableFuture<Void> ack) {
        try {
            ack.get(ACK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalStateException("Fluss rejected a write to " + table.getTablePath() + ": "
                    + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Fluss did not acknowledge the writes to " + table.getTablePath()
                    + " within " + ACK_TIMEOUT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while writing to " + table.getTablePath(), e);
        }
    }

    /**
     * The Fluss row for one input row. {@code INSERT} rows are the table's columns; {@code UPDATE}
     * rows are the old columns followed by the new values of the updated ones; {@code DELETE} rows
     * are the old columns, of which Fluss needs only the key.
     */
    private GenericRow toFluss(Object[] values) {
        RowType rowType = table.getRowType();
        int columns = rowType.getFieldCount();
        Object[] row = java.util.Arrays.copyOf(values, columns);
        for (int i = 0; i < updated.length; i++) {
            row[updated[i]] = values[columns + i];
        }
        GenericRow out = new GenericRow(columns);
        List<String> keys = table.getPrimaryKeys();
        for (int i = 0; i < columns; i++) {
            String name = rowType.getFieldNames().get(i);
            if (operation == TableModify.Operation.DELETE && !keys.contains(name)) {
                continue;
            }
            DataType type = rowType.getTypeAt(i);
            Object value = FlussValues.toFluss(row[i], type, name);
            if (value == null && !type.isNullable()) {
                throw new IllegalArgumentException("column " + name + " is NOT NULL but the value is NULL");
            }
            out.setField(i, value);
        }
        return out;
    }
}
