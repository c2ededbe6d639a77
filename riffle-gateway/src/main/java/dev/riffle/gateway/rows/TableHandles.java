package dev.riffle.gateway.rows;

import dev.riffle.gateway.http.Backend;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.lookup.Lookup;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Open Fluss table handles for lookups, kept per connection and table id. Opening a handle asks
 * the cluster for the table's metadata under the Fluss client's one metadata lock, so opening one
 * per request serialises every lookup of the gateway behind a metadata round trip. A handle is
 * keyed by the table's id, so a table dropped and created again gets a new one (the request's
 * fresh {@link TableInfo} says which id is current); the old one is closed then.
 *
 * <p>Lookupers are kept per thread: a Fluss {@link Lookuper} reuses its key encoder, so it must
 * not be shared between threads, and making one per request cost more than the rest of a point
 * lookup's client-side work. A lookup encodes its key on the calling thread before
 * {@code lookup} returns, so a thread's lookuper is never in use by two requests at once, even
 * while their answers are still pending.
 */
final class TableHandles {
    /** Lookupers one thread keeps (least recently used dropped first): a handful of tables are hot. */
    private static final int LOOKUPERS_PER_THREAD = 32;

    private record Key(FlussConnection connection, TablePath path, long tableId) {}

    private record LookuperKey(Key table, List<String> lookupColumns) {}

    private record Known(TableInfo info, long atNanos) {}

    /** How long a table's metadata is trusted before it is asked for again. */
    static final long METADATA_TTL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

    private final Map<Key, Table> open = new ConcurrentHashMap<>();
    private final Map<Map.Entry<FlussConnection, TablePath>, Known> infos = new ConcurrentHashMap<>();
    private final ThreadLocal<Map<LookuperKey, Lookuper>> lookupers = ThreadLocal.withInitial(
            () -> new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<LookuperKey, Lookuper> eldest) {
                    return size() > LOOKUPERS_PER_THREAD;
                }
            });

    /**
     * The request's table's metadata, asked of the cluster at most once a second per connection
     * (a round trip to the coordinator per lookup would cost more than the lookup). A table dropped
     * or created again is noticed within that second; a lookup on a dropped table fails meanwhile.
     */
    TableInfo info(Backend backend, io.javalin.http.Context ctx) {
        return info(backend, Backend.tablePath(ctx));
    }

    /** {@link #info(Backend, io.javalin.http.Context)} of a table named otherwise than by the request's path. */
    TableInfo info(Backend backend, TablePath path) {
        FlussConnection connection = backend.connection();
        Map.Entry<FlussConnection, TablePath> key = Map.entry(connection, path);
        Known known = infos.get(key);
        long now = System.nanoTime();
        if (known != null && now - known.atNanos() < METADATA_TTL_NANOS) {
            return known.info();
        }
        TableInfo info = backend.tableInfo(key.getValue());
        infos.put(key, new Known(info, now));
        return info;
    }

    /** The handle of {@code info}'s table on the request's connection; not to be closed by the caller. */
    Table get(Backend backend, TableInfo info) {
        FlussConnection connection = backend.connection();
        Key key = new Key(connection, info.getTablePath(), info.getTableId());
        Table table = open.get(key);
        if (table != null) {
            return table;
        }
        Table opened = open.computeIfAbsent(key, k -> backend.table(k.path()));
        open.entrySet().removeIf(entry -> {
            Key other = entry.getKey();
            boolean stale = other.connection() == connection && other.path().equals(key.path())
                    && other.tableId() != key.tableId();
            if (stale) {
                closeQuietly(entry.getValue());
            }
            return stale;
        });
        return opened;
    }

    /**
     * This thread's lookuper of {@code info}'s table on the request's connection: by primary key
     * ({@code lookupColumns} empty) or by that prefix of it. Use it on this thread only.
     */
    Lookuper lookuper(Backend backend, TableInfo info, List<String> lookupColumns) {
        FlussConnection connection = backend.connection();
        LookuperKey key = new LookuperKey(new Key(connection, info.getTablePath(), info.getTableId()),
                List.copyOf(lookupColumns));
        Map<LookuperKey, Lookuper> mine = lookupers.get();
        Lookuper lookuper = mine.get(key);
        if (lookuper == null) {
            Lookup lookup = get(backend, info).newLookup();
            lookuper = (lookupColumns.isEmpty() ? lookup : lookup.lookupBy(lookupColumns)).createLookuper();
            mine.put(key, lookuper);
        }
        return lookuper;
    }

    private static void closeQuietly(Table table) {
        try {
            table.close();
        } catch (Exception ignored) {
            // a stale handle; closing it is best effort
        }
    }
}
