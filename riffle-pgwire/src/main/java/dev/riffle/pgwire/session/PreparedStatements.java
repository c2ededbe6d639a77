package dev.riffle.pgwire.session;

import static java.util.Objects.requireNonNull;

import dev.riffle.pgwire.error.PgException;
import java.util.HashMap;
import java.util.Map;

/**
 * A session's prepared statements by name ({@code ""} is the unnamed one, which a new Parse or a
 * simple query replaces).
 *
 * <pre>{@code
 * statements.add(prepared);
 * Prepared same = statements.get(prepared.name());
 * }</pre>
 */
final class PreparedStatements {
    private final Map<String, Prepared> byName = new HashMap<>();

    /**
     * Keeps {@code statement} under its name, replacing the unnamed one.
     *
     * @throws PgException 42P05 when a named statement of that name exists
     */
    void add(Prepared statement) {
        requireNonNull(statement, "statement is null");
        checkFree(statement.name());
        byName.put(statement.name(), statement);
    }

    /** @throws PgException 42P05 when {@code name} names a statement already (the unnamed one never does) */
    void checkFree(String name) {
        if (!name.isEmpty() && byName.containsKey(name)) {
            throw new PgException("42P05", "prepared statement \"" + name + "\" already exists");
        }
    }

    /** @throws PgException 26000 when there is none of that name */
    Prepared get(String name) {
        Prepared statement = byName.get(name);
        if (statement == null) {
            throw new PgException("26000", name.isEmpty() ? "unnamed prepared statement does not exist"
                    : "prepared statement \"" + name + "\" does not exist");
        }
        return statement;
    }

    /** Forgets a statement (nothing when there is none of that name, as PostgreSQL's Close). */
    void remove(String name) {
        byName.remove(name);
    }

    void clear() {
        byName.clear();
    }
}
