package dev.riffle.core.kv;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.lookup.Lookup;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Idle Fluss lookupers per table, schema and lookup columns. A {@link Lookuper} reuses its key
 * encoder, so one must never serve two threads at once (a race encodes a key wrongly: another
 * key's row, or Fluss's "Assigned key must not be empty!"), and making one per lookup costs more
 * than the rest of a point lookup's client-side work. A lookup takes an idle one, sends its keys
 * (encoded before {@code lookup} returns) and gives it back at once, while the answers are still
 * on their way. Each lookup holds a place in the connection's {@link LookupsInFlight} until answered.
 * Thread-safe.
 *
 * <pre>{@code
 * CompletableFuture<List<List<InternalRow>>> rows = new KeyLookup(pool, table, List.of()).send(List.of(key));
 * }</pre>
 */
public final class LookuperPool {
    private record Key(TablePath path, long tableId, int schemaId, List<String> lookupColumns) {}

    private final Map<Key, Queue<Lookuper>> idle = new ConcurrentHashMap<>();
    private final LookupsInFlight inFlight;

    /** @param connection the connection every table given to {@link #with} is opened on, whose lookups in flight are counted */
    public LookuperPool(Connection connection) {
        this.inFlight = LookupsInFlight.of(connection);
    }

    /**
     * Runs {@code use} with a lookuper of {@code table}, by primary key ({@code lookupColumns} empty)
     * or by that prefix of it, that no other thread uses meanwhile. {@code use} must only send
     * lookups, not wait for their answers. Callers outside this package send through {@link KeyLookup}.
     */
    <T> T with(Table table, List<String> lookupColumns, Function<Lookuper, T> use) {
        requireNonNull(table, "table is null");
        requireNonNull(use, "use is null");
        TableInfo info = table.getTableInfo();
        Key key = new Key(info.getTablePath(), info.getTableId(), info.getSchemaId(), List.copyOf(lookupColumns));
        Queue<Lookuper> queue = idle.computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>());
        Lookuper lookuper = queue.poll();
        if (lookuper == null) {
            Lookup lookup = table.newLookup();
            lookuper = inFlight.counting(
                    (lookupColumns.isEmpty() ? lookup : lookup.lookupBy(lookupColumns)).createLookuper());
        }
        try {
            return use.apply(lookuper);
        } finally {
            queue.offer(lookuper);
        }
    }

    /** The room of the connection's lookups, which every lookup of this pool holds a place in until answered. */
    public LookupsInFlight lookupsInFlight() {
        return inFlight;
    }

    /** Drops the lookupers of {@code path} other than those of {@code current} (the table as it is now). */
    public void retainOnly(TablePath path, TableInfo current) {
        idle.keySet().removeIf(key -> key.path().equals(path)
                && (key.tableId() != current.getTableId() || key.schemaId() != current.getSchemaId()));
    }

    /** Drops every lookuper of {@code path}. */
    public void forget(TablePath path) {
        idle.keySet().removeIf(key -> key.path().equals(path));
    }

    public void clear() {
        idle.clear();
    }
}
