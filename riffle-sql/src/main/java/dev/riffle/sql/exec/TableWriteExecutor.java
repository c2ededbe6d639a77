package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.exception.InvalidStatementException;
import dev.riffle.core.exception.InvalidValueException;
import dev.riffle.core.reader.TableReader;
import dev.riffle.core.write.TableWrite;
import dev.riffle.sql.plan.ExactColumns;
import dev.riffle.sql.plan.ReadPlan;
import dev.riffle.sql.statement.ExecutionGuard;
import dev.riffle.sql.statement.StatementStoppedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.core.TableModify;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.LocalZonedTimestampType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.types.TimestampType;

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
    private final ExactColumns exact;
    private final Optional<PlannedDirectRead> source;
    /** Key columns whose values Calcite's rows hold cut to milliseconds ({@link #finerThanMilliseconds}). */
    private final List<Integer> finerKeys;
    /** The columns an UPDATE writes, when it must not write the others back. */
    private final Optional<List<String>> partialUpdate;

    /**
     * @param exact the input rows' values the plan knows to the digit (timestamp literals and
     *     parameters), taken instead of Calcite's milliseconds
     * @param source for an {@code INSERT ... SELECT} whose input is one read of a table (its columns
     *     as they are), that read: its rows are taken from its Arrow batches at full precision
     *     instead of through Calcite's rows
     */
    public TableWriteExecutor(FlussSession session, TableInfo table, TableModify.Operation operation,
            List<String> updateColumns, ExactColumns exact, Optional<PlannedDirectRead> source) {
        this.source = requireNonNull(source, "source is null");
        this.session = requireNonNull(session, "session is null");
        this.table = requireNonNull(table, "table is null");
        this.operation = requireNonNull(operation, "operation is null");
        this.exact = requireNonNull(exact, "exact is null");
        RowType rowType = table.getRowType();
        this.updated = updateColumns.stream().mapToInt(rowType::getFieldIndex).toArray();
        List<String> keys = table.getPrimaryKeys();
        List<Integer> finer = new ArrayList<>();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            if (finerThanMilliseconds(rowType.getTypeAt(i))) {
                finer.add(i);
            }
        }
        this.finerKeys = finer.stream().filter(i -> keys.contains(rowType.getFieldNames().get(i))).toList();
        // An UPDATE writes back the columns it does not set as Calcite read them, in milliseconds; a
        // partial update (the key and the set columns) leaves them as they are in Fluss instead.
        List<Integer> set = Arrays.stream(updated).boxed().toList();
        boolean rewritesFiner = finer.stream()
                .anyMatch(i -> !keys.contains(rowType.getFieldNames().get(i)) && !set.contains(i));
        if (operation == TableModify.Operation.UPDATE && rewritesFiner) {
            List<String> target = new ArrayList<>(keys);
            updateColumns.stream().filter(c -> !target.contains(c)).forEach(target::add);
            this.partialUpdate = Optional.of(target);
        } else {
            this.partialUpdate = Optional.empty();
        }
    }

    /** A TIMESTAMP or TIMESTAMP_LTZ with digits below a millisecond, which Calcite's rows do not hold. */
    private static boolean finerThanMilliseconds(DataType type) {
        return type instanceof TimestampType ntz && ntz.getPrecision() > 3
                || type instanceof LocalZonedTimestampType ltz && ltz.getPrecision() > 3;
    }

    /** Writes every row; returns how many (one row: the count). */
    public Enumerable<Long> write(Enumerable<Object[]> rows, DataContext context) {
        if (operation != TableModify.Operation.INSERT && operation != TableModify.Operation.UPDATE
                && operation != TableModify.Operation.DELETE) {
            throw new IllegalStateException("Unexpected operation " + operation);
        }
        TableWrite.Builder builder = session.write(table).columns(partialUpdate);
        TableWrite write = (operation == TableModify.Operation.DELETE ? builder.delete() : builder).open();
        List<GenericRow> chunk = new ArrayList<>();
        long converted = 0;
        long sent = 0;
        ExecutionGuard guard = ExecutionGuard.of(context);
        try (Enumerator<Object[]> input = input(rows, context)) {
            while (true) {
                try {
                    if (converted % CHUNK == 0) {
                        guard.check(); // the rows of a source read come without a guarded edge
                    }
                    if (!input.moveNext()) {
                        break;
                    }
                } catch (StatementStoppedException e) {
                    throw new StatementStoppedException(e.reason(), e.getMessage() + (sent == 0 ? "; nothing was "
                            + "written" : "; " + sent + " rows were already sent to Fluss, and may be written"));
                }
                try {
                    chunk.add(toFluss(withExact(input.current(), converted, context)));
                } catch (InvalidValueException e) {
                    throw new InvalidValueException(describeFailure(converted, sent, e.getMessage()), e);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(describeFailure(converted, sent, e.getMessage()), e);
                }
                converted++;
                if (chunk.size() == CHUNK) {
                    write.rows(chunk);
                    sent += chunk.size();
                    chunk = new ArrayList<>();
                }
            }
        }
        if (!chunk.isEmpty()) {
            write.rows(chunk);
            sent += chunk.size();
        }
        // The statement waits for its rows: send what the writer holds now, not after its batch timeout.
        write.flush();
        write.acknowledgements().await(Duration.ofSeconds(ACK_TIMEOUT_SECONDS), "rows written to "
                + table.getTablePath());
        return Linq4j.singletonEnumerable(sent);
    }

    /** The rows to write: the source read's, when there is one (Calcite's enumerable is then never enumerated). */
    @SuppressWarnings("unchecked")
    private Enumerator<Object[]> input(Enumerable<Object[]> rows, DataContext context) {
        if (source.isEmpty()) {
            return rows.enumerator();
        }
        TableReader read = source.get().open(context, session.riffle().allocator());
        Enumerator<?> exactRows = new RowEnumerator(RowBatches.read(read, source.get().columnNames().size(), true),
                false, Long.MAX_VALUE);
        return (Enumerator<Object[]>) exactRows;
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

    /**
     * Input row {@code index} with the plan's exact values in place of Calcite's. An UPDATE or
     * DELETE finds its rows through Calcite, which holds their keys in milliseconds: a key with a
     * finer timestamp column must be one the plan names (a point lookup), or the write could reach
     * another row.
     */
    private Object[] withExact(Object[] values, long index, DataContext context) {
        Map<Integer, ReadPlan.KeyValue> known = exact.row(index);
        if (operation != TableModify.Operation.INSERT) {
            for (int key : finerKeys) {
                if (!known.containsKey(key)) {
                    String name = table.getRowType().getFieldNames().get(key);
                    throw new InvalidStatementException(operation + " needs the exact key of " + table.getTablePath()
                            + ": its column " + name + " is " + table.getRowType().getTypeAt(key)
                            + ", which SQL reads in milliseconds; name the whole primary key in WHERE (" + name
                            + " = TIMESTAMP '...' or ?)");
                }
            }
        }
        if (known.isEmpty()) {
            return values;
        }
        Object[] row = values.clone();
        known.forEach((column, value) -> row[column] = Bindings.value(value, context));
        return row;
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
                throw new InvalidValueException("column " + name + " is NOT NULL but the value is NULL");
            }
            out.setField(i, value);
        }
        return out;
    }
}
