package dev.riffle.sql.jdbc;

import dev.riffle.sql.exec.ExactParameters;
import java.sql.BatchUpdateException;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.AvaticaConnection;
import org.apache.calcite.avatica.AvaticaSite;
import org.apache.calcite.avatica.Meta;
import org.apache.calcite.avatica.remote.TypedValue;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.jdbc.RiffleStatementBase;

/**
 * The {@code jdbc:riffle} prepared statement: Calcite's, except that a timestamp parameter keeps
 * its nanoseconds. Avatica binds {@code setTimestamp} and {@code setObject(LocalDateTime)} as
 * milliseconds; this statement also keeps the {@link Timestamp} among the statement's internal
 * parameters ({@link ExactParameters}), where Riffle's executors find it when they bind the value
 * for Fluss (a key, a filter constant, a written row).
 *
 * <pre>{@code
 * PreparedStatement insert = connection.prepareStatement("INSERT INTO shop.events VALUES (?, ?)");
 * insert.setInt(1, 1);
 * insert.setTimestamp(2, Timestamp.valueOf("2024-06-01 12:00:00.123456"));   // written with its micros
 * insert.executeUpdate();
 * }</pre>
 */
final class RifflePreparedStatement extends RiffleStatementBase {
    /** The statement's internal parameters, which every execution's context holds. */
    private final Map<String, Object> internal;
    /** The timestamps kept, by parameter index (from 0), for the parameters as bound now. */
    private final Map<Integer, Timestamp> kept = new HashMap<>();
    /** The timestamps kept for each row added to the batch, in the batch's order. */
    private final List<Map<Integer, Timestamp>> keptBatch = new ArrayList<>();

    RifflePreparedStatement(AvaticaConnection connection, Meta.StatementHandle handle, Meta.Signature signature,
            int resultSetType, int resultSetConcurrency, int resultSetHoldability) throws SQLException {
        super(connection, handle, signature, resultSetType, resultSetConcurrency, resultSetHoldability);
        this.internal = ((CalcitePrepare.CalciteSignature<?>) signature).internalParameters;
    }

    /**
     * Every setter binds through here: binding a parameter forgets the timestamp kept for it (the
     * timestamp setters keep theirs again after), so a stale one is never taken.
     */
    @Override
    protected AvaticaSite getSite(int parameterIndex) throws SQLException {
        AvaticaSite site = super.getSite(parameterIndex);
        keep(parameterIndex, null);
        return site;
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x) throws SQLException {
        super.setTimestamp(parameterIndex, x);
        keep(parameterIndex, x);
    }

    @Override
    public void setTimestamp(int parameterIndex, Timestamp x, java.util.Calendar calendar) throws SQLException {
        super.setTimestamp(parameterIndex, x, calendar);
        keep(parameterIndex, x);
    }

    @Override
    public void setObject(int parameterIndex, Object x) throws SQLException {
        if (x instanceof LocalDateTime dateTime) {
            // the same wall clock as a Timestamp of the JVM's zone, which Avatica knows how to bind
            setTimestamp(parameterIndex, Timestamp.valueOf(dateTime));
            return;
        }
        super.setObject(parameterIndex, x);
        if (x instanceof Timestamp timestamp) {
            keep(parameterIndex, timestamp);
        }
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType) throws SQLException {
        Object value = x instanceof LocalDateTime dateTime ? Timestamp.valueOf(dateTime) : x;
        super.setObject(parameterIndex, value, targetSqlType);
        if (value instanceof Timestamp timestamp) {
            keep(parameterIndex, timestamp);
        }
    }

    @Override
    public void setObject(int parameterIndex, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        Object value = x instanceof LocalDateTime dateTime ? Timestamp.valueOf(dateTime) : x;
        super.setObject(parameterIndex, value, targetSqlType, scaleOrLength);
        if (value instanceof Timestamp timestamp) {
            keep(parameterIndex, timestamp);
        }
    }

    @Override
    public void clearParameters() throws SQLException {
        super.clearParameters();
        for (int index : List.copyOf(kept.keySet())) {
            keep(index + 1, null);
        }
    }

    @Override
    public void addBatch() throws SQLException {
        super.addBatch();
        keptBatch.add(Map.copyOf(kept));
    }

    @Override
    public void clearBatch() throws SQLException {
        super.clearBatch();
        keptBatch.clear();
    }

    /**
     * Calcite runs a batch one row at a time with the same internal parameters; a batch with kept
     * timestamps does the same here, each row with its own.
     */
    @Override
    public long[] executeLargeBatch() throws SQLException {
        if (keptBatch.stream().allMatch(Map::isEmpty)) {
            keptBatch.clear();
            return super.executeLargeBatch();
        }
        List<List<TypedValue>> rows = List.copyOf(getParameterValueBatch());
        List<Map<Integer, Timestamp>> keptRows = List.copyOf(keptBatch);
        clearBatch();
        Map<Integer, Timestamp> current = Map.copyOf(kept);
        TypedValue[] bound = slots.clone();
        long[] counts = new long[rows.size()];
        try {
            for (int row = 0; row < rows.size(); row++) {
                rows.get(row).toArray(slots);
                restore(keptRows.get(row));
                try {
                    counts[row] = executeLargeUpdate();
                } catch (SQLException e) {
                    throw new BatchUpdateException("Row " + row + " of the batch failed: " + e.getMessage(),
                            e.getSQLState(), e.getErrorCode(), Arrays.copyOf(counts, row), e);
                }
            }
        } finally {
            System.arraycopy(bound, 0, slots, 0, slots.length);
            restore(current);
        }
        return counts;
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        int[] ints = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            ints[i] = (int) Math.min(Integer.MAX_VALUE, counts[i]);
        }
        return ints;
    }

    private void restore(Map<Integer, Timestamp> values) {
        for (int index : List.copyOf(kept.keySet())) {
            keep(index + 1, null);
        }
        values.forEach((index, timestamp) -> keep(index + 1, timestamp));
    }

    /** Keeps (or, for null, forgets) the timestamp bound to a parameter (JDBC's index, from 1). */
    private void keep(int parameterIndex, Timestamp timestamp) {
        int index = parameterIndex - 1;
        if (timestamp == null) {
            kept.remove(index);
            internal.remove(ExactParameters.key(index));
        } else {
            kept.put(index, timestamp);
            internal.put(ExactParameters.key(index), timestamp);
        }
    }
}
