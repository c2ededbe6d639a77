package dev.riffle.gateway.rows;

import dev.riffle.gateway.http.Backend;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.fluss.client.FlussConnection;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;

/**
 * Open Fluss table handles for lookups, kept per connection and table id. Opening a handle asks
 * the cluster for the table's metadata under the Fluss client's one metadata lock, so opening one
 * per request serialises every lookup of the gateway behind a metadata round trip. A handle is
 * keyed by the table's id, so a table dropped and created again gets a new one (the request's
 * fresh {@link TableInfo} says which id is current); the old one is closed then.
 */
final class TableHandles {
    private record Key(FlussConnection connection, TablePath path, long tableId) {}

    private record Known(TableInfo info, long atNanos) {}

    /** How long a table's metadata is trusted before it is asked for again. */
    static final long METADATA_TTL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

    private final Map<Key, Table> open = new ConcurrentHashMap<>();
    private final Map<Map.Entry<FlussConnection, TablePath>, Known> infos = new ConcurrentHashMap<>();

    /**
     * The request's table's metadata, asked of the cluster at most once a second per connection
     * (a round trip to the coordinator per lookup would cost more than the lookup). A table dropped
     * or created again is noticed within that second; a lookup on a dropped table fails meanwhile.
     */
    TableInfo info(Backend backend, io.javalin.http.Context ctx) {
        FlussConnection connection = backend.connection();
        Map.Entry<FlussConnection, TablePath> key = Map.entry(connection, Backend.tablePath(ctx));
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

    private static void closeQuietly(Table table) {
        try {
            table.close();
        } catch (Exception ignored) {
            // a stale handle; closing it is best effort
        }
    }
}
