package dev.riffle.sql.exec;

import static java.util.Objects.requireNonNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.calcite.jdbc.CalcitePrepare.CalciteSignature;

/**
 * One connection's plans of queries by SQL text, so that a plain {@code Statement} that runs the
 * same query again (a dashboard's refresh, a repeated point query) is planned once, as a
 * {@code PreparedStatement} is. Only queries are kept (DDL runs while it is planned, DML is
 * rarely repeated word for word); a plan whose tables were dropped, created again or altered
 * since is not handed out ({@link PreparedTables#stale(Map, FlussSession)}). Thread-safe.
 *
 * <pre>{@code
 * Optional<CalciteSignature<?>> plan = cache.get(sql, List.of("shop"), -1, session);
 * }</pre>
 */
public final class PlanCache {
    /** Plans kept per connection, least recently used dropped first. */
    public static final int SIZE = 64;
    /**
     * Where a plan's signature says (an {@code AtomicBoolean}) that running it failed in a way
     * that forbids running it again: its generated class failed to initialise.
     */
    public static final String FAILED = "riffle.failedToRun";

    /** A plan depends on the text, the default schema its names resolve against, and the row limit. */
    private record Key(String sql, List<String> schemaPath, long maxRowCount) {}

    private final Map<Key, CalciteSignature<?>> plans = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, CalciteSignature<?>> eldest) {
            return size() > SIZE;
        }
    };

    /**
     * The plan kept for {@code sql} in this default schema with this row limit, unless its tables
     * changed since (then it is dropped).
     */
    public Optional<CalciteSignature<?>> get(String sql, List<String> schemaPath, long maxRowCount,
            FlussSession session) {
        requireNonNull(sql, "sql is null");
        requireNonNull(session, "session is null");
        Key key = new Key(sql, List.copyOf(schemaPath), maxRowCount);
        CalciteSignature<?> plan;
        synchronized (plans) {
            plan = plans.get(key);
        }
        if (plan == null) {
            return Optional.empty();
        }
        if (PreparedTables.stale(plan.internalParameters, session)
                || (plan.internalParameters.get(FAILED) instanceof AtomicBoolean failed && failed.get())) {
            synchronized (plans) {
                plans.remove(key, plan);
            }
            return Optional.empty();
        }
        return Optional.of(copy(plan));
    }

    /**
     * The plan with its own internal parameters: an execution writes its parameters there
     * ({@link ExactParameters}), so two statements of one text must not share the map; the
     * compiled code is shared.
     */
    private static <T> CalciteSignature<T> copy(CalciteSignature<T> plan) {
        return new CalciteSignature<>(plan.sql, plan.parameters, new LinkedHashMap<>(plan.internalParameters),
                plan.rowType, plan.columns, plan.cursorFactory, plan.rootSchema, plan.getCollationList(), -1,
                plan::enumerable, plan.statementType);
    }

    public void put(String sql, List<String> schemaPath, long maxRowCount, CalciteSignature<?> plan) {
        requireNonNull(sql, "sql is null");
        requireNonNull(plan, "plan is null");
        synchronized (plans) {
            plans.put(new Key(sql, List.copyOf(schemaPath), maxRowCount), plan);
        }
    }

    public int size() {
        synchronized (plans) {
            return plans.size();
        }
    }
}
