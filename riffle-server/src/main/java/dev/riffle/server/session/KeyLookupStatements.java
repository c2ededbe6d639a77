package dev.riffle.server.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.server.sql.SqlStatements;
import dev.riffle.sql.statement.DirectRead;
import java.math.BigDecimal;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The statements of one SQL pool that are key lookups ({@link DirectRead#isKeyLookup}), by SQL
 * text, remembered when they first run on one of the pool's connections: when the same text comes
 * again, {@link SqlStatements#lookUp} answers it from here, without a connection, a prepared
 * statement or a thread waiting for the keys. A statement whose table was since dropped, created
 * again or altered is forgotten (and planned anew on a connection). Thread-safe.
 *
 * <p>Only parameters that bind here exactly as on a connection are taken ({@link Known#binds}):
 * the values JSON gives for the key column types that take them as they are; anything else (a
 * NULL, a date as text, a number for a text column) runs on a connection, which answers as ever.
 *
 * <pre>{@code
 * statements.remember(sql, direct, statement);
 * Optional<KeyLookupStatements.Known> known = statements.get(sql);
 * }</pre>
 */
public final class KeyLookupStatements {
    /** Statements kept at most; all are forgotten when one more comes. */
    static final int SIZE = 256;

    /**
     * A statement's read and the JDBC types of its parameters.
     *
     * @param parameterTypes {@link java.sql.Types} of each {@code ?}, in order
     */
    public record Known(DirectRead read, List<Integer> parameterTypes) {
        public Known {
            requireNonNull(read, "read is null");
            parameterTypes = List.copyOf(parameterTypes);
        }

        /** Whether {@code parameters} bind to this statement here as they would on a connection. */
        public boolean binds(List<Object> parameters) {
            return bindAsTheyAre(parameterTypes, parameters);
        }
    }

    /**
     * Whether each of {@code parameters} is a value a connection would take as it is for a
     * parameter of its JDBC type, and there is one per parameter.
     */
    static boolean bindAsTheyAre(List<Integer> types, List<Object> parameters) {
        if (parameters.size() != types.size()) {
            return false; // a connection says which one is missing or extra
        }
        for (int i = 0; i < parameters.size(); i++) {
            if (!takenAsIs(types.get(i), parameters.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean takenAsIs(int type, Object value) {
        return switch (type) {
            case Types.TINYINT, Types.SMALLINT, Types.INTEGER, Types.BIGINT ->
                    value instanceof Integer || value instanceof Long;
            case Types.DECIMAL, Types.NUMERIC ->
                    value instanceof Integer || value instanceof Long || value instanceof BigDecimal;
            case Types.CHAR, Types.VARCHAR -> value instanceof String;
            case Types.BOOLEAN -> value instanceof Boolean;
            default -> false;
        };
    }

    /*
     * Read by every repeated point query of the server at once, so without a lock: a concurrent
     * map, emptied when full rather than kept in use order (a server's point queries are a handful
     * of statements; one that is dropped is remembered again on its next run).
     */
    private final Map<String, Known> known = new ConcurrentHashMap<>();

    /** Remembers {@code sql} when its prepared statement's read is a key lookup (and not known yet). */
    public void remember(String sql, DirectRead read, PreparedStatement statement) throws SQLException {
        requireNonNull(sql, "sql is null");
        if (!read.isKeyLookup() || known.containsKey(sql)) {
            return;
        }
        ParameterMetaData parameters = statement.getParameterMetaData();
        List<Integer> types = new ArrayList<>(parameters.getParameterCount());
        for (int i = 1; i <= parameters.getParameterCount(); i++) {
            types.add(parameters.getParameterType(i));
        }
        if (known.size() >= SIZE) {
            known.clear();
        }
        known.put(sql, new Known(read, types));
    }

    /** The key lookup {@code sql} is, unless unknown or planned for a table that changed since. */
    public Optional<Known> get(String sql) {
        Known statement = known.get(sql);
        if (statement == null) {
            return Optional.empty();
        }
        if (statement.read().stale()) {
            known.remove(sql, statement);
            return Optional.empty();
        }
        return Optional.of(statement);
    }

    /**
     * As {@link #get}, for a caller that must not wait: empty also when telling whether the
     * statement's table changed would mean asking the cluster ({@link DirectRead#answersWithoutAsking}).
     */
    public Optional<Known> getWithoutAsking(String sql) {
        Known statement = known.get(sql);
        return statement != null && statement.read().answersWithoutAsking() ? Optional.of(statement) : Optional.empty();
    }

    /** Whether no statement is known (so a caller need not read a request to look for one). */
    public boolean isEmpty() {
        return known.isEmpty();
    }

    /** Forgets every statement (after a table was created, dropped or altered through this process). */
    void clear() {
        known.clear();
    }
}
