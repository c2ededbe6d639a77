package dev.riffle.flight.statement;

import static java.util.Objects.requireNonNull;

import dev.riffle.sql.engine.StatementShape;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;

/**
 * The prepared statements a Flight SQL server holds for its clients, by opaque handle: the
 * statement, what it answers and takes ({@link StatementShape}), who prepared it, and the last
 * parameter rows bound to it. At most {@code capacity} are held; past that, or after
 * {@code idle} without use, the least recently used is dropped (a client then prepares again).
 *
 * <pre>{@code
 * PreparedStatements prepared = new PreparedStatements(10_000, Duration.ofHours(1));
 * byte[] handle = prepared.add("alice", sql, shape);
 * prepared.get(handle, "alice").orElseThrow();
 * }</pre>
 */
public final class PreparedStatements {
    private final int capacity;
    private final long idleNanos;
    private final SecureRandom random = new SecureRandom();
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);

    /** One prepared statement; {@code parameterRows} is what the last bind sent (none yet: empty). */
    public record Prepared(String principal, String sql, StatementShape shape, List<List<Object>> parameterRows) {
        public Prepared {
            requireNonNull(principal, "principal is null");
            requireNonNull(sql, "sql is null");
            requireNonNull(shape, "shape is null");
            parameterRows = Collections.unmodifiableList(new ArrayList<>(parameterRows));
        }

        public Prepared withParameterRows(List<List<Object>> rows) {
            return new Prepared(principal, sql, shape, rows);
        }
    }

    private record Entry(Prepared prepared, long usedNanos) {}

    public PreparedStatements(int capacity, Duration idle) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, got " + capacity);
        }
        this.capacity = capacity;
        this.idleNanos = requireNonNull(idle, "idle is null").toNanos();
    }

    /** Holds a new statement; returns its handle. */
    public synchronized byte[] add(String principal, String sql, StatementShape shape) {
        byte[] handle = new byte[16];
        random.nextBytes(handle);
        expire();
        while (entries.size() >= capacity) {
            entries.remove(entries.keySet().iterator().next());
        }
        entries.put(key(handle), new Entry(new Prepared(principal, sql, shape, List.of()), System.nanoTime()));
        return handle;
    }

    /** The statement of {@code handle}, if it is held and was prepared by {@code principal}. */
    public synchronized Optional<Prepared> get(byte[] handle, String principal) {
        expire();
        Entry entry = entries.get(key(handle));
        if (entry == null || !entry.prepared().principal().equals(principal)) {
            return Optional.empty();
        }
        entries.put(key(handle), new Entry(entry.prepared(), System.nanoTime()));
        return Optional.of(entry.prepared());
    }

    /** Replaces what is bound to {@code handle}; false if it is not held for {@code principal}. */
    public synchronized boolean bind(byte[] handle, String principal, List<List<Object>> rows) {
        Entry entry = entries.get(key(handle));
        if (entry == null || !entry.prepared().principal().equals(principal)) {
            return false;
        }
        entries.put(key(handle), new Entry(entry.prepared().withParameterRows(rows), System.nanoTime()));
        return true;
    }

    public synchronized void remove(byte[] handle, String principal) {
        Entry entry = entries.get(key(handle));
        if (entry != null && entry.prepared().principal().equals(principal)) {
            entries.remove(key(handle));
        }
    }

    public synchronized int size() {
        return entries.size();
    }

    private void expire() {
        long now = System.nanoTime();
        entries.values().removeIf(entry -> now - entry.usedNanos() > idleNanos);
    }

    private static String key(byte[] handle) {
        return Base64.getEncoder().encodeToString(handle);
    }
}
