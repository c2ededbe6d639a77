package dev.riffle.sql.engine;

import static java.util.Objects.requireNonNull;

import dev.riffle.core.reader.RowsReader;
import dev.riffle.core.reader.TableReader;
import dev.riffle.sql.exec.FlussValues;
import dev.riffle.sql.types.SqlTypes;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Struct;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.TimeZone;
import java.util.stream.IntStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;

/**
 * The rows a statement computed (anything but a {@link DirectRead}), as Fluss rows of the Fluss
 * types of its SQL result types ({@link SqlTypes#flussType}), which {@link #of} hands to a
 * {@link RowsReader} for Arrow batches: a statement's result renders through the same value layer
 * as every read. Values pass through Calcite's row engine, which
 * keeps times and timestamps at millisecond precision.
 *
 * <pre>{@code
 * try (TableReader rows = ResultSetReader.of(statement, statement.executeQuery(), allocator)) { ... }
 * }</pre>
 */
public final class ResultSetReader implements CloseableIterator<InternalRow> {
    private final ResultSet rows;
    private final RowType rowType;
    private final Calendar utc = Calendar.getInstance(TimeZone.getTimeZone("UTC"));
    private GenericRow next;
    private boolean exhausted;
    private long rowsRead;

    private ResultSetReader(ResultSet rows, RowType rowType) {
        this.rows = rows;
        this.rowType = rowType;
    }

    /**
     * The rows of {@code rows}, the result of {@code statement} (prepared by the {@code jdbc:riffle}
     * driver, whose statements know their SQL result type), batched into Arrow by {@link RowsReader}.
     * The reader closes the result set.
     */
    public static TableReader of(PreparedStatement statement, ResultSet rows, BufferAllocator allocator)
            throws SQLException {
        requireNonNull(statement, "statement is null");
        requireNonNull(rows, "rows is null");
        requireNonNull(allocator, "allocator is null");
        RowType rowType = StatementShape.rowType(StatementShape.resultType(statement));
        int[] all = IntStream.range(0, rowType.getFieldCount()).toArray();
        return new RowsReader(new ResultSetReader(rows, rowType), rowType, all, allocator);
    }

    @Override
    public boolean hasNext() {
        if (next != null || exhausted) {
            return next != null;
        }
        try {
            if (rows.next()) {
                next = row();
                rowsRead++;
            } else {
                exhausted = true;
            }
        } catch (SQLException e) {
            throw new IllegalStateException("The statement failed after " + rowsRead + " rows: " + e.getMessage(), e);
        }
        return next != null;
    }

    @Override
    public InternalRow next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The statement's rows have ended");
        }
        GenericRow row = next;
        next = null;
        return row;
    }

    private GenericRow row() throws SQLException {
        GenericRow row = new GenericRow(rowType.getFieldCount());
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            DataType type = rowType.getTypeAt(i);
            Object value = value(i + 1, type);
            row.setField(i, value == null ? null : FlussValues.toFluss(value, type, rowType.getFieldNames().get(i)));
        }
        return row;
    }

    /** A column's value as Calcite holds it (days, milliseconds, lists, maps, arrays of fields). */
    private Object value(int column, DataType type) throws SQLException {
        switch (type.getTypeRoot()) {
            case DATE: {
                java.sql.Date date = rows.getDate(column, utc);
                return date == null ? null : (int) Math.floorDiv(date.getTime(), 86_400_000L);
            }
            case TIME_WITHOUT_TIME_ZONE: {
                java.sql.Time time = rows.getTime(column, utc);
                return time == null ? null : (int) Math.floorMod(time.getTime(), 86_400_000L);
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                java.sql.Timestamp timestamp = rows.getTimestamp(column, utc);
                return timestamp == null ? null : timestamp.getTime();
            }
            default:
                return plain(rows.getObject(column));
        }
    }

    private static Object plain(Object value) throws SQLException {
        if (value instanceof Array array) {
            // an array of primitives (ARRAY[1, 2] is an int[]) or of objects
            Object elements = array.getArray();
            int length = java.lang.reflect.Array.getLength(elements);
            List<Object> list = new ArrayList<>(length);
            for (int i = 0; i < length; i++) {
                list.add(plain(java.lang.reflect.Array.get(elements, i)));
            }
            return list;
        }
        if (value instanceof Struct struct) {
            Object[] fields = struct.getAttributes();
            for (int i = 0; i < fields.length; i++) {
                fields[i] = plain(fields[i]);
            }
            return fields;
        }
        if (value instanceof Object[] fields) {
            return Arrays.asList(fields);
        }
        return value;
    }

    @Override
    public void close() {
        try {
            rows.close();
        } catch (SQLException e) {
            throw new IllegalStateException("Closing a statement's rows failed: " + e.getMessage(), e);
        }
    }
}
